// C++ guards declared in an init-statement around each push: every
// revert the prover makes of them must be reported.
#include <mutex>

void push(int);

struct Q {
  std::mutex mu_;
  int n_ = 0;

  void init_if() {
    if (std::lock_guard lk(mu_); n_ > 0) {
      push(n_);
    } else {
      push(0);
    }
  }

  void init_switch(int k) {
    switch (std::lock_guard<std::mutex> lk(mu_); k) {
      case 1:
        push(k);
        break;
      default:
        break;
    }
  }
};
