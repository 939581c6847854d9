// A class whose helpers say, with Clang's thread-safety annotations, that
// their callers hold the lock. The invariants erase the macros, which the
// grammar cannot read; guarded_by reads them from the source all the same.
#include <mutex>
#include <shared_mutex>
#include <vector>

#define EXCLUSIVE_LOCKS_REQUIRED(...) __attribute__((exclusive_locks_required(__VA_ARGS__)))
#define SHARED_LOCKS_REQUIRED(...) __attribute__((shared_locks_required(__VA_ARGS__)))
#define ABSL_EXCLUSIVE_LOCKS_REQUIRED(...) __attribute__((exclusive_locks_required(__VA_ARGS__)))
#define REQUIRES(...) __attribute__((requires_capability(__VA_ARGS__)))
#define ASSERT_EXCLUSIVE_LOCK(...) __attribute__((assert_exclusive_lock(__VA_ARGS__)))

class Mutex {
 public:
  void lock();
  void unlock();
  void AssertHeld() const;
  void AssertReaderHeld() const;
};

struct Journal {
  void Append(int v);
  void Reset();
  int Size() const;
  int SharedWrite();
  void Drain();
  void LateAssert();
  void Rebuild();
  void Shrink();
  void AppendLocked(int v) EXCLUSIVE_LOCKS_REQUIRED(mu_);
  const int& SizeLocked() const SHARED_LOCKS_REQUIRED(mu_);
  void TouchShared() SHARED_LOCKS_REQUIRED(mu_);
  void CompactLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(&mu_);
  void Unannotated();

  mutable std::shared_mutex mu_;
  std::vector<int> entries_;
};

// A free function whose annotation names its parameter's lock.
void BumpLocked(Journal* j) REQUIRES(j->mu_);

// A class whose own mutex type asserts it is held.
class Ledger {
 public:
  void Post(int v);
  void Settle();
  int Total() const;
  void SettleUnlocked();
  void Reset();

 private:
  void SettleLocked();
  void CheckHeld() const ASSERT_EXCLUSIVE_LOCK(mu_);
  mutable Mutex mu_;
  int total_ = 0;
};

// A struct declared in a class: its members' annotations are read too.
class Queue {
 public:
  void Push(int v);
  void PushUnlocked(int v);

 private:
  struct Slot {
    Slot();
    void FillLocked(int v) EXCLUSIVE_LOCKS_REQUIRED(mu);
    std::mutex mu;
    int value;
  };
  Slot slot_;
};
