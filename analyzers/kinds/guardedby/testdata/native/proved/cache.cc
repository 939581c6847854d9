// Correct code for the reverts: every access under its guard.
#include <map>
#include <mutex>
#include <shared_mutex>
#include <string>

class KernelCache {
 public:
  int get(const std::string& lib);
  void put(const std::string& lib, int k);
  int size() const;

 private:
  mutable std::shared_mutex mtx_;
  std::map<std::string, int> cache_;
};

int KernelCache::get(const std::string& lib) {
  {
    std::shared_lock<std::shared_mutex> lk(mtx_);
    auto it = cache_.find(lib);
    if (it != cache_.end()) {
      return it->second;
    }
  }
  std::unique_lock<std::shared_mutex> lk(mtx_);
  return cache_[lib];
}

void KernelCache::put(const std::string& lib, int k) {
  std::lock_guard<std::shared_mutex> lk(mtx_);
  cache_.insert_or_assign(lib, k);
}

int KernelCache::size() const {
  std::shared_lock<std::shared_mutex> lk(mtx_);
  return static_cast<int>(cache_.size());
}
