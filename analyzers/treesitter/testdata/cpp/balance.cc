// Annotated source for balance in C++: a guard given up without unlocking
// leaves the mutex locked for good.
#include <mutex>

void work();

struct Table {
  std::mutex mu;
  int n;

  void released_guard();
  void unlocked_guard();
  void adopted_elsewhere();
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
