// Callers in another file: an annotated helper binds them too.
#include "journal.h"

void replay(Journal* j, int v) {
  std::lock_guard<std::shared_mutex> g(j->mu_);
  j->AppendLocked(v);
  j->Unannotated();
}

void replay_unlocked(Journal& j, int v) {
  j.AppendLocked(v);  // want journal-entries "calls Journal::AppendLocked without mu_ of j \(exclusive\) held, and it writes Journal::entries_"
  j.Unannotated();  // want journal-entries "calls Journal::Unannotated without mu_ of j \(exclusive\) held, and it writes Journal::entries_ \(pop_back\(\)\) at line \d+ \(replay_unlocked -> Journal::Unannotated \[held_in Journal::Unannotated\]"
}

// A method of the same name on another type is not Journal's.
struct Other {
  void AppendLocked(int v);
};

void other_append(Other* o) { o->AppendLocked(1); }
