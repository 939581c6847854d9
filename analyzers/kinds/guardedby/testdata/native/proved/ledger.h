// The class of ledger.cc, declared in a header as real code does: the
// annotation that AddLocked needs mu_ held is here, not beside its
// definition, so a check of ledger.cc alone would not know it.
#include <map>
#include <mutex>
#include <string>

#define EXCLUSIVE_LOCKS_REQUIRED(...) __attribute__((exclusive_locks_required(__VA_ARGS__)))

class Ledger {
 public:
  void Add(const std::string& k, int v);
  int Total();
  void Reset();

 private:
  void AddLocked(const std::string& k, int v) EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void Clear();
  std::mutex mu_;
  std::map<std::string, int> entries_;
  friend int SumLocked(Ledger* l);
};
