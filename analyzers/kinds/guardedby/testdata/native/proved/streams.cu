#include <mutex>
#include <unordered_map>

struct cudaStream_st;
typedef cudaStream_st* cudaStream_t;

class StreamTable {
 public:
  cudaStream_t get(int dev);

 private:
  std::mutex mu_;
  std::unordered_map<int, cudaStream_t> streams_;
};

cudaStream_t StreamTable::get(int dev) {
  std::lock_guard<std::mutex> g(mu_);
  auto it = streams_.find(dev);
  if (it != streams_.end()) {
    return it->second;
  }
  return streams_[dev];
}
