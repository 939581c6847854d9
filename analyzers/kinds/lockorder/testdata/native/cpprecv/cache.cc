// Annotated source for lock_order's calls followed by receiver type:
// `// want ID "regexp"` marks a finding; every other line must stay
// silent. A method call is followed to the methods of its receiver's
// type only: find on a std::unordered_map is not CompileCache::find.
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace ml {

class CompileCache {
 public:
  int find(const std::string& k);
  std::mutex cache_mu_;
};

class Registry {
 public:
  void add(int k);
  std::mutex registry_mu_;
};

class Pool : public Registry {
 public:
  void grow();
};

class Device {
  std::mutex device_mu_;
  std::unordered_map<std::string, int> library_map_;
  CompileCache cache_;
  Registry registry_;
  std::unique_ptr<Registry> owned_;
  Pool pool_;

 public:
  int lookup(const std::string& k);
  void revert_member(int k);
};

int CompileCache::find(const std::string& k) {
  std::lock_guard<std::mutex> l(cache_mu_);
  return k.size();
}

void Registry::add(int k) {
  std::lock_guard<std::mutex> l(registry_mu_);
  use(k);
}

void Pool::grow() { add(1); }

// library_map_ is a std::unordered_map: its find is the library's, not
// CompileCache::find, which takes cache_mu_ (before device_mu_ in the
// order); a std::string's find neither.
int Device::lookup(const std::string& k) {
  std::lock_guard<std::mutex> l(device_mu_);
  auto it = library_map_.find(k);
  std::string copy = k;
  copy.find("x");
  return it->second;
}

// Reverts: the receiver's type is known, the call followed.

void Device::revert_member(int k) {
  std::lock_guard<std::mutex> l(device_mu_);
  registry_.add(k);  // want cpp-recv "ml::Device::revert_member calls ml::Registry::add while holding device_mu_ \(taken at line 68\), and ml::Registry::add takes registry_mu_ at cache.cc:48"
}

void Device::revert_this_member(int k) {
  std::lock_guard<std::mutex> l(device_mu_);
  this->registry_.add(k);  // want cpp-recv "calls ml::Registry::add while holding device_mu_"
}

void Device::revert_smart_pointer(int k) {
  std::lock_guard<std::mutex> l(device_mu_);
  owned_->add(k);  // want cpp-recv "calls ml::Registry::add while holding device_mu_"
}

void Device::revert_local(int k) {
  std::lock_guard<std::mutex> l(device_mu_);
  auto r = Registry();
  r.add(k);  // want cpp-recv "calls ml::Registry::add while holding device_mu_"
}

void Device::revert_parameter(Registry& r, int k) {
  std::lock_guard<std::mutex> l(device_mu_);
  r.add(k);  // want cpp-recv "calls ml::Registry::add while holding device_mu_"
}

void Device::revert_pointer_local(int k) {
  std::lock_guard<std::mutex> l(device_mu_);
  Registry* r = lookup_registry(k);
  r->add(k);  // want cpp-recv "calls ml::Registry::add while holding device_mu_"
}

void Device::revert_base_method(int k) {
  std::lock_guard<std::mutex> l(device_mu_);
  pool_.add(k);  // want cpp-recv "calls ml::Registry::add while holding device_mu_"
}

void Device::revert_qualified(int k) {
  std::lock_guard<std::mutex> l(device_mu_);
  auto p = std::make_unique<Pool>();
  p->grow();  // want cpp-recv "calls ml::Pool::grow while holding device_mu_ \(taken at line 105\), and ml::Registry::add takes registry_mu_ at cache.cc:48: ml::Device::revert_qualified → ml::Pool::grow → ml::Registry::add"
}

// Two classes named Iterator: a nested one, named through a typedef of
// its class, is not the interface DBIter implements.
class SkipList {
 public:
  class Iterator {
   public:
    void Seek(int k) { use(k); }
  };
};

class Iterator {
 public:
  virtual void Seek(int k) = 0;
};

class DBIter : public Iterator {
 public:
  void Seek(int k) override;
  Registry* registry_;
};

void DBIter::Seek(int k) { registry_->add(k); }

class MemTable {
  typedef SkipList Table;
  std::mutex device_mu_;
  void Get(int k);
  void revert_db_iter(DBIter* it, int k);
};

void MemTable::Get(int k) {
  std::lock_guard<std::mutex> l(device_mu_);
  Table::Iterator iter;
  iter.Seek(k);
}

void MemTable::revert_db_iter(DBIter* it, int k) {
  std::lock_guard<std::mutex> l(device_mu_);
  it->Seek(k);  // want cpp-recv "ml::MemTable::revert_db_iter calls ml::DBIter::Seek while holding device_mu_ \(taken at line 147\), and ml::Registry::add takes registry_mu_ at cache.cc:48: ml::MemTable::revert_db_iter → ml::DBIter::Seek → ml::Registry::add"
}
}  // namespace ml
