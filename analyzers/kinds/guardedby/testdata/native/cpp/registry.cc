// Every item of the rule on one class: reads and writes through this,
// the bare field, another value of the type, helpers, lambdas, and the
// initialisation that needs no lock.
#include <map>
#include <mutex>
#include <shared_mutex>
#include <vector>

class Registry {
 public:
  Registry() { names_.push_back(0); }  // a constructor initialises
  ~Registry() { names_.clear(); }      // and a destructor tears down
  explicit Registry(int n) : count_(n) {}
  void add(int v);
  int size() const;
  int peek() const;
  void bad_add(int v);
  void shared_add(int v);
  void merge(const Registry& other);
  void bad_merge(Registry* other);
  void later();
  void now();
  void early_unlock();
  void setup();
  void via_helper();
  void bad_via_helper();
  void index_read(std::size_t i) const;
  void shadow();

 private:
  void add_locked(int v);
  mutable std::shared_mutex mu_;
  std::vector<int> names_;
  int count_ = 0;
};

void Registry::add(int v) {
  std::lock_guard<std::shared_mutex> g(mu_);
  names_.push_back(v);
  this->count_++;
}

int Registry::size() const {
  std::shared_lock<std::shared_mutex> g(mu_);
  return static_cast<int>(names_.size());
}

int Registry::peek() const {
  return names_.empty() ? 0 : names_.front();  // want reg-names "reads Registry::names_ without mu_ held in Registry::peek \(it is not static" reg-names "reads Registry::names_ without mu_ held"
}

void Registry::bad_add(int v) {
  names_.push_back(v);  // want reg-names "writes Registry::names_ \(push_back\(\)\) without mu_ \(exclusive\) held in Registry::bad_add"
}

void Registry::shared_add(int v) {
  std::shared_lock<std::shared_mutex> g(mu_);
  names_.emplace_back(v);  // want reg-names "writes Registry::names_ \(emplace_back\(\)\) under a shared lock of mu_; a write needs it exclusive"
}

void Registry::merge(const Registry& other) {
  std::scoped_lock g(mu_, other.mu_);
  for (int v : other.names_) {
    names_.push_back(v);
  }
}

void Registry::bad_merge(Registry* other) {
  std::lock_guard<std::shared_mutex> g(mu_);
  names_.insert(names_.end(), other->names_.begin(), other->names_.end());  // want reg-names "reads Registry::names_ without mu_ of other held" reg-names "reads Registry::names_ without mu_ of other held"
}

void Registry::later() {
  std::lock_guard<std::shared_mutex> g(mu_);
  auto f = [this] { names_.clear(); };  // want reg-names "writes Registry::names_ \(clear\(\)\) in a .*, without mu_ \(exclusive\) held in it"
  store(f);
  auto ok = [this] {
    std::lock_guard<std::shared_mutex> g2(mu_);
    names_.clear();
  };
  store(ok);
}

void Registry::now() {
  std::lock_guard<std::shared_mutex> g(mu_);
  [this] { names_.clear(); }();
}

void Registry::early_unlock() {
  std::unique_lock<std::shared_mutex> lk(mu_);
  int n = count_;
  lk.unlock();
  count_ = n + 1;  // want reg-count "writes Registry::count_ \(an assignment\) without mu_ \(exclusive\) held in Registry::early_unlock .*it is released at line"
}

void Registry::setup() {
  names_.reserve(16);
  count_ = 0;
}

void Registry::add_locked(int v) {
  names_.push_back(v);
}

void Registry::via_helper() {
  std::lock_guard<std::shared_mutex> g(mu_);
  add_locked(1);
}

void Registry::bad_via_helper() {
  add_locked(2);  // want reg-names "calls Registry::add_locked without mu_ \(exclusive\) held, and it writes Registry::names_ \(push_back\(\)\) at line \d+ \(Registry::bad_via_helper -> Registry::add_locked: it is not static"
}

void Registry::index_read(std::size_t i) const {
  std::shared_lock<std::shared_mutex> g(mu_);
  int v = names_[i];  // a vector's operator[] inserts nothing: a read
  (void)v;
}

void Registry::shadow() {
  int count_ = 1;  // a local that hides the field
  count_++;
}

// A lock of the file, not of the value: the type declares no g_events_mu.
static std::mutex g_events_mu;

struct Event {
  int refcount;
};

void ref_event(Event* e) {
  std::lock_guard<std::mutex> l(g_events_mu);
  e->refcount++;
}

void bad_ref_event(Event* e) {
  e->refcount++;  // want ev-refcount "writes Event::refcount \(\+\+\) without g_events_mu \(exclusive\) held in bad_ref_event"
}

// A callback that takes the lock itself, with explicit calls.
void Registry::callback() {
  store([this] {
    mu_.lock();
    names_.clear();
    mu_.unlock();
    names_.clear();  // want reg-names "writes Registry::names_ \(clear\(\)\) in a .*, without mu_ \(exclusive\) held in it"
  });
}

// A callback that names its object `self`, as C callbacks do: a local
// like any other in C++, whose own lock it takes.
struct Conn {
  std::mutex mu_;
  bool shutdown_;
  static void on_done(void* arg);
};

void Conn::on_done(void* arg) {
  Conn* self = static_cast<Conn*>(arg);
  std::lock_guard<std::mutex> l(self->mu_);
  self->shutdown_ = true;
}

void conn_close(void* arg) {
  Conn* self = static_cast<Conn*>(arg);
  std::lock_guard<std::mutex> l(other_mu());
  self->shutdown_ = true;  // want conn-shutdown "writes Conn::shutdown_ \(an assignment\) without mu_ of self \(exclusive\) held in conn_close"
}

// A global pointer to the mutex, locked through it.
static std::mutex* g_slots_mu;

struct Slot {
  int v;
};

void slot_set(Slot* s) {
  std::lock_guard<std::mutex> l(*g_slots_mu);
  s->v = 1;
}

void slot_bad(Slot* s) {
  s->v = 2;  // want slot-v "writes Slot::v \(an assignment\) without g_slots_mu \(exclusive\) held in slot_bad"
}
