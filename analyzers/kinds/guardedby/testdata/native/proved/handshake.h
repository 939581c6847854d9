// A handshaker whose buffer_ is touched only in helpers that say, by
// their annotation, that their callers hold mu_, as gRPC's handshakers
// are written. Its callbacks hold the lock through the pointer their
// argument is cast to, or a reference-counted pointer made from it; the
// one defined here, in the header, calls a helper defined in
// handshake.cc, where buffer_ is accessed: a check of this header alone
// sees neither.
#include "absl/synchronization/mutex.h"

#define EXCLUSIVE_LOCKS_REQUIRED(...) __attribute__((exclusive_locks_required(__VA_ARGS__)))

template <typename T>
class RefCountedPtr {
 public:
  explicit RefCountedPtr(T* p) : p_(p) {}
  T* operator->() const { return p_; }

 private:
  T* p_;
};

class Waker;

class Handshaker {
 public:
  virtual ~Handshaker() = default;
  virtual void Shutdown() = 0;
  virtual Waker MakeWaker() = 0;
};

class Http : public Handshaker {
 public:
  Waker MakeWaker() EXCLUSIVE_LOCKS_REQUIRED(mu_) override;

  static void OnReadLater(void* arg) {
    RefCountedPtr<Http> self(static_cast<Http*>(arg));
    absl::MutexLock lock(&self->mu_);
    self->ReadLocked();
  }

 private:
  // Called only through Handshaker, as gRPC's activities' Cancel() is.
  void Shutdown() override;
  static void OnWritten(void* arg);
  void ReadLocked() EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void FailLocked() EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void Poll();

  absl::Mutex mu_;
  char* buffer_ = nullptr;
  int pending_ = 0;
};
