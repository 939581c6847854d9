// A device whose evaluation lock comes first: the completion of a stream
// takes eval_mu_, so no wait may hold it, and the three locks are taken
// in the order eval_mu_, streams_mu_, encoders_mu_.
#include <map>
#include <mutex>

namespace gpu {

class Stream {
 public:
  void synchronize() {}
};

class Device {
  std::mutex eval_mu_;
  std::mutex streams_mu_;
  std::mutex encoders_mu_;
  std::map<int, Stream> streams_;
  std::map<int, int> encoders_;
  int pending_ = 0;

 public:
  void wait_all();
  void eval(int id);
  void eval_explicit(int id);
  void flush(int id);
  void record(int id);
};

// wait_all waits for every stream, holding no lock.
void Device::wait_all() {
  for (auto& s : streams_) {
    s.second.synchronize();
  }
}

// eval encodes under the locks, then waits outside them.
void Device::eval(int id) {
  {
    std::lock_guard<std::mutex> eval(eval_mu_);
    std::lock_guard<std::mutex> streams(streams_mu_);
    pending_++;
    record(id);
    {
      std::lock_guard<std::mutex> encoders(encoders_mu_);
      encoders_[id]++;
    }
  }
  streams_[id].synchronize();
}

// eval_explicit takes and gives up the evaluation lock by hand.
void Device::eval_explicit(int id) {
  eval_mu_.lock();
  pending_++;
  eval_mu_.unlock();
  wait_all();
  (void)id;
}

// flush takes the stream lock alone.
void Device::flush(int id) {
  std::lock_guard<std::mutex> streams(streams_mu_);
  record(id);
  streams_.erase(id);
}

// record notes a use of a stream; its callers hold streams_mu_.
void Device::record(int id) { streams_[id]; }

}  // namespace gpu
