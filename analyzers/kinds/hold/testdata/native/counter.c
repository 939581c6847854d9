/* Correct code whose explicit lock calls guardlint prove reverts. */
#include <errno.h>
#include <pthread.h>

struct counter {
  pthread_mutex_t mu;
  long n;
};

int bump_checked(struct counter *c, long by) {
  pthread_mutex_lock(&c->mu);
  if (c->n + by < c->n) {
    pthread_mutex_unlock(&c->mu);
    return -ERANGE;
  }
  c->n += by;
  pthread_mutex_unlock(&c->mu);
  return 0;
}

void bump(struct counter *c) {
  pthread_mutex_lock(&c->mu);
  c->n++;
  pthread_mutex_unlock(&c->mu);
}
