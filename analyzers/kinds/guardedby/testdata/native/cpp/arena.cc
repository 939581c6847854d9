// Guard classes of the code's own, declared by Clang's thread-safety
// annotations: an ArenaLock holds its arena's mutex from its construction
// to Leave() or the end of its block; a ReadLock holds it shared.
#define SCOPED_LOCKABLE __attribute__((scoped_lockable))
#define ABSL_SCOPED_LOCKABLE __attribute__((scoped_lockable))
#define EXCLUSIVE_LOCK_FUNCTION(...) __attribute__((exclusive_lock_function(__VA_ARGS__)))
#define ABSL_SHARED_LOCK_FUNCTION(...) __attribute__((shared_lock_function(__VA_ARGS__)))
#define UNLOCK_FUNCTION(...) __attribute__((unlock_function(__VA_ARGS__)))

class SpinMu {
 public:
  void Lock();
  void Unlock();
};

struct Arena {
  SpinMu mu;
  int used;
};

struct Block {
  Arena* arena;
};

class SCOPED_LOCKABLE ArenaLock {
 public:
  explicit ArenaLock(Arena* arena) EXCLUSIVE_LOCK_FUNCTION(arena->mu) : arena_(arena) {
    arena_->mu.Lock();
  }
  ~ArenaLock() {}
  void Leave() UNLOCK_FUNCTION() { arena_->mu.Unlock(); }

 private:
  Arena* arena_;
};

class ABSL_SCOPED_LOCKABLE ReadLock {
 public:
  explicit ReadLock(Arena* a) ABSL_SHARED_LOCK_FUNCTION(a->mu);
  ~ReadLock() UNLOCK_FUNCTION();
};

int Used(Arena* a) {
  ArenaLock section(a);
  int n = a->used;
  section.Leave();
  return n;
}

bool Drop(Arena* a) {
  ArenaLock section(a);
  if (a->used != 0) {
    section.Leave();
    return false;
  }
  a->used = -1;
  section.Leave();
  return true;
}

void Release(Block* b) {
  Arena* arena = b->arena;
  ArenaLock section(arena);
  arena->used--;
  section.Leave();
}

int UsedAfterLeave(Arena* a) {
  ArenaLock section(a);
  section.Leave();
  return a->used;  // want arena-used "reads Arena::used without mu of a held in UsedAfterLeave .*it is released at line"
}

void Reset(Arena* a) {
  a->used = 0;  // want arena-used "writes Arena::used .*without mu of a .exclusive. held in Reset"
}

int Peek(Arena* a) {
  ReadLock r(a);
  return a->used;
}

void Poke(Arena* a) {
  ReadLock r(a);
  a->used = 1;  // want arena-used "writes Arena::used .*under a shared lock of mu of a"
}
