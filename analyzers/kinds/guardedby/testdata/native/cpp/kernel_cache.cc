// A kernel cache: looked up by many threads under a shared lock, filled
// under an exclusive one.
#include <map>
#include <mutex>
#include <shared_mutex>
#include <string>

struct Kernel {
  int id;
};

// The race: operator[] inserts on a miss, so the lookup writes the map
// while other readers hold the same shared lock.
class RacyCache {
 public:
  Kernel* get(const std::string& lib);

 private:
  std::shared_mutex kernel_mtx_;
  std::map<std::string, Kernel> cache_;
};

Kernel* RacyCache::get(const std::string& lib) {
  std::shared_lock<std::shared_mutex> lk(kernel_mtx_);
  auto& k = cache_[lib];  // want racy-cache "writes RacyCache::cache_ through operator\[\] under a shared lock of kernel_mtx_; inserting needs it exclusive"
  return &k;
}

// The fix: find under the shared lock, insert under the exclusive one.
class FixedCache {
 public:
  Kernel* get(const std::string& lib);

 private:
  std::shared_mutex kernel_mtx_;
  std::map<std::string, Kernel> cache_;
};

Kernel* FixedCache::get(const std::string& lib) {
  {
    std::shared_lock<std::shared_mutex> lk(kernel_mtx_);
    auto it = cache_.find(lib);
    if (it != cache_.end()) {
      return &it->second;
    }
  }
  std::unique_lock<std::shared_mutex> lk(kernel_mtx_);
  auto& k = cache_[lib];
  return &k;
}
