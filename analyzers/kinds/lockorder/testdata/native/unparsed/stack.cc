// The other file of the set: checked although queue.cc holds a function
// that does not parse.
#include <mutex>

namespace q {

class Stack {
  std::mutex head_mu_;
  std::mutex tail_mu_;
  int n_;

 public:
  void clear();
  void reset();
};

// A syntax error with no macro near it: no erase hint.
void Stack::clear() {
  std::lock_guard<std::mutex> h(head_mu_;
  n_ = 0;
}

// Reversed, in another file: still found.
void Stack::reset() {
  std::lock_guard<std::mutex> t(tail_mu_);
  std::lock_guard<std::mutex> h(head_mu_);  // want cpp-unparsed "q::Stack::reset takes head_mu_ while holding tail_mu_"
  n_ = 0;
}

}  // namespace q
