// Upstream's evaluation entry point.
#include <mutex>

namespace gpu {

std::recursive_mutex& eval_mutex();
void encode_graph();
void commit();

void eval_impl() {
  encode_graph();
  commit();
}

}  // namespace gpu
