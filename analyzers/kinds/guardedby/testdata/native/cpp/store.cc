// The members of store.h's classes.
#include "store.h"

std::string Store::name_at(std::size_t i) const {
  std::shared_lock<std::shared_mutex> g(mu_);
  return names_[i];  // a vector's operator[] inserts nothing: a read
}

int Store::hits_of(int key) const {
  std::shared_lock<std::shared_mutex> g(mu_);
  return hits_[key];  // want store-hits "writes Store::hits_ through operator\[\] under a shared lock of mu_; inserting needs it exclusive"
}

void Store::add(const std::string& s) {
  std::lock_guard<std::shared_mutex> g(mu_);
  names_.push_back(s);
  trim();
}

// Private in store.h: its callers are Store's members, which hold the
// lock (compact does not).
void Store::trim() {
  if (names_.size() > 64) {
    names_.erase(names_.begin());
  }
}

void Store::compact() {
  trim();  // want store-names "calls Store::trim without mu_ \(exclusive\) held, and it writes Store::names_"
}

static std::mutex g_counter_mu;

void counter_bump(Counter* c) {
  std::lock_guard<std::mutex> l(g_counter_mu);
  c->n++;
}
