// Annotated source for hold over real shapes: argument checks before the
// lock, a lock reached through a local reference or pointer, overloads
// told apart by their parameters, alternatives. `// want ID "regexp"`
// marks a finding; every other line must stay silent.
#include <cassert>
#include <mutex>
#include <stdexcept>
#include <string>

namespace mlx {
namespace detail {
std::recursive_mutex& eval_mutex();
}
struct Stream {
  int index;
};
struct array;
void eval_impl(array* a, bool async);
void drain(Stream s);
void drain_all();
int pending();

// Guard clauses that check the arguments and throw, return or assert do
// no work: the lock may come after them.
void eval(array* a, int n) {
  assert(a != nullptr && n >= 0);
  if (n == 0) {
    return;
  }
  if (n > 4096) throw std::invalid_argument("too many outputs: " + std::to_string(n));
  if (!a) std::__throw_logic_error("null array");
  auto& m = detail::eval_mutex();
  std::lock_guard<std::recursive_mutex> lock(m);
  eval_impl(a, false);
}

// The lock through a pointer bound to its address.
void eval_async(array* a) {
  auto* m = &detail::eval_mutex();
  std::lock_guard<std::recursive_mutex> lock(*m);
  eval_impl(a, true);
}

// A check that reads shared state is work: the lock comes too late.
void revert_check_reads(array* a) {
  if (pending() > 0) {  // want eval-locked "detail::eval_mutex\(\) is not held here; mlx::revert_check_reads must hold it \(exclusive\) at every statement that does work, and takes it only at line 49"
    return;
  }
  std::lock_guard<std::recursive_mutex> lock(detail::eval_mutex());
  eval_impl(a, false);
}

// A reference that is bound again is no alias.
void revert_alias_rebound(array* a, std::recursive_mutex& other) {  // want eval-locked "mlx::revert_alias_rebound must hold detail::eval_mutex\(\) \(exclusive\) at every statement that does work, and never acquires it"
  std::recursive_mutex* m = &detail::eval_mutex();
  m = &other;
  std::lock_guard<std::recursive_mutex> lock(*m);
  eval_impl(a, false);
}

// The overloads: only synchronize(Stream) must hold the lock.
void synchronize() {
  drain_all();
}

void synchronize(Stream s) {
  std::lock_guard<std::recursive_mutex> lock(detail::eval_mutex());
  drain(s);
}

void synchronize(Stream s, bool wait) {
  drain(s);
}

}  // namespace mlx

// Alternatives: either lock serialises the registry.
namespace registry {

std::mutex& legacy_mutex();
std::mutex& table_mutex();
void add();

void add_legacy() {
  std::lock_guard<std::mutex> lock(legacy_mutex());
  add();
}

void add_table() {
  std::lock_guard<std::mutex> lock(table_mutex());
  add();
}

void revert_add() {  // want registry-locked "registry::revert_add must hold legacy_mutex\(\) or table_mutex\(\) \(exclusive\) at every statement that does work, and never acquires it"
  add();
}

}  // namespace registry
