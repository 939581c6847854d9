// Annotated source for guards in C++: `// want ID "regexp"` marks a
// finding; every other line must stay silent.
#include <mutex>
#include <shared_mutex>

void work();

namespace gpu {
namespace detail {

struct Registry {
  std::mutex mu;
  std::mutex other;
  std::shared_mutex table_mu;

  void hold_paren();
  void hold_brace();
  void hold_this_ctad();
  void hold_scoped_two();
  void hold_after_no_work();
  void hold_if_defined_guard();
  void revert_temporary();
  void revert_nested_block();
  void revert_late();
  void revert_if0_guard();
  void revert_unlock();
  void revert_defer_lock();
  void revert_other_mutex();
  void revert_if_false_guard();
  void lookup_shared();
  void lookup_exclusive();
  void lookup_shared_in_block();
};

// `T l(m)` parses as a function declaration: the guard is still found.
void Registry::hold_paren() {
  std::lock_guard<std::mutex> l(mu);
  work();
}

void Registry::hold_brace() {
  std::unique_lock<std::mutex> l{mu};
  work();
}

void Registry::hold_this_ctad() {
  std::scoped_lock l(this->mu);
  work();
}

void Registry::hold_scoped_two() {
  std::scoped_lock both(other, mu);
  work();
}

void Registry::hold_after_no_work() {
  int tries = 0;
  std::lock_guard<std::mutex> l(mu);
  work();
}

void Registry::hold_if_defined_guard() {
#if GPU_LOCKED
  std::lock_guard<std::mutex> l(mu);
#endif
  work();
}

void Registry::revert_temporary() {
  std::lock_guard<std::mutex>{mu};  // want cpp-hold "this guard does not count: it is a temporary, destroyed \(and unlocked\) at the end of its statement"
  work();
}

void Registry::revert_nested_block() {
  {
    std::lock_guard<std::mutex> l(mu);  // want cpp-hold "it is declared in a nested block"
  }
  work();
}

void Registry::revert_late() {
  work();  // want cpp-hold "mu is not held here; gpu::detail::Registry::revert_late must hold it \(exclusive\) at every statement that does work, and takes it only at line 83"
  std::lock_guard<std::mutex> l(mu);
}

void Registry::revert_if0_guard() {
#if 0
  std::lock_guard<std::mutex> l(mu);  // want cpp-hold "it never runs: in `#if 0`"
#endif
  work();
}

void Registry::revert_unlock() {
  std::unique_lock<std::mutex> l(mu);
  l.unlock();  // want cpp-hold "mu is released here, but .* must hold it at every statement that does work: the statement at line 96 still does"
  work();
}

void Registry::revert_defer_lock() {
  std::unique_lock<std::mutex> l(mu, std::defer_lock);  // want cpp-hold "constructed with std::defer_lock and does not lock"
  work();
}

void Registry::revert_other_mutex() {  // want cpp-hold "and never acquires it; the function takes `other`"
  std::lock_guard<std::mutex> l(other);
  work();
}

void Registry::revert_if_false_guard() {
  if (false) {
    std::lock_guard<std::mutex> l(mu);  // want cpp-hold "it never runs: in a branch under a constant false condition"
  }
  work();
}

void Registry::lookup_shared() {
  std::shared_lock<std::shared_mutex> l(table_mu);
  work();
}

void Registry::lookup_exclusive() {
  std::unique_lock<std::shared_mutex> l(table_mu);  // want cpp-shared "table_mu is not held in shared mode here"
  work();
}

void Registry::lookup_shared_in_block() {
  if (work) {
    std::shared_lock<std::shared_mutex> l(table_mu);  // want cpp-shared "declared in a nested block"
    work();
  }
}

}  // namespace detail
}  // namespace gpu

// Two functions with one name: an invariant must name one, or say all.
namespace a {
void dup() { work(); }
}  // namespace a
namespace b {
void dup() { work(); }
}  // namespace b

// A target that does not parse cannot be verified.
void broken() {
  std::lock_guard<std::mutex> l(mu;
  work();
}
