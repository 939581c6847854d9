// Annotated source for hold over explicit lock calls in C++: a mutex's
// own lock and unlock (std::mutex, absl::Mutex), a try_lock whose failure
// returns, and every path to a return giving the mutex up.
#include <deque>
#include <mutex>
#include <shared_mutex>
#include <string>

#include "absl/synchronization/mutex.h"

class Queue {
 public:
  bool push(int v);
  bool try_push(int v);
  int pop();
  std::string describe();
  int size_shared();
  void lock_for_caller();
  void drain_twice();
  bool revert_push_unlock_deleted(int v);
  int revert_pop_one_path();
  bool revert_try_unlock_deleted(int v);
  void revert_shared_left_locked();

 private:
  std::mutex mu;
  std::shared_mutex rw;
  absl::Mutex amu_;
  std::deque<int> items;
  int limit = 8;
};

bool Queue::push(int v) {
  mu.lock();
  if (items.size() >= static_cast<size_t>(limit)) {
    mu.unlock();
    return false;
  }
  items.push_back(v);
  mu.unlock();
  return true;
}

bool Queue::try_push(int v) {
  if (!mu.try_lock()) {
    return false;
  }
  items.push_back(v);
  mu.unlock();
  return true;
}

int Queue::pop() {
  amu_.Lock();
  if (items.empty()) {
    amu_.Unlock();
    throw std::out_of_range("empty");
  }
  int v = items.front();
  items.pop_front();
  amu_.Unlock();
  return v;
}

// After the unlock: std::to_string of a local touches nothing mu
// protects.
std::string Queue::describe() {
  mu.lock();
  int n = static_cast<int>(items.size());
  mu.unlock();
  return std::to_string(n);
}

int Queue::size_shared() {
  rw.lock_shared();
  int n = static_cast<int>(items.size());
  rw.unlock_shared();
  return n;
}

void Queue::lock_for_caller() {
  mu.lock();
  items.clear();
}

void Queue::drain_twice() {
  mu.lock();
  items.pop_front();
  mu.unlock();
  mu.lock();
  items.pop_front();
  mu.unlock();
}

// Reverts.
bool Queue::revert_push_unlock_deleted(int v) {
  mu.lock();
  if (items.size() >= static_cast<size_t>(limit)) {
    mu.unlock();
    return false;
  }
  items.push_back(v);
  return true;  // want cpp-locks "mu is still held when Queue::revert_push_unlock_deleted returns here: every later mu.lock\(\) blocks for ever; release it on every path \(an unlock before each return\)"
}

int Queue::revert_pop_one_path() {
  amu_.Lock();
  if (items.empty()) {
    return -1;  // want cpp-abseil "amu_ is still held when Queue::revert_pop_one_path returns here: every later amu_.Lock\(\) blocks for ever"
  }
  int v = items.front();
  items.pop_front();
  amu_.Unlock();
  return v;
}

bool Queue::revert_try_unlock_deleted(int v) {
  if (!mu.try_lock()) {
    return false;
  }
  items.push_back(v);
  return true;  // want cpp-locks "mu is still held when Queue::revert_try_unlock_deleted returns here"
}

void Queue::revert_shared_left_locked() {
  rw.lock_shared();
  items.size();
}  // want cpp-shared "rw is still held when Queue::revert_shared_left_locked returns at the end of its body: every later rw.lock_shared\(\) blocks for ever"

struct Shared {
  std::mutex* mu;
  int n;
  void bump();
  void revert_bump_left_locked();
};

void Shared::bump() {
  (*mu).lock();
  n++;
  (*mu).unlock();
}

void Shared::revert_bump_left_locked() {
  (*mu).lock();
  n++;
}  // want cpp-deref "\*mu is still held when Shared::revert_bump_left_locked returns at the end of its body"
