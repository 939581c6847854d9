#include "table.h"

void Table::check_bounds(size_t i) const {
  if (i >= rows_.size()) {
    throw std::out_of_range("row past the end");
  }
}

int Table::read(size_t i) const {
  check_bounds(i);
  return fetch(i);
}
