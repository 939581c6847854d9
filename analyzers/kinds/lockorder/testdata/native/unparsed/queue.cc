// A function that does not parse is reported by name and position; the
// rest of the file set is still checked and its findings still printed.
#include <mutex>

namespace q {

class Queue {
  std::mutex head_mu_;
  std::mutex tail_mu_;
  int n_;

 public:
  void push();
  void pop();
  void drain();
};

// An unknown macro in statement position: the grammar cannot read it.
void Queue::push() {
  std::lock_guard<std::mutex> h(head_mu_);
  FOO_BAR(n_) int k = n_;
  std::lock_guard<std::mutex> t(tail_mu_);
}

// In order, in the same file as the one that does not parse.
void Queue::pop() {
  std::lock_guard<std::mutex> h(head_mu_);
  std::lock_guard<std::mutex> t(tail_mu_);
  n_--;
}

// Reversed, in the same file: still found.
void Queue::drain() {
  std::lock_guard<std::mutex> t(tail_mu_);
  std::lock_guard<std::mutex> h(head_mu_);  // want cpp-unparsed "q::Queue::drain takes head_mu_ while holding tail_mu_"
  n_ = 0;
}

}  // namespace q
