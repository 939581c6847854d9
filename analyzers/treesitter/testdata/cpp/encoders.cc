// Annotated source for requires over C++: the stream-to-encoder map of
// an array framework, read under a shared lock taken in the nested block
// around the only access it protects, written under an exclusive one.
// `// want ID "regexp"` marks a finding; every other line must stay
// silent.
#include <functional>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>

struct Encoder;
struct Stream {
  int index;
};

namespace gpu {

std::shared_mutex& map_mutex();
std::unordered_map<int, Encoder*>& global_encoders();
std::unordered_map<int, Encoder*>& local_encoders();
std::unique_lock<std::shared_mutex> lock_encoders();
void work();

// The fallback read: the shared lock is taken in the block around the
// lookup, and the reference bound inside it.
Encoder* find_encoder(Stream s) {
  auto& local = local_encoders();
  auto it = local.find(s.index);
  if (it == local.end()) {
    std::shared_lock lock(map_mutex());
    auto& g = global_encoders();
    auto git = g.find(s.index);
    if (git == g.end()) {
      return nullptr;
    }
    return git->second;
  }
  return it->second;
}

// Registration takes the lock exclusively; exclusive meets shared.
void register_encoder(Stream s, Encoder* e) {
  std::unique_lock<std::shared_mutex> lock(map_mutex());
  global_encoders()[s.index] = e;
}

// A lock taken through a reference to the mutex.
void clear_encoders() {
  auto& mu = map_mutex();
  std::unique_lock lock(mu);
  global_encoders().clear();
}

// An acquire helper returns the guard.
void drop_encoder(Stream s) {
  auto lock = lock_encoders();
  global_encoders().erase(s.index);
}

// unlock, then relock, then the access: held again.
void relocked(Stream s) {
  std::unique_lock<std::shared_mutex> lock(map_mutex());
  lock.unlock();
  work();
  lock.lock();
  global_encoders().erase(s.index);
}

// An unlock on an early return does not reach the access below it.
void early_return(Stream s, bool skip) {
  std::unique_lock<std::shared_mutex> lock(map_mutex());
  if (skip) {
    lock.unlock();
    return;
  }
  global_encoders().erase(s.index);
}

// Explicit lock and unlock calls on the mutex.
void explicit_calls(Stream s) {
  map_mutex().lock();
  global_encoders().erase(s.index);
  map_mutex().unlock();
}

// A static function: its callers, in this file, hold the lock.
static Encoder* lookup_locked(int index) {
  return global_encoders()[index];
}

Encoder* lookup(int index) {
  std::shared_lock lock(map_mutex());
  return lookup_locked(index);
}

// The reverts.

Encoder* revert_deleted(Stream s) {
  auto& g = global_encoders();  // want encoders-locked "revert_deleted \(it is not static, so other files can call it\) calls global_encoders without holding map_mutex\(\) \(shared\), and nothing shows its callers hold it: gpu::revert_deleted → global_encoders; every call of global_encoders needs the lock; no guard of map_mutex\(\) is in scope here"
  return g[s.index];
}

Encoder* revert_temporary(Stream s) {
  std::shared_lock<std::shared_mutex>{map_mutex()};
  auto& g = global_encoders();  // want encoders-locked "the guard at line 104 does not count: it is a temporary, destroyed \(and unlocked\) at the end of its statement"
  return g[s.index];
}

Encoder* revert_nested(Stream s) {
  {
    std::shared_lock lock(map_mutex());
  }
  auto& g = global_encoders();  // want encoders-locked "the guard at line 111 does not count: it is declared in a block that ends at line 112, before this"
  return g[s.index];
}

Encoder* revert_unlocked(Stream s) {
  std::unique_lock<std::shared_mutex> lock(map_mutex());
  lock.unlock();
  auto& g = global_encoders();  // want encoders-locked "the guard at line 118 does not count: it is released at line 119"
  return g[s.index];
}

Encoder* revert_defer(Stream s) {
  std::unique_lock<std::shared_mutex> lock(map_mutex(), std::defer_lock);
  auto& g = global_encoders();  // want encoders-locked "does not count: it is constructed with std::defer_lock and does not lock"
  return g[s.index];
}

Encoder* revert_after(Stream s) {
  auto& g = global_encoders();  // want encoders-locked "the guard at line 132 does not count: it is taken only at line 132, after this"
  std::shared_lock lock(map_mutex());
  return g[s.index];
}

void revert_if0(Stream s, Encoder* e) {
#if 0
  std::unique_lock<std::shared_mutex> lock(map_mutex());
#endif
  global_encoders()[s.index] = e;  // want encoders-locked "does not count: it never runs: in `#if 0`, which is not compiled"
}

void revert_loop(int n) {
  std::unique_lock<std::shared_mutex> lock(map_mutex());
  for (int i = 0; i < n; i++) {
    global_encoders().erase(i);  // want encoders-locked "it is released at line 147, and the loop around both comes back here without it"
    lock.unlock();
    work();
  }
}

void revert_stored(std::function<void()>& later) {
  std::shared_lock lock(map_mutex());
  later = [] { global_encoders().clear(); };  // want encoders-locked "a lambda that is never called here calls global_encoders without holding map_mutex\(\) \(shared\)"
}

// A static function whose caller does not hold the lock: the requirement
// goes on to the caller, which other files can call.
static void erase_locked(int index) {
  global_encoders().erase(index);
}

void revert_caller(int index) {
  erase_locked(index);  // want encoders-locked "gpu::revert_caller \(it is not static, so other files can call it\) calls gpu::erase_locked without holding map_mutex\(\) \(shared\), and nothing shows its callers hold it: gpu::revert_caller → gpu::erase_locked → global_encoders"
}

// A static function used as a value: where it is called from cannot be
// followed.
static void clear_locked() {
  global_encoders().clear();
}

std::function<void()> revert_value() {
  return clear_locked;  // want encoders-locked "gpu::clear_locked needs map_mutex\(\) held by its callers \(shared\), but is used here as a function value, whose calls cannot be checked: gpu::clear_locked → global_encoders"
}

}  // namespace gpu

// Exclusive where exclusive is needed: a shared guard is not enough.
namespace writes {

std::shared_mutex& map_mutex();
std::unordered_map<int, Encoder*>& global_encoders();

void good_insert(int k, Encoder* e) {
  std::lock_guard<std::shared_mutex> lock(map_mutex());
  global_encoders().emplace(k, e);
}

void revert_shared(int k, Encoder* e) {
  std::shared_lock lock(map_mutex());
  global_encoders().emplace(k, e);  // want encoders-exclusive "writes::revert_shared holds map_mutex\(\) only for reading \(a shared guard\) where it calls writes::global_encoders, which needs it exclusive \(an exclusive one\)"
}

}  // namespace writes

// within: the check of one function's calls, by its own guards.
namespace within {

std::mutex& eval_mutex();
void encode();

void eval_impl(bool lazy) {
  if (lazy) {
    std::lock_guard<std::mutex> l(eval_mutex());
    encode();
  }
}

void revert_eval_impl(bool lazy) {
  if (lazy) {
    { std::lock_guard<std::mutex> l(eval_mutex()); }
    encode();  // want within-eval "within::revert_eval_impl must hold eval_mutex\(\) \(exclusive\) where it calls encode; the guard at line 212 does not count: it is declared in a block that ends at line 212, before this"
  }
}

// Not under within: not checked.
void unchecked() { encode(); }

}  // namespace within
