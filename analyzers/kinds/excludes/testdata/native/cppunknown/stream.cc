// Receivers whose type is not known. A call of a target's own name is a
// call of the target, as call and forbid match calls; a call of another
// function is not followed, and the invariant says so once, naming the
// first.
#include <mutex>

class Stream {
 public:
  void synchronize();
};

void Stream::synchronize() { wait_for_gpu(); }

class Queue {
 public:
  void wait();
  Stream stream_;
};

void Queue::wait() { stream_.synchronize(); }

class Device {
  std::mutex eval_mu_;
  void revert_eval();
  void eval();
  void drain();
  void eval_drain();
};

void Device::revert_eval() {
  std::lock_guard<std::mutex> l(eval_mu_);
  current_stream().synchronize();  // want cpp-unknown-wait "Device::revert_eval calls Stream::synchronize while holding eval_mu_ \(taken at line 31\)"
}

void Device::eval() {
  std::lock_guard<std::mutex> l(eval_mu_);
  current_queue().wait();
}

void Device::drain() { current_queue().wait(); }

void Device::eval_drain() {
  std::lock_guard<std::mutex> l(eval_mu_);
  drain();
}
