// The stream table of a device, filled on first use of a device.
#include <mutex>
#include <unordered_map>

struct cudaStream_st;
typedef cudaStream_st* cudaStream_t;

class StreamTable {
 public:
  cudaStream_t get(int dev);
  cudaStream_t racy_get(int dev);

 private:
  std::mutex mu_;
  std::unordered_map<int, cudaStream_t> streams_;
};

cudaStream_t StreamTable::get(int dev) {
  std::lock_guard<std::mutex> g(mu_);
  auto it = streams_.find(dev);
  if (it == streams_.end()) {
    cudaStream_t s = nullptr;
    streams_[dev] = s;
    return s;
  }
  return it->second;
}

cudaStream_t StreamTable::racy_get(int dev) {
  auto it = streams_.find(dev);  // want cuda-streams "reads StreamTable::streams_ without mu_ \(exclusive\) held in StreamTable::racy_get"
  if (it != streams_.end()) {  // want cuda-streams "reads StreamTable::streams_ without mu_ \(exclusive\) held"
    return it->second;
  }
  std::lock_guard<std::mutex> g(mu_);
  return streams_[dev];
}

__global__ void kernel(int* out) { out[0] = 1; }
