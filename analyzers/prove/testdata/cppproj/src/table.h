// A table whose reads are checked against its length first.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <vector>

class Table {
 public:
  explicit Table(std::vector<int> rows) : rows_(std::move(rows)) {}
  int read(size_t i) const;

 private:
  void check_bounds(size_t i) const;
  // fetch is the unchecked read: past the end it returns another
  // tenant's row (here, the first).
  int fetch(size_t i) const { return i < rows_.size() ? rows_[i] : rows_[0]; }
  std::vector<int> rows_;
};
