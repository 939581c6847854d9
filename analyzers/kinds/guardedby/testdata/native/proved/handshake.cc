// Correct code: every access of Http::buffer_ is in a helper that its
// callers hold mu_ for, by annotation (ReadLocked, FailLocked, MakeWaker)
// or by assertion (Poll). The reverts are made at the callers that hold
// the lock: Shutdown, a private override that no code here calls; OnWritten, through
// `auto* self = static_cast<Http*>(arg)`; OnReadLater, in the header,
// through a RefCountedPtr. Where no caller in the files is checked
// instead (MakeWaker, an override; Poll, asserting the lock), the revert
// deletes the contract.
#include "handshake.h"

void Http::ReadLocked() {
  buffer_[0] = 0;
}

void Http::FailLocked() {
  delete[] buffer_;
  buffer_ = nullptr;
}

void Http::Shutdown() {
  absl::MutexLock lock(&mu_);
  FailLocked();
}

void Http::OnWritten(void* arg) {
  auto* self = static_cast<Http*>(arg);
  absl::MutexLock lock(&self->mu_);
  if (self->pending_ > 0) {
    self->FailLocked();
  }
}

Waker Http::MakeWaker() {
  pending_++;
  return Waker(buffer_);
}

void Http::Poll() {
  mu_.AssertHeld();
  if (buffer_ != nullptr) {
    pending_--;
  }
}
