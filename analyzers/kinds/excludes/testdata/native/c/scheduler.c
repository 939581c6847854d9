/* Annotated source for excludes in C: `// want ID "regexp"` marks a
   finding; every other line must stay silent. */
#include <pthread.h>

static pthread_mutex_t eval_mu = PTHREAD_MUTEX_INITIALIZER;
static int pending;

void synchronize(void) {}

/* wait_all passes the exclusion to its callers. */
void wait_all(void) { synchronize(); }

void eval(void) {
  pthread_mutex_lock(&eval_mu);
  pending++;
  pthread_mutex_unlock(&eval_mu);
  synchronize();
}

/* Reverts. */

void revert_locked(void) {
  pthread_mutex_lock(&eval_mu);
  wait_all();  // want c-wait-unlocked "revert_locked calls wait_all while holding eval_mu \(taken at line 23\), and synchronize must not run with eval_mu held: revert_locked → wait_all → synchronize"
  pthread_mutex_unlock(&eval_mu);
}
