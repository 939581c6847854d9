// Guard forms of real C++: deduced guards (`auto g = T(m)`), guards in
// the init-statement of an if or a switch, the guards and lock calls of
// Abseil, Qt and Chromium. `// want ID "regexp"` marks a finding; every
// other line must stay silent.
#include <mutex>

class Cache {
  void auto_call();
  std::mutex mu_;
  absl::Mutex amu_;
  QReadWriteLock rw_;
  int n_;
};

void Cache::auto_call() {
  auto lk = std::unique_lock(mu_);
  n_++;
}

void Cache::auto_template() {
  auto lk = std::lock_guard<std::mutex>(mu_);
  n_++;
}

void Cache::auto_braces() {
  auto lk = std::lock_guard<std::mutex>{mu_};
  n_++;
}

void Cache::auto_scoped() {
  auto lk = std::scoped_lock(other_, mu_);
  n_++;
}

void Cache::if_init() {
  if (std::lock_guard lk(mu_); n_ > 0) {
    n_--;
  } else {
    n_ = 0;
  }
}

void Cache::switch_init() {
  switch (std::unique_lock<std::mutex> lk{mu_}; n_) {
    case 0:
      n_ = 1;
      break;
    default:
      n_++;
  }
}

void Cache::abseil() {
  absl::MutexLock l(&amu_);
  n_++;
}

void Cache::abseil_reader() {
  absl::ReaderMutexLock l(&amu_);
  use(n_);
}

void Cache::abseil_calls() {
  amu_.Lock();
  bump();
  amu_.Unlock();
}

void Cache::abseil_reader_calls() {
  amu_.ReaderLock();
  peek();
  amu_.ReaderUnlock();
}

void Cache::qt_reader() {
  QReadLocker l(&rw_);
  use(n_);
}

// Reverts.

void Cache::revert_auto_no_mutex() {  // want cpp-guards "never acquires it"
  auto lk = std::unique_lock<std::mutex>();
  n_++;
}

void Cache::revert_if_init_then_work() {
  if (std::lock_guard lk(mu_); n_ > 0) {
    n_--;
  }
  n_++;  // want cpp-guards "mu_ is not held here; Cache::revert_if_init_then_work must hold it \(exclusive\) at every statement that does work"
}

void Cache::revert_abseil_early_unlock() {
  amu_.WriterLock();
  amu_.WriterUnlock();
  bump();  // want cpp-abseil-calls "Cache::revert_abseil_early_unlock must hold amu_ \(shared\) where it calls bump; the guard at line 95 does not count: it is released at line 96"
}

void Cache::revert_abseil_reader() {
  absl::ReaderMutexLock l(&amu_);  // want cpp-abseil "amu_ is not held in exclusive mode here"
  n_++;
}

void Cache::revert_qt_reader() {
  QReadLocker l(&rw_);  // want cpp-qt "rw_ is not held in exclusive mode here"
  n_++;
}

// requires: each bump must run with mu_ held.

void Cache::req_auto() {
  auto lk = std::unique_lock(mu_);
  bump();
}

void Cache::req_if_init() {
  if (std::lock_guard lk(mu_); n_ > 0) {
    bump();
  } else {
    bump();
  }
}

void Cache::revert_req_after_if_init() {
  if (std::lock_guard lk(mu_); n_ > 0) {
    n_--;
  }
  bump();  // want cpp-requires "the guard at line 126 does not count: it holds the lock only from line 126 to line 128"
}

// Guards and lock calls the invariants file declares.

void Cache::declared_guard() {
  util::SpinGuard g(spin_);
  n_++;
}

void Cache::declared_reader() {
  util::SharedSpinGuard g(&spin_);  // want cpp-declared "spin_ is not held in exclusive mode here"
  n_++;
}

void Cache::undeclared_guard() {  // want cpp-declared "never acquires it"
  other::SpinGuard g(spin_);
  n_++;
}

void Cache::declared_calls() {
  spin_.Acquire();
  bump_spin();
  spin_.Release();
}

void Cache::revert_declared_calls() {
  spin_.Acquire();
  spin_.Release();
  bump_spin();  // want cpp-declared-calls "the guard at line 156 does not count: it is released at line 157"
}

void Cache::declared_funcs() {
  uv_mutex_lock(&spin_);
  bump_spin();
  uv_mutex_unlock(&spin_);
}

// Guards of an init-statement given up inside their region.

void Cache::if_init_unlocked_last() {
  if (std::unique_lock lk(mu_); n_ > 0) {
    n_--;
    lk.unlock();
  }
}

void Cache::revert_if_init_unlocked() {
  if (std::unique_lock lk(mu_); n_ > 0) {
    lk.unlock();  // want cpp-guards "mu_ is released here, but Cache::revert_if_init_unlocked must hold it .*: the statement at line 179 still does"
    n_--;
  }
}

void Cache::revert_if_init_released() {
  if (std::unique_lock lk(mu_); n_ > 0) {
    lk.release();  // want cpp-guards "the guard of mu_ is given up here without unlocking it"
    n_--;
  }
}

// absl::ReleasableMutexLock gives the mutex up at Release(), before its
// scope ends: silent with nothing that works after it, firing with work
// after it.
void Cache::abseil_releasable() {
  absl::ReleasableMutexLock l(&amu_);
  n_++;
  l.Release();
}

void Cache::revert_abseil_released() {
  absl::ReleasableMutexLock l(&amu_);
  l.Release();  // want cpp-abseil "amu_ is released here, but Cache::revert_abseil_released must hold it at every statement that does work: the statement at line 202 still does"
  n_++;
}
