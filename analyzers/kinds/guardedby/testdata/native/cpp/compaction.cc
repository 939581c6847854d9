// A private helper that its callers call with the mutex held (by its
// annotation), which gives the mutex up for slow work and takes it again
// before it touches the guarded field, as leveldb's DBImpl compaction
// does. After its own Unlock() what the callers hold is given up: an
// access before the Lock() again is unguarded, whatever they hold.
#define EXCLUSIVE_LOCKS_REQUIRED(...) __attribute__((exclusive_locks_required(__VA_ARGS__)))

class Mutex {
 public:
  void Lock();
  void Unlock();
};

class Compactor {
 public:
  void Run();

 private:
  void Compact() EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void CompactNoRelock() EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void CompactCallNoRelock() EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void Branchy(bool slow) EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void Record();
  void Slow();
  Mutex mu_;
  int pending_;
};

void Compactor::Compact() {
  pending_++;
  mu_.Unlock();
  Slow();
  mu_.Lock();
  pending_--;
}

void Compactor::CompactNoRelock() {
  pending_++;
  mu_.Unlock();
  Slow();
  pending_--;  // want compaction-pending "writes Compactor::pending_ \(--\) after Compactor::CompactNoRelock gives mu_ up at line 39, without taking it again"
  mu_.Lock();
}

// Record touches pending_ and is called only in this file: its callers
// must hold mu_.
void Compactor::Record() { pending_ = 0; }

void Compactor::CompactCallNoRelock() {
  Record();
  mu_.Unlock();
  Slow();
  Record();  // want compaction-pending "calls Compactor::Record after Compactor::CompactCallNoRelock gives mu_ up at line 51, without taking it again"
  mu_.Lock();
}

void Compactor::Run() {
  mu_.Lock();
  Compact();
  CompactNoRelock();
  CompactCallNoRelock();
  Branchy(true);
  mu_.Unlock();
}

// The unlock is on one branch, and taken again there: the other branch
// still holds what the callers hold.
void Compactor::Branchy(bool slow) {
  if (slow) {
    mu_.Unlock();
    Slow();
    mu_.Lock();
  } else if (pending_ > 0) {
    pending_--;
  }
}
