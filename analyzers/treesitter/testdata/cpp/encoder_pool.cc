// Annotated source for the owns rule in C++: `// want ID "regexp"` marks a
// finding; every other line must stay silent.
#include <memory>

struct Encoder;
void release(Encoder*);

class CommandBuffer {
 public:
  CommandBuffer() : active(nullptr) {}
  Encoder* getOrCreateEncoder();
  void endActiveEncoder();
  void reset();
  void reset_debug();
  void reset_deferred();
  void reset_by_pointer();
  void reset_smart();
  int count = 0;

 private:
  Encoder* active;
  std::unique_ptr<Encoder> spare;
};

Encoder* CommandBuffer::getOrCreateEncoder() {
  if (!active) active = make_encoder();
  return active;
}

void CommandBuffer::endActiveEncoder() {
  release(active);
  this->active = nullptr;
}

void CommandBuffer::reset() {
  active = nullptr;  // want cpp-owns "field CommandBuffer::active is written here by CommandBuffer::reset; only CommandBuffer::getOrCreateEncoder, CommandBuffer::endActiveEncoder, CommandBuffer::CommandBuffer may write it"
  count++;
}

void CommandBuffer::reset_debug() {
  if (false) {
    active = nullptr;
  }
  endActiveEncoder();
}

void CommandBuffer::reset_deferred() {
  auto later = [this] { this->active = nullptr; };  // want cpp-owns "this write might run: it is in a lambda that is never called here"
  schedule(later);
}

void CommandBuffer::reset_by_pointer() {
  Encoder** slot = &active;  // want cpp-owns "written here by CommandBuffer::reset_by_pointer"
  *slot = nullptr;
}

void clear(CommandBuffer* cb) {
  cb->active = nullptr;  // want cpp-owns "written here by clear"
}
