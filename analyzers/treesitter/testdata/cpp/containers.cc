// Annotated source for owns over containers: writing an element through
// operator[], and insert, emplace, erase and clear on the field, are
// writes. `// want ID "regexp"` marks a finding; every other line must
// stay silent.
#include <map>

struct Encoder;

struct Registry {
  std::map<int, Encoder*> encoders_;
  void add(int k, Encoder* e);
  void clear();
  Encoder* find(int k);
  void revert_subscript(int k, Encoder* e);
  void revert_calls(int k, Encoder* e);
};

void Registry::add(int k, Encoder* e) {
  encoders_[k] = e;
  encoders_.emplace(k, e);
}

void Registry::clear() { encoders_.clear(); }

// Reads are no writes.
Encoder* Registry::find(int k) {
  auto it = encoders_.find(k);
  return it == encoders_.end() ? nullptr : it->second;
}

void Registry::revert_subscript(int k, Encoder* e) {
  encoders_[k] = e;  // want registry-owned "field Registry::encoders_ is written here by Registry::revert_subscript; only Registry::add, Registry::clear may write it"
  this->encoders_[k + 1] = e;  // want registry-owned "written here by Registry::revert_subscript"
}

void Registry::revert_calls(int k, Encoder* e) {
  encoders_.insert({k, e});  // want registry-owned "written here by Registry::revert_calls"
  encoders_.erase(k);  // want registry-owned "written here by Registry::revert_calls"
  encoders_.clear();  // want registry-owned "written here by Registry::revert_calls"
}
