// Receivers whose type is not known, or whose override is not: the call
// is not followed, and the invariant says so once, naming the first.
#include <mutex>

namespace ml {

class Sink {
 public:
  virtual void add(int k) = 0;
};

class Registry : public Sink {
 public:
  void add(int k) override;
  std::mutex registry_mu_;
};

class Null : public Sink {
 public:
  void add(int k) override {}
};

void Registry::add(int k) {
  std::lock_guard<std::mutex> l(registry_mu_);
  use(k);
}

class Engine {
  std::mutex engine_mu_;
  std::mutex sink_mu_;
  Sink* sink_;
  void run(int k);
  void flush(int k);
  void run_sink(int k);
};

void Engine::run(int k) {
  std::lock_guard<std::mutex> l(engine_mu_);
  current_registry().add(k);
  auto r = current_registry();
  r.add(k);
  // A Sink is a Registry or a Null: which add runs is not known.
  sink_->add(k);
}

void Engine::flush(int k) { sink_->add(k); }

void Engine::run_sink(int k) {
  std::lock_guard<std::mutex> l(sink_mu_);
  flush(k);
}

}  // namespace ml
