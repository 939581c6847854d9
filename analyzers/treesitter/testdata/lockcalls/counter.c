/* Annotated source for hold over explicit lock calls in C: the mutex is
   held from the lock call on, until an unlock on that path, and every
   path to a return gives it up. A trailing `// want ID "regexp"` marks a
   finding. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <threads.h>

struct counter {
  pthread_mutex_t mu;
  pthread_rwlock_t rw;
  mtx_t m;
  long n;
};

void bump(struct counter *c) {
  pthread_mutex_lock(&c->mu);
  c->n++;
  pthread_mutex_unlock(&c->mu);
}

int bump_checked(struct counter *c, long by) {
  if (by < 0) {
    return -EINVAL;
  }
  pthread_mutex_lock(&c->mu);
  if (c->n + by < c->n) {
    pthread_mutex_unlock(&c->mu);
    return -ERANGE;
  }
  c->n += by;
  pthread_mutex_unlock(&c->mu);
  return 0;
}

long take(struct counter *c) {
  long v;
  pthread_mutex_lock(&c->mu);
  if (c->n == 0) {
    v = -1;
    goto out;
  }
  v = c->n--;
out:
  pthread_mutex_unlock(&c->mu);
  return v;
}

long both_arms(struct counter *c, int reset) {
  long v;
  pthread_mutex_lock(&c->mu);
  if (reset) {
    v = c->n;
    c->n = 0;
    pthread_mutex_unlock(&c->mu);
  } else {
    v = c->n;
    pthread_mutex_unlock(&c->mu);
  }
  return v;
}

/* After the unlock, a check of a local that touches nothing the mutex
   protects. */
long report(struct counter *c) {
  long v;
  pthread_mutex_lock(&c->mu);
  v = c->n;
  pthread_mutex_unlock(&c->mu);
  if (v < 0) {
    return -ERANGE;
  }
  return v;
}

int try_bump(struct counter *c) {
  if (pthread_mutex_trylock(&c->mu) != 0) {
    return -EBUSY;
  }
  c->n++;
  pthread_mutex_unlock(&c->mu);
  return 0;
}

int checked_lock(struct counter *c) {
  if (pthread_mutex_lock(&c->mu)) {
    return -1;
  }
  c->n++;
  pthread_mutex_unlock(&c->mu);
  return 0;
}

void relocked(struct counter *c) {
  pthread_mutex_lock(&c->mu);
  c->n++;
  pthread_mutex_unlock(&c->mu);
  pthread_mutex_lock(&c->mu);
  c->n++;
  pthread_mutex_unlock(&c->mu);
}

void c11_bump(struct counter *c) {
  mtx_lock(&c->m);
  c->n++;
  mtx_unlock(&c->m);
}

long read_shared(struct counter *c) {
  long v;
  pthread_rwlock_rdlock(&c->rw);
  v = c->n;
  pthread_rwlock_unlock(&c->rw);
  return v;
}

/* Hands the mutex to its caller (returns_held). */
void lock_counter(struct counter *c) {
  pthread_mutex_lock(&c->mu);
  c->n++;
}

/* Reverts. */
void revert_unlock_deleted(struct counter *c) {
  pthread_mutex_lock(&c->mu);
  c->n++;
}  // want c-locks "c->mu is still held when revert_unlock_deleted returns at the end of its body: every later pthread_mutex_lock\(&c->mu\) blocks for ever"

int revert_unlock_deleted_one_path(struct counter *c, long by) {
  pthread_mutex_lock(&c->mu);
  if (c->n + by < c->n) {
    return -ERANGE;  // want c-locks "c->mu is still held when revert_unlock_deleted_one_path returns here: every later pthread_mutex_lock\(&c->mu\) blocks for ever"
  }
  c->n += by;
  pthread_mutex_unlock(&c->mu);
  return 0;
}

long revert_one_arm(struct counter *c, int reset) {
  long v;
  pthread_mutex_lock(&c->mu);
  if (reset) {
    v = c->n;
    c->n = 0;
  } else {
    v = c->n;
    pthread_mutex_unlock(&c->mu);
  }
  return v;  // want c-locks "c->mu is still held when revert_one_arm returns here"
}

void revert_unlocked_early(struct counter *c) {
  pthread_mutex_lock(&c->mu);
  pthread_mutex_unlock(&c->mu);  // want c-locks "c->mu is released here, but revert_unlocked_early must hold it at every statement that does work: the statement at line 156 still does"
  c->n++;
}

void revert_lock_deleted(struct counter *c) {  // want c-locks "revert_lock_deleted must hold c->mu \(exclusive\) at every statement that does work, and never acquires it"
  c->n++;
  pthread_mutex_unlock(&c->mu);
}

void revert_locked_late(struct counter *c) {
  c->n++;  // want c-locks "c->mu is not held here; revert_locked_late must hold it \(exclusive\) at every statement that does work, and takes it only at line 166"
  pthread_mutex_lock(&c->mu);
  pthread_mutex_unlock(&c->mu);
}
