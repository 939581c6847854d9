// Annotated source for excludes in C++: `// want ID "regexp"` marks a
// finding; every other line must stay silent.
#include <mutex>

namespace gpu {

class Stream {
 public:
  void synchronize();
};

class Scheduler {
  std::mutex eval_mu_;
  Stream stream_;
  void encode();
  void wait_all();
  void wait_locked();

 public:
  void eval();
  void eval_unlock();
  void eval_explicit();
  void eval_temporary();
  void eval_and_wait_locked();
  void revert_wait_locked();
  void revert_helper_locked();
  void revert_explicit();
  void revert_lambda();
};

void Stream::synchronize() {}

void Scheduler::encode() {}

// wait_all passes the exclusion to its callers.
void Scheduler::wait_all() { stream_.synchronize(); }

// The guard's block ends before the wait.
void Scheduler::eval() {
  {
    std::lock_guard<std::mutex> lk(eval_mu_);
    encode();
  }
  stream_.synchronize();
}

// The unique_lock is released before the wait.
void Scheduler::eval_unlock() {
  std::unique_lock<std::mutex> lk(eval_mu_);
  encode();
  lk.unlock();
  wait_all();
}

// Explicit lock and unlock, then the wait.
void Scheduler::eval_explicit() {
  eval_mu_.lock();
  encode();
  eval_mu_.unlock();
  stream_.synchronize();
}

// A temporary guard unlocks at the end of its statement.
void Scheduler::eval_temporary() {
  std::lock_guard<std::mutex>{eval_mu_};
  stream_.synchronize();
}

// wait_locked is called with the lock held and gives it up to wait: it
// decides the lock itself, so its callers may hold it.
void Scheduler::wait_locked() {
  eval_mu_.unlock();
  stream_.synchronize();
  eval_mu_.lock();
}

void Scheduler::eval_and_wait_locked() {
  std::unique_lock<std::mutex> lk(eval_mu_);
  wait_locked();
}

// Reverts.

void Scheduler::revert_wait_locked() {
  std::lock_guard<std::mutex> lk(eval_mu_);
  stream_.synchronize();  // want cpp-wait-unlocked "gpu::Scheduler::revert_wait_locked calls gpu::Stream::synchronize while holding eval_mu_ \(taken at line 85\), and gpu::Stream::synchronize must not run with eval_mu_ held: gpu::Scheduler::revert_wait_locked → gpu::Stream::synchronize"
}

void Scheduler::revert_helper_locked() {
  std::scoped_lock lk(eval_mu_);
  wait_all();  // want cpp-wait-unlocked "gpu::Scheduler::revert_helper_locked calls gpu::Scheduler::wait_all while holding eval_mu_ \(taken at line 90\), and gpu::Stream::synchronize must not run with eval_mu_ held: gpu::Scheduler::revert_helper_locked → gpu::Scheduler::wait_all → gpu::Stream::synchronize"
}

void Scheduler::revert_explicit() {
  eval_mu_.lock();
  stream_.synchronize();  // want cpp-wait-unlocked "revert_explicit calls gpu::Stream::synchronize while holding eval_mu_ \(taken at line 95\)"
  eval_mu_.unlock();
}

void Scheduler::revert_lambda() {
  std::lock_guard<std::mutex> lk(eval_mu_);
  auto f = [&] { stream_.synchronize(); };  // want cpp-wait-unlocked "revert_lambda calls gpu::Stream::synchronize while holding eval_mu_"
  f();
}

}  // namespace gpu
