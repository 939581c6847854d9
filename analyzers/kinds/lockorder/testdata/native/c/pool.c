/* Annotated source for lock_order in C: `// want ID "regexp"` marks a
   finding; every other line must stay silent. */
#include <pthread.h>

static pthread_mutex_t eval_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t pool_mu = PTHREAD_MUTEX_INITIALIZER;
static int encoders;

void take_pool(void) {
  pthread_mutex_lock(&pool_mu);
  encoders++;
  pthread_mutex_unlock(&pool_mu);
}

void eval(void) {
  pthread_mutex_lock(&eval_mu);
  take_pool();
  pthread_mutex_unlock(&eval_mu);
}

/* Reverts. */

void revert_reversed(void) {
  pthread_mutex_lock(&pool_mu);
  pthread_mutex_lock(&eval_mu);  // want c-eval-before-pool "revert_reversed takes eval_mu while holding pool_mu \(taken at line 24\)"
  pthread_mutex_unlock(&eval_mu);
  pthread_mutex_unlock(&pool_mu);
}

void revert_reversed_on_a_branch(int busy) {
  if (busy) {
    pthread_mutex_lock(&pool_mu);
  }
  pthread_mutex_lock(&eval_mu);  // want c-eval-before-pool "revert_reversed_on_a_branch takes eval_mu while holding pool_mu \(taken at line 32\)"
  pthread_mutex_unlock(&eval_mu);
  if (busy) {
    pthread_mutex_unlock(&pool_mu);
  }
}
