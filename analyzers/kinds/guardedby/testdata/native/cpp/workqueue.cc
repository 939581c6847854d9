// A predicate handed to the mutex, which runs it with the mutex held:
// Await in the caller's mode, LockWhen and a guard built with the
// condition taking the mutex themselves.
#define EXCLUSIVE_LOCKS_REQUIRED(...) __attribute__((exclusive_locks_required(__VA_ARGS__)))

class Condition {
 public:
  template <typename T>
  Condition(const T* object, bool (T::*method)() const);
};

class Mutex {
 public:
  void Lock();
  void Unlock();
  void Await(const Condition& cond);
  void LockWhen(const Condition& cond);
};

class MutexLock {
 public:
  explicit MutexLock(Mutex* mu);
  MutexLock(Mutex* mu, const Condition& cond);
};

class WorkQueue {
 public:
  int Take();
  bool TakeWhen();
  int TakeGuarded();
  int TakeUnlocked();
  int TakeOther(WorkQueue* other);

 private:
  bool Ready() const EXCLUSIVE_LOCKS_REQUIRED(mu_) { return pending_ > 0; }

  Mutex mu_;
  Mutex other_mu_;
  int pending_;
};

int WorkQueue::Take() {
  MutexLock l(&mu_);
  mu_.Await(Condition(this, &WorkQueue::Ready));
  return --pending_;
}

bool WorkQueue::TakeWhen() {
  // The condition runs under the mutex LockWhen takes (what the body does
  // after it is not read as held: LockWhen is no lock call of the front
  // end's).
  mu_.LockWhen(Condition(this, &WorkQueue::Ready));
  mu_.Unlock();
  return true;
}

int WorkQueue::TakeGuarded() {
  MutexLock l(&mu_, Condition(this, &WorkQueue::Ready));
  return --pending_;
}

int WorkQueue::TakeUnlocked() {
  other_mu_.Await(Condition(this, &WorkQueue::Ready));  // want queue-pending "calls WorkQueue::Ready without mu_ held, and it reads WorkQueue::pending_"
  return 0;
}

int WorkQueue::TakeOther(WorkQueue* other) {
  MutexLock l(&mu_);
  other_mu_.LockWhen(Condition(other, &WorkQueue::Ready));  // want queue-pending "calls WorkQueue::Ready without mu_ of other held"
  other_mu_.Unlock();
  return 0;
}
