// A member of another type whose method has the name of one of the
// class's own, a local named like an annotated accessor, and Abseil's
// spin lock guard.
#define EXCLUSIVE_LOCKS_REQUIRED(...) __attribute__((exclusive_locks_required(__VA_ARGS__)))

class SpinLock {};

class SpinLockHolder {
 public:
  explicit SpinLockHolder(SpinLock* l);
};

class Engine {
 public:
  void Generate(int* state);
};

class Pool {
 public:
  int Next();
  int queue() EXCLUSIVE_LOCKS_REQUIRED(mu_) { return next_; }
  void Publish(int queue);
  void Refill() EXCLUSIVE_LOCKS_REQUIRED(mu_) { impl_.Generate(&next_); }

 private:
  void Generate();
  SpinLock mu_;
  Engine impl_;
  int next_;
};

void Pool::Generate() {
  next_ = 0;
}

int Pool::Next() {
  SpinLockHolder l(&mu_);
  Generate();
  Refill();
  return queue();
}

void Pool::Publish(int queue) {
  SpinLockHolder l(&mu_);
  int copy = queue;  // a parameter named like queue(), not the function
  next_ = copy;
}

bool queue_of() {
  auto f = &Pool::queue;  // want pool-next "Pool::queue is used as a value here"
  return f != nullptr;
}
