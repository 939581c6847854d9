#include "registry.h"

size_t Registry::add(int stream) {
  std::lock_guard<std::mutex> lock(mu_);
  streams_.push_back(stream);
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
