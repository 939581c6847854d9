#include "journal.h"

void Journal::Append(int v) {
  std::lock_guard<std::shared_mutex> g(mu_);
  AppendLocked(v);
}

void Journal::AppendLocked(int v) {
  entries_.push_back(v);  // the callers hold mu_ (its declaration says so)
}

void Journal::Reset() {
  AppendLocked(0);  // want journal-entries "calls Journal::AppendLocked without mu_ \(exclusive\) held, and it writes Journal::entries_ \(push_back\(\)\) at line \d+ \(Journal::Reset -> Journal::AppendLocked \[EXCLUSIVE_LOCKS_REQUIRED\(mu_\) at journal.h:\d+\]: it is not static"
}

const int& Journal::SizeLocked() const {
  return entries_.front();
}

int Journal::Size() const {
  std::shared_lock<std::shared_mutex> g(mu_);
  return SizeLocked();
}

void Journal::TouchShared() {
  entries_.clear();  // want journal-entries "writes Journal::entries_ \(clear\(\)\), and Journal::TouchShared holds mu_ only shared \(SHARED_LOCKS_REQUIRED\(mu_\) at journal.h:\d+\); a write needs it exclusive"
}

int Journal::SharedWrite() {
  std::shared_lock<std::shared_mutex> g(mu_);
  AppendLocked(1);  // want journal-entries "calls Journal::AppendLocked under a shared lock of mu_, and it writes Journal::entries_"
  return 0;
}

void Journal::CompactLocked() {
  entries_.shrink_to_fit();
}

void Journal::Shrink() {
  std::lock_guard<std::shared_mutex> g(mu_);
  CompactLocked();
}

void BumpLocked(Journal* j) {
  j->entries_.push_back(1);
}

void Journal::Rebuild() {
  std::lock_guard<std::shared_mutex> g(mu_);
  BumpLocked(this);
}

void bump_unlocked(Journal* j) {
  BumpLocked(j);  // want journal-entries "calls BumpLocked without mu_ of j \(exclusive\) held"
}

void bump_locked_here(Journal* j) {
  std::lock_guard<std::shared_mutex> g(j->mu_);
  BumpLocked(j);
}

// Not annotated: held_in names it in the invariant.
void Journal::Unannotated() {
  entries_.pop_back();
}

void Journal::Drain() {
  std::lock_guard<std::shared_mutex> g(mu_);
  Unannotated();
}

void Ledger::Post(int v) {
  std::lock_guard<Mutex> g(mu_);
  total_ += v;
  SettleLocked();
}

// Private and asserting: its callers must hold mu_.
void Ledger::SettleLocked() {
  mu_.AssertHeld();
  total_ = 0;
}

void Ledger::SettleUnlocked() {
  SettleLocked();  // want ledger-total "calls Ledger::SettleLocked without mu_ \(exclusive\) held, and it writes Ledger::total_ \(an assignment\) at line \d+ \(Ledger::SettleUnlocked -> Ledger::SettleLocked \[mu_.AssertHeld\(\) at line \d+\]"
}

int Ledger::Total() const {
  mu_.AssertReaderHeld();
  return total_;
}

void Journal::LateAssert() {
  entries_.clear();  // want journal-entries "writes Journal::entries_ \(clear\(\)\) without mu_ \(exclusive\) held in Journal::LateAssert"
  mu_.lock();
  mu_.unlock();
}

void Queue::Slot::FillLocked(int v) {
  value = v;
}

void Queue::Push(int v) {
  std::lock_guard<std::mutex> g(slot_.mu);
  slot_.FillLocked(v);
}

void Queue::PushUnlocked(int v) {
  slot_.FillLocked(v);  // want slot-value "calls Queue::Slot::FillLocked without mu of slot_ \(exclusive\) held"
}

// Its own asserting function, annotated ASSERT_EXCLUSIVE_LOCK(mu_).
void Ledger::Reset() {
  CheckHeld();
  total_ = 0;
}
