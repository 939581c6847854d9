// Annotated source for calls that real code makes in other spellings:
// in a lambda that a runner runs, in a declaration's constructor
// arguments, through an equivalent wrapper. `// want ID "regexp"` marks
// a finding; every other line must stay silent.
#include <functional>
#include <mutex>
#include <shared_mutex>

struct Encoder {
  void retain();
  void release();
};
namespace NS {
template <class T>
struct SharedPtr {};
template <class T>
SharedPtr<T> RetainPtr(T* p);
}  // namespace NS
namespace pool {
void run_now(std::function<void()> f);
void later(std::function<void()> f);
}  // namespace pool

std::once_flag flag;
Encoder* make_encoder();

// std::call_once runs the lambda before it returns.
void init_once(Encoder* enc) {
  std::call_once(flag, [&] { enc->retain(); });
}

// A lambda bound to a local and handed to std::call_once.
void init_bound(Encoder* enc) {
  auto retain = [&] { enc->retain(); };
  std::call_once(flag, retain);
}

// A runner the invariants file declares (`runs: [pool::run_now]`).
void init_pool(Encoder* enc) {
  pool::run_now([&] { enc->retain(); });
}

// A function not known to run it: the call does not count.
void revert_later(Encoder* enc) {
  pool::later([&] { enc->retain(); });  // want retained "this call does not count: it is in a lambda that is never called here"
}

// The wrapper retains: an alternative of the call.
void wrapped() {
  auto enc = NS::RetainPtr(make_encoder());
}

void wrapped_template() {
  auto enc = NS::RetainPtr<Encoder>(make_encoder());
}

void revert_unwrapped() {  // want retained "revert_unwrapped must call enc->retain or NS::RetainPtr, and contains no live call of it"
  auto enc = make_encoder();
}

// Calls in a declaration's constructor arguments count: the mutex is
// fetched before the map is read.
std::shared_mutex& map_mutex();
int& global_map();

int read_map() {
  std::shared_lock lock(map_mutex());
  return global_map();
}

int revert_read_map() {
  int v = global_map();  // want map-order "revert_read_map must call map_mutex before this call of global_map, on every path"
  std::shared_lock lock(map_mutex());
  return v;
}
