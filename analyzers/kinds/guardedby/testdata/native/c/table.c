/* A table whose count is guarded by the mutex of the same table. */
#include <pthread.h>

typedef struct {
  pthread_mutex_t mu;
  int count;
} Table;

void table_bump(Table *t) {
  pthread_mutex_lock(&t->mu);
  t->count++;
  pthread_mutex_unlock(&t->mu);
}

int table_peek(Table *t) {
  return t->count; // want c-count "reads Table::count without mu of t held in table_peek \(it is not static"
}

void table_late(Table *t) {
  pthread_mutex_lock(&t->mu);
  pthread_mutex_unlock(&t->mu);
  t->count = 0; // want c-count "writes Table::count \(an assignment\) without mu of t \(exclusive\) held in table_late"
}

static void bump_locked(Table *t) { t->count += 2; }

void table_bump2(Table *t) {
  pthread_mutex_lock(&t->mu);
  bump_locked(t);
  pthread_mutex_unlock(&t->mu);
}

void table_bad(Table *t) {
  bump_locked(t); // want c-count "calls bump_locked without mu of t \(exclusive\) held, and it writes Table::count \(a compound assignment\) at line 25 \(table_bad -> bump_locked: it is not static"
}

void table_wrong(Table *a, Table *b) {
  pthread_mutex_lock(&a->mu);
  b->count = 1; // want c-count "writes Table::count \(an assignment\) without mu of b \(exclusive\) held"
  pthread_mutex_unlock(&a->mu);
}

void table_init(Table *t) { t->count = 0; }

static void orphan(Table *t) { t->count = 5; } // want c-count "orphan writes Table::count \(an assignment\) at line 45 without mu \(exclusive\) held \(orphan\), and no call of orphan is found"
