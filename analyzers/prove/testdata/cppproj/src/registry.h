// The streams of a device and their names, behind locks: registrations
// take the mutex, lookups share the names' lock with each other.
#pragma once

#include <mutex>
#include <shared_mutex>
#include <string>
#include <vector>

class Registry {
 public:
  size_t add(int stream);
  std::string name(size_t i) const;
  void rename(size_t i, const std::string& name);
  size_t add_named(int stream, const std::string& name);
  void wait() const;
  size_t add_and_wait(int stream);
  size_t name_count() const {
    std::shared_lock<std::shared_mutex> lock(names_mu_);
    return names_.size();
  }

 private:
  void record(int stream);
  std::mutex mu_;
  std::vector<int> streams_;
  mutable std::shared_mutex names_mu_;
  std::vector<std::string> names_;
};
