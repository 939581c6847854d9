/* A device whose evaluation lock comes first: the completion of a stream
   takes eval_mu, so no wait may hold it, and eval_mu is taken before the
   pool's lock. */
#include <pthread.h>

static pthread_mutex_t eval_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t pool_mu = PTHREAD_MUTEX_INITIALIZER;
static int pending;
static int pooled;

void synchronize(void) {}

/* wait_all waits, holding no lock. */
void wait_all(void) { synchronize(); }

void eval(void) {
  pthread_mutex_lock(&eval_mu);
  pthread_mutex_lock(&pool_mu);
  pending++;
  pooled++;
  pthread_mutex_unlock(&pool_mu);
  pthread_mutex_unlock(&eval_mu);
  synchronize();
}

/* pool_put returns an entry to the pool; its callers hold pool_mu. */
void pool_put(void) { pooled--; }

void recycle(void) {
  pthread_mutex_lock(&pool_mu);
  pool_put();
  pthread_mutex_unlock(&pool_mu);
}
