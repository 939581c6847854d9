// A guard class the code declares by Clang's thread-safety annotations,
// read by a rule over functions (hold): the annotation macros sit where
// the grammar cannot read them, so the invariant erases them, and the
// class is read from the file as written.
#define ABSL_SCOPED_LOCKABLE __attribute__((scoped_lockable))
#define ABSL_EXCLUSIVE_LOCK_FUNCTION(...) __attribute__((exclusive_lock_function(__VA_ARGS__)))
#define ABSL_UNLOCK_FUNCTION(...) __attribute__((unlock_function(__VA_ARGS__)))

class ABSL_SCOPED_LOCKABLE Section {
 public:
  explicit Section(Mutex* mu) ABSL_EXCLUSIVE_LOCK_FUNCTION(mu);
  ~Section() ABSL_UNLOCK_FUNCTION();
  void Leave() ABSL_UNLOCK_FUNCTION();
};

struct Table {
  Mutex mu_;
  int n_;
  void scoped();
  void revert_left_early();
};

void Table::scoped() {
  Section s(&mu_);
  n_++;
  s.Leave();
}

void Table::revert_left_early() {
  Section s(&mu_);
  s.Leave();  // want cpp-declared-hold "mu_ is released here, but Table::revert_left_early must hold it at every statement that does work: the statement at line 32 still does"
  n_++;
}
