// Annotated source for the order rule in C++: `// want ID "regexp"` marks
// a finding; every other line must stay silent.
#include <vector>

bool check_bounds(int i);
int use(int v);

struct Table {
  std::vector<int> rows_;
  int read_checked(int i);
  int read_in_condition(int i);
  int read_nested(int i);
  int read_argument(int i);
  int read_unchecked(int i);
  int read_checked_after(int i);
  int read_checked_in_branch(int i, bool fast);
  int read_checked_in_lambda(int i);
  int read_checked_on_right(int i, bool fast);
  int read_checked_if0(int i);
  int read_gone(int i);
  int read_checked_in_then(int i, bool fast);
  int read_checked_in_update(int i);
  int read_checked_in_case(int i, int kind);
};

int Table::read_checked(int i) {
  check_bounds(i);
  return rows_.at(i);
}

int Table::read_in_condition(int i) {
  if (check_bounds(i)) {
    return rows_.at(i);
  }
  return 0;
}

int Table::read_nested(int i) {
  check_bounds(i);
  for (int k = 0; k < 3; k++) {
    if (k == i) {
      use(rows_.at(k));
    }
  }
  return 0;
}

int Table::read_argument(int i) {
  return use(rows_.at(check_bounds(i)));
}

int Table::read_unchecked(int i) {
  return rows_.at(i);  // want cpp-order "Table::read_unchecked must call check_bounds before this call of rows_.at, on every path"
}

int Table::read_checked_after(int i) {
  int v = rows_.at(i);  // want cpp-order "must call check_bounds before this call"
  check_bounds(i);
  return v;
}

int Table::read_checked_in_branch(int i, bool fast) {
  if (!fast) {
    check_bounds(i);
  }
  return rows_.at(i);  // want cpp-order "must call check_bounds before this call"
}

int Table::read_checked_in_lambda(int i) {
  auto check = [&] { check_bounds(i); };
  return rows_.at(i);  // want cpp-order "must call check_bounds before this call"
}

int Table::read_checked_on_right(int i, bool fast) {
  fast || check_bounds(i);
  return rows_.at(i);  // want cpp-order "must call check_bounds before this call"
}

int Table::read_checked_if0(int i) {
#if 0
  check_bounds(i);
#endif
  return rows_.at(i);  // want cpp-order "must call check_bounds before this call"
}

int Table::read_gone(int i) {  // want cpp-order "Table::read_gone no longer makes a live call of rows_.at, so the order check_bounds before rows_.at cannot be checked"
  check_bounds(i);
  return 0;
}

int Table::read_checked_in_then(int i, bool fast) {
  if (fast) {
    check_bounds(i);
  } else {
    return rows_.at(i);  // want cpp-order "must call check_bounds before this call"
  }
  return 0;
}

int Table::read_checked_in_update(int i) {
  int v = 0;
  for (int k = 0; k < i; check_bounds(k++)) {
    v += rows_.at(k);  // want cpp-order "must call check_bounds before this call"
  }
  return v;
}

int Table::read_checked_in_case(int i, int kind) {
  switch (kind) {
  case 1:
    check_bounds(i);
    return rows_.at(i);
  default:
    return 0;
  }
}
