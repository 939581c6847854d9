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
  int n;
  pthread_mutex_lock(&t->mu);
  n = t->count;
  pthread_mutex_unlock(&t->mu);
  return n;
}
