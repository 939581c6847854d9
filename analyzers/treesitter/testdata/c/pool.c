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

void add_in_block(struct pool *p, int v) {
  {
    pthread_mutex_lock(&pool_mu);
  }
  pool_push(p, v);
  pthread_mutex_unlock(&pool_mu);
}

void add_if_wanted(struct pool *p, int v, int wanted) {
  if (wanted) {
    pthread_mutex_lock(&pool_mu);
    pool_push(p, v);
    pthread_mutex_unlock(&pool_mu);
  }
}

void add_once(struct pool *p, int v) {
  do {
    pthread_mutex_lock(&pool_mu);
  } while (0);
  pool_push(p, v);
  pthread_mutex_unlock(&pool_mu);
}

void revert_lock_one_branch(struct pool *p, int v, int wanted) {
  if (wanted) {
    pthread_mutex_lock(&pool_mu);
  }
  pool_push(p, v);  // want pool-locked "revert_lock_one_branch \(it is not static, so other files can call it\) calls pool_push without holding pool_mu \(exclusive\).*the guard at line 72 does not count: it is taken on a branch that ends at line 73, before this"
  if (wanted) {
    pthread_mutex_unlock(&pool_mu);
  }
}

void revert_lock_in_loop(struct pool *p, int v, int n) {
  for (int i = 0; i < n; i++)
    pthread_mutex_lock(&pool_mu);
  pool_push(p, v);  // want pool-locked "revert_lock_in_loop .*the guard at line 82 does not count: it is taken on a branch that ends at line 82, before this"
}
