// Callbacks handed a void* that they cast back to their object, as
// gRPC's handshakers are written: `auto* self = static_cast<T*>(arg)` is
// a T, whose fields are accessed through it. A releasable guard given up
// on one branch of an if still holds the lock on the other.
#include "absl/synchronization/mutex.h"

class Connector;
void Unref(Connector* c);

class Connector {
 public:
  static void OnDone(void* arg, bool failed);
  static void OnRead(void* arg);
  static void Schedule(void* arg);
  static void Drain(void* arg, int n);

 private:
  absl::Mutex mu_;
  int closure_;
  bool shut_;
};

void Connector::OnDone(void* arg, bool failed) {
  auto* self = static_cast<Connector*>(arg);
  absl::ReleasableMutexLock lock(&self->mu_);
  if (failed || self->shut_) {
    lock.Release();
    Unref(self);
  } else {
    self->closure_ = 1;
  }
}

void Connector::OnRead(void* arg) {
  auto* self = (Connector*)arg;
  absl::ReleasableMutexLock lock(&self->mu_);
  if (self->shut_) {
    lock.Release();
  }
  self->closure_ = 2;  // want conn-closure "writes Connector::closure_ .*without mu_ of self .exclusive. held in Connector::OnRead .*it is released at line 38"
}

// Schedules the next step without the lock: an unguarded write.
void Connector::Schedule(void* arg) {
  auto* self = static_cast<Connector*>(arg);
  self->closure_ = 0;  // want conn-closure "writes Connector::closure_ .*without mu_ of self .exclusive. held in Connector::Schedule"
}

// A release on one branch reaches the other branch in the next round.
void Connector::Drain(void* arg, int n) {
  auto* self = static_cast<Connector*>(arg);
  absl::ReleasableMutexLock lock(&self->mu_);
  for (int i = 0; i < n; i++) {
    if (i == 1) {
      lock.Release();
    } else {
      self->closure_ = i;  // want conn-closure "writes Connector::closure_ .*without mu_ of self .exclusive. held in Connector::Drain .*it is released at line 55"
    }
  }
}
