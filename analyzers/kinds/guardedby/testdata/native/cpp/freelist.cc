// A free list whose blocks point back to their pool, as Abseil's
// low-level allocator's do: a helper reaches the pool through a block's
// header (`Pool* pool = b->header.pool;`), a value its callers cannot
// name; the callers hold their pool's lock. A lock of a value of the
// pool's type, held where the local is used or by every caller, is taken
// for the local's (the near match), and so is a lock that an annotation
// says the callers hold; a link of the pool's own type (`pool->next`)
// never is.
#include <mutex>

#define EXCLUSIVE_LOCKS_REQUIRED(...) __attribute__((exclusive_locks_required(__VA_ARGS__)))

struct Pool {
  std::mutex mu;
  int free_count;
  Pool* next;
};

struct Block {
  struct Header {
    Pool* pool;
    int size;
  } header;
  Block* link;
};

// Only this file calls Merge: its callers hold the pool's lock.
static void Merge(Block* b) {
  Pool* pool = b->header.pool;
  pool->free_count--;
}

// Nor does it hold one: it passes the need on, with its own.
static void AddFree(Block* b, Pool* pool) {
  pool->free_count++;
  Merge(b);
  Merge(b->link);
}

void Free(Block* b) {
  Pool* pool = b->header.pool;
  std::lock_guard<std::mutex> lk(pool->mu);
  AddFree(b, pool);
}

// Holds the lock of the pool it is given, and counts through the
// block's back-pointer: taken for the same pool.
void Recount(Block* b, Pool* p) {
  std::lock_guard<std::mutex> lk(p->mu);
  Pool* pool = b->header.pool;
  pool->free_count = 0;
}

// Called from elsewhere without any pool's lock.
void Leak(Block* b) {
  Merge(b);  // want pool-free "calls Merge, which writes Pool::free_count .*through pool, which stands for a member of another value, without mu .exclusive. of any Pool held"
}

// The next pool is another pool: its own lock is needed.
void Spill(Pool* p) {
  std::lock_guard<std::mutex> lk(p->mu);
  Pool* next = p->next;
  next->free_count++;  // want pool-free "writes Pool::free_count .*without mu of next .exclusive. held in Spill"
}

// Its callers hold the pool's lock, by its annotation: Merge's need is
// met there, and passed to Reclaim's callers as the need of pool->mu.
void Reclaim(Block* b, Pool* pool) EXCLUSIVE_LOCKS_REQUIRED(pool->mu) {
  Merge(b);
}

void Shrink(Block* b, Pool* pool) {
  Reclaim(b, pool);  // want pool-free "calls Reclaim without mu of pool .exclusive. held, .*Shrink -> Reclaim -> Merge .EXCLUSIVE_LOCKS_REQUIRED.pool->mu."
}
