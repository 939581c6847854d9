#include "encoder_pool.h"

Encoder* Pool::take() {
  if (free_.empty()) {
    all_.push_back(std::make_unique<Encoder>());
    return all_.back().get();
  }
  Encoder* e = free_.back();
  free_.pop_back();
  return e;
}

void Pool::give_back(Encoder* e) { free_.push_back(e); }

Encoder* CommandBuffer::getOrCreateEncoder() {
  if (active == nullptr) {
    Encoder* enc = pool_.take();
    enc->retain();
    active = enc;
  }
  return active;
}

int CommandBuffer::endActiveEncoder() {
  Encoder* enc = active;
  if (enc == nullptr) {
    return -1;
  }
  enc->release();
  if (enc->refs == 0) {
    pool_.give_back(enc);
  }
  active = nullptr;
  return enc->refs;
}

void CommandBuffer::reset() {
  endActiveEncoder();
}
