// A command buffer over a pool of encoders: the pool hands an encoder out
// at +0, so the command buffer retains the one it uses and releases it
// when it ends it.
#pragma once

#include <memory>
#include <stdexcept>
#include <vector>

struct Encoder {
  int refs = 0;
  void retain() { ++refs; }
  void release() {
    if (refs == 0) throw std::logic_error("released an encoder nobody retained");
    --refs;
  }
};

class Pool {
 public:
  // take hands out a free encoder, at +0.
  Encoder* take();
  // give_back returns an encoder nobody holds any more.
  void give_back(Encoder* e);
  size_t free_count() const { return free_.size(); }

 private:
  std::vector<std::unique_ptr<Encoder>> all_;
  std::vector<Encoder*> free_;
};

class CommandBuffer {
 public:
  explicit CommandBuffer(Pool& pool) : pool_(pool), active(nullptr) {}
  Encoder* getOrCreateEncoder();
  // endActiveEncoder releases the active encoder, gives it back when
  // nobody holds it, and returns its count after the release (-1 when
  // there is none).
  int endActiveEncoder();
  void reset();
  bool hasActive() const { return active != nullptr; }

 private:
  Pool& pool_;
  Encoder* active;
};
