#include "activity.h"

void Activity::Run() {
  MutexLock lock(mu());
  done_ = false;  // mu() returns mu_: the guard of mu() holds it
  MarkDone();
  Step();
}

// Annotated with mu(), which returns mu_.
void Activity::MarkDone() {
  done_ = true;
}

void Activity::Step() {
  MarkDone();  // mu_ is held, which mu() returns
}

void Activity::Wake() {
  MarkDone();  // want activity-done "calls Activity::MarkDone without mu\(\) \(exclusive\) held"
}

// Held only in the branch that asserts it: the callers that do not
// reach the branch need not hold it.
void Activity::Cancel() {
  if (is_current()) {
    mu()->AssertHeld();
    done_ = true;
    return;
  }
  done_ = true;  // want activity-done "writes Activity::done_ \(an assignment\) without mu\(\) \(exclusive\) held in Activity::Cancel"
}

void cancel_all(Activity* a) { a->Cancel(); }

// Held on entry, released by its own unlock call.
void Activity::Finish() {
  done_ = true;
  mu_.Unlock();
  done_ = false;  // want activity-done "writes Activity::done_ \(an assignment\) without mu\(\) \(exclusive\) held in Activity::Finish"
}

void Activity::Wake2() {
  Finish();  // want activity-done "calls Activity::Finish without mu\(\) \(exclusive\) held"
}

void Timers::Note(Shard* s) {
  s->index = 1;
}

void Timers::Noted() {
  MutexLock lock(&mu_);
  Note(&shards_[0]);
}

void Timers::Unnoted() {
  Note(&shards_[1]);  // want timers-index "calls Timers::Note without &Timers::mu_ \(exclusive\) held"
}

// Held past a TryLock() whose failure returns, up to the unlock.
bool Activity::TryFinish() {
  if (!mu_.TryLock()) return false;
  done_ = true;
  mu_.Unlock();
  done_ = false;  // want activity-done "writes Activity::done_ \(an assignment\) without mu\(\) \(exclusive\) held in Activity::TryFinish"
  return true;
}
