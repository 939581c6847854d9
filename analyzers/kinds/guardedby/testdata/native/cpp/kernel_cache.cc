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

// A lock named through the pointer a call returns, as Clang's annotations
// write it: `*table_mu()`; the guard takes the mutex the call returns.
std::shared_mutex* table_mu();

struct Table {
  std::map<int, int> rows;
};

int table_get(Table& t, int k) {
  std::shared_lock<std::shared_mutex> lk(*table_mu());
  auto it = t.rows.find(k);
  return it == t.rows.end() ? 0 : it->second;
}

void table_put(Table& t, int k, int v) {
  t.rows[k] = v;  // want table-rows "writes Table::rows through operator\[\] without \*table_mu\(\) \(exclusive\) held in table_put"
}
