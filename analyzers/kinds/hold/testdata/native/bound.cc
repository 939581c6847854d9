// C++ guards declared in an if's or a switch's init-statement, and
// deduced guards: every revert the prover makes of them must be reported.
#include <mutex>

struct Q {
  std::mutex mu_;
  int n_ = 0;

  void init_if() {
    if (std::lock_guard lk(mu_); n_ > 0) {
      n_--;
      n_ *= 2;
    }
  }

  void init_switch(int k) {
    switch (std::lock_guard<std::mutex> lk(mu_); k) {
      case 1:
        n_++;
        break;
      default:
        n_ = 0;
    }
  }

  void auto_unique() {
    auto lk = std::unique_lock(mu_);
    n_++;
  }

  void auto_value() {
    auto lk = std::lock_guard<std::mutex>(mu_);
    n_++;
  }

  void auto_braces() {
    auto lk = std::lock_guard<std::mutex>{mu_};
    n_++;
  }
};
