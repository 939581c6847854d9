// The other contracts of Clang's annotations: a function that returns
// the lock, one that releases a lock its callers hold, an assertion in a
// branch, and a lock an enclosing object owns.
#include <mutex>

#define LOCK_RETURNED(x) __attribute__((lock_returned(x)))
#define EXCLUSIVE_LOCKS_REQUIRED(...) __attribute__((exclusive_locks_required(__VA_ARGS__)))
#define UNLOCK_FUNCTION(...) __attribute__((unlock_function(__VA_ARGS__)))

class Mutex {
 public:
  void Lock();
  void Unlock();
  void AssertHeld() const;
};

class MutexLock {
 public:
  explicit MutexLock(Mutex* mu);
};

class Activity {
 public:
  void Run();
  void Wake();
  void Cancel();
  void Finish() UNLOCK_FUNCTION(mu_);
  void Wake2();
  bool TryFinish();
  void MarkDone() EXCLUSIVE_LOCKS_REQUIRED(mu());
  void Step() EXCLUSIVE_LOCKS_REQUIRED(mu_);
  static bool is_current();

 private:
  Mutex* mu() LOCK_RETURNED(mu_) { return &mu_; }
  Mutex mu_;
  bool done_;
  int wakeups_;
};

class Timers {
 public:
  struct Shard {
    int index;  // guarded by the enclosing Timers' mu_
  };
  void Note(Shard* s) EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void Unnoted();
  void Noted();

 private:
  Mutex mu_;
  Shard shards_[4];
};
