// forbid with a subscript pattern: a std::map's operator[] inserts a
// default element for a missing key, so a lookup goes through find. The
// pattern matches the subscript by its tokens, through an implicit this->
// and redundant parentheses.
#include <map>
#include <string>

struct Cache {
  std::map<std::string, int> entries_;
  int lookup(const std::string& k) const;
  int revert_lookup(const std::string& k);
  int revert_lookup_this(const std::string& k);
};

int Cache::lookup(const std::string& k) const {
  auto it = entries_.find(k);
  return it == entries_.end() ? 0 : it->second;
}

int Cache::revert_lookup(const std::string& k) {
  return entries_[k];  // want no-insert "Cache::revert_lookup must not call entries_\[k\]"
}

int Cache::revert_lookup_this(const std::string& k) {
  int n = this->entries_[k];  // want no-insert "must not call entries_\[k\]"
  return n + (entries_)[k];  // want no-insert "must not call entries_\[k\]"
}
