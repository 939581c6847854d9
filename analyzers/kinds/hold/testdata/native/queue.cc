// Correct code whose explicit lock calls guardlint prove reverts.
#include <deque>
#include <mutex>

class Queue {
 public:
  bool push(int v);
  int pop();

 private:
  std::mutex mu;
  std::deque<int> items;
};

bool Queue::push(int v) {
  mu.lock();
  if (items.size() >= 8) {
    mu.unlock();
    return false;
  }
  items.push_back(v);
  mu.unlock();
  return true;
}

int Queue::pop() {
  mu.lock();
  int v = items.front();
  items.pop_front();
  mu.unlock();
  return v;
}
