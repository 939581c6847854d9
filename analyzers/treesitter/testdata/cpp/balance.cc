// Annotated source for balance in C++: a guard given up without unlocking
// leaves the mutex locked for good.
#include <mutex>
#include <string>

void work();

struct Table {
  std::mutex mu;
  int n;

  void released_guard();
  void unlocked_guard();
  void adopted_elsewhere();
  std::string formatted_after_unlock(int k);
  std::string field_after_unlock();
};

void Table::released_guard() {
  std::unique_lock<std::mutex> l(mu);
  n++;
  l.release();  // want cpp-balance "the guard of mu is given up here without unlocking it: Table::released_guard returns with mu held, and every later acquisition of it blocks for ever"
}

void Table::unlocked_guard() {
  std::unique_lock<std::mutex> l(mu);
  n++;
  l.unlock();
}

void Table::adopted_elsewhere() {
  std::unique_lock<std::mutex> l(mu);
  n++;
  l.release();
}

// Work after the unlock: std::to_string of a local touches nothing mu
// protects; of the field n it does.
std::string Table::formatted_after_unlock(int k) {
  std::unique_lock<std::mutex> l(mu);
  int v = n + k;
  l.unlock();
  return std::to_string(v);
}

std::string Table::field_after_unlock() {
  std::unique_lock<std::mutex> l(mu);
  n++;
  l.unlock();  // want cpp-balance "mu is released here, but Table::field_after_unlock must hold it at every statement that does work: the statement at line 50 still does"
  return std::to_string(n);
}
