// Upstream's encoder: the command buffer keeps the active encoder that
// the pool hands out at +0.
#include "encoder.h"

namespace gpu {

Encoder* CommandBuffer::get_or_create_encoder() {
  if (active_ == nullptr) {
    Encoder* enc = pool_->take();
    active_ = enc;
  }
  return active_;
}

void CommandBuffer::end_active_encoder() {
  if (active_ == nullptr) {
    return;
  }
  active_->end();
  active_ = nullptr;
}

}  // namespace gpu
