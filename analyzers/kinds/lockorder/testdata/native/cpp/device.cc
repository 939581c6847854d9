// Annotated source for lock_order in C++: `// want ID "regexp"` marks a
// finding; every other line must stay silent.
#include <mutex>
#include <shared_mutex>

namespace gpu {

class Device {
  std::mutex eval_mu_;
  std::mutex streams_mu_;
  std::shared_mutex encoders_mu_;
  std::mutex other_mu_;
  int streams_;
  void register_stream();
  void register_again();

 public:
  void eval();
  void sequential();
  void try_reverse();
  void revert_reversed();
  void revert_via_call();
  void revert_explicit();
  void revert_other_first();
  void revert_two_calls();
};

// In order: eval, streams, then the encoder map for reading.
void Device::eval() {
  std::lock_guard<std::mutex> e(eval_mu_);
  {
    std::lock_guard<std::mutex> s(streams_mu_);
    streams_++;
  }
  std::shared_lock<std::shared_mutex> r(encoders_mu_);
}

void Device::register_stream() {
  std::lock_guard<std::mutex> s(streams_mu_);
  streams_++;
}

// One after the other, never nested.
void Device::sequential() {
  {
    std::lock_guard<std::mutex> s(streams_mu_);
    streams_++;
  }
  std::lock_guard<std::mutex> e(eval_mu_);
}

// try_to_lock does not wait: no deadlock.
void Device::try_reverse() {
  std::lock_guard<std::mutex> s(streams_mu_);
  std::unique_lock<std::mutex> e(eval_mu_, std::try_to_lock);
}

// Reverts.

void Device::revert_reversed() {
  std::lock_guard<std::mutex> s(streams_mu_);
  std::lock_guard<std::mutex> e(eval_mu_);  // want cpp-device-order "gpu::Device::revert_reversed takes eval_mu_ while holding streams_mu_ \(taken at line 61\); the lock order is eval_mu_ → streams_mu_ → encoders_mu_, so eval_mu_ may not be taken while streams_mu_ is held" cpp-eval-first "while holding the unlisted lock streams_mu_"
}

void Device::revert_via_call() {
  std::shared_lock<std::shared_mutex> r(encoders_mu_);
  register_stream();  // want cpp-device-order "gpu::Device::revert_via_call calls gpu::Device::register_stream while holding encoders_mu_ \(taken at line 66\), and gpu::Device::register_stream takes streams_mu_ at device.cc:39: gpu::Device::revert_via_call → gpu::Device::register_stream"
}

void Device::revert_explicit() {
  encoders_mu_.lock();
  eval_mu_.lock();  // want cpp-device-order "revert_explicit takes eval_mu_ while holding encoders_mu_ \(taken at line 71\)" cpp-eval-first "while holding the unlisted lock encoders_mu_"
  eval_mu_.unlock();
  encoders_mu_.unlock();
}

void Device::revert_other_first() {
  std::lock_guard<std::mutex> o(other_mu_);
  std::lock_guard<std::mutex> e(eval_mu_);  // want cpp-eval-first "revert_other_first takes eval_mu_ while holding the unlisted lock other_mu_ \(taken at line 78\)"
}

void Device::register_again() { register_stream(); }

void Device::revert_two_calls() {
  std::shared_lock<std::shared_mutex> r(encoders_mu_);
  register_again();  // want cpp-device-order "gpu::Device::revert_two_calls calls gpu::Device::register_again while holding encoders_mu_ \(taken at line 85\), and gpu::Device::register_stream takes streams_mu_ at device.cc:39: gpu::Device::revert_two_calls → gpu::Device::register_again → gpu::Device::register_stream"
}

// Deduced guards, an if's init-statement, Abseil's guards and calls.

void Device::auto_in_order() {
  auto e = std::unique_lock(eval_mu_);
  auto s = std::lock_guard<std::mutex>{streams_mu_};
}

void Device::revert_auto() {
  auto s = std::lock_guard<std::mutex>(streams_mu_);
  auto e = std::scoped_lock(eval_mu_);  // want cpp-device-order "revert_auto takes eval_mu_ while holding streams_mu_ \(taken at line 97\)" cpp-eval-first "while holding the unlisted lock streams_mu_"
}

void Device::if_init_released() {
  if (std::lock_guard s(streams_mu_); ready_) {
    ready_ = false;
  }
  std::lock_guard<std::mutex> e(eval_mu_);
}

void Device::revert_if_init() {
  if (std::lock_guard s(streams_mu_); ready_) {
    std::lock_guard<std::mutex> e(eval_mu_);  // want cpp-device-order "revert_if_init takes eval_mu_ while holding streams_mu_ \(taken at line 109\)" cpp-eval-first "while holding the unlisted lock streams_mu_"
  }
}

void Device::revert_abseil() {
  absl::MutexLock s(&streams_mu_);
  eval_mu_.Lock();  // want cpp-device-order "revert_abseil takes eval_mu_ while holding streams_mu_ \(taken at line 115\)" cpp-eval-first "while holding the unlisted lock streams_mu_"
  eval_mu_.Unlock();
}

}  // namespace gpu
