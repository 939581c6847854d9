// Annotated source for excludes' calls followed by receiver type:
// `// want ID "regexp"` marks a finding; every other line must stay
// silent. A wait is Stream::synchronize; std::condition_variable's wait
// and a std::thread's join are the library's.
#include <condition_variable>
#include <mutex>
#include <thread>

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

// Queue::wait waits for the stream.
void Queue::wait() { stream_.synchronize(); }

class Device {
  std::mutex eval_mu_;
  std::condition_variable cv_;
  Queue queue_;
  Queue* current_;

 public:
  void library_wait();
  void revert_member();
  void revert_pointer_member();
};

// cv_ is a std::condition_variable: its wait is not Queue::wait.
void Device::library_wait() {
  std::unique_lock<std::mutex> l(eval_mu_);
  cv_.wait(l);
}

void Device::revert_member() {
  std::lock_guard<std::mutex> l(eval_mu_);
  queue_.wait();  // want cpp-recv-wait "Device::revert_member calls Queue::wait while holding eval_mu_ \(taken at line [0-9]+\), and Stream::synchronize must not run with eval_mu_ held"
}

void Device::revert_pointer_member() {
  std::lock_guard<std::mutex> l(eval_mu_);
  current_->wait();  // want cpp-recv-wait "Device::revert_pointer_member calls Queue::wait while holding eval_mu_ \(taken at line [0-9]+\), and Stream::synchronize must not run with eval_mu_ held"
}
