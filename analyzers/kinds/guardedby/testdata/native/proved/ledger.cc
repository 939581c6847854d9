// Correct code for the reverts at a helper's callers: entries_ is
// touched only in helpers whose callers hold the lock (a file-local
// function, and a member that ledger.h annotates as requiring the lock),
// so every revert is made around a call of a helper, and reported at
// that caller. Clear, private, takes the lock itself: a revert there
// makes Clear need it of its caller, and is reported at Reset, whose
// finding names Clear on its call path.
#include "ledger.h"

void Ledger::AddLocked(const std::string& k, int v) {
  entries_[k] += v;
}

static int SumLocked(Ledger* l) {
  int n = 0;
  for (const auto& e : l->entries_) {
    n += e.second;
  }
  return n;
}

void Ledger::Add(const std::string& k, int v) {
  std::lock_guard<std::mutex> lk(mu_);
  AddLocked(k, v);
}

int Ledger::Total() {
  std::lock_guard<std::mutex> lk(mu_);
  return SumLocked(this);
}

void Ledger::Clear() {
  std::lock_guard<std::mutex> lk(mu_);
  entries_.clear();
}

void Ledger::Reset() {
  Clear();
}
