/* Annotated source for requires over C: the lock is taken and given up
   by explicit calls, and a static helper's callers are followed in the
   file. A trailing `// want ID "regexp"` marks a finding. */
#include <pthread.h>

struct pool;
static pthread_mutex_t pool_mu = PTHREAD_MUTEX_INITIALIZER;
void pool_push(struct pool *p, int v);

void add(struct pool *p, int v) {
  pthread_mutex_lock(&pool_mu);
  pool_push(p, v);
  pthread_mutex_unlock(&pool_mu);
}

int add_checked(struct pool *p, int v) {
  pthread_mutex_lock(&pool_mu);
  if (v < 0) {
    pthread_mutex_unlock(&pool_mu);
    return -1;
  }
  pool_push(p, v);
  pthread_mutex_unlock(&pool_mu);
  return 0;
}

static void push_locked(struct pool *p, int v) { pool_push(p, v); }

void add_two(struct pool *p, int a, int b) {
  pthread_mutex_lock(&pool_mu);
  push_locked(p, a);
  push_locked(p, b);
  pthread_mutex_unlock(&pool_mu);
}

void revert_unlocked_early(struct pool *p, int v) {
  pthread_mutex_lock(&pool_mu);
  pthread_mutex_unlock(&pool_mu);
  pool_push(p, v);  // want pool-locked "revert_unlocked_early \(it is not static, so other files can call it\) calls pool_push without holding pool_mu \(exclusive\).*the guard at line 37 does not count: it is released at line 38"
}

void revert_no_lock(struct pool *p, int v) {
  push_locked(p, v);  // want pool-locked "revert_no_lock \(it is not static, so other files can call it\) calls push_locked without holding pool_mu \(exclusive\), and nothing shows its callers hold it: revert_no_lock → push_locked → pool_push"
}
