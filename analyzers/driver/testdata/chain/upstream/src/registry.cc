// Upstream's registry of stream encoders.
#include <mutex>
#include <unordered_map>

namespace gpu {

struct Encoder;

class Registry {
 public:
  void add(int stream, Encoder* enc);
  Encoder* lookup(int stream);

 private:
  std::mutex mu_;
  std::unordered_map<int, Encoder*> by_stream_;
};

void Registry::add(int stream, Encoder* enc) {
  by_stream_[stream] = enc;
}

Encoder* Registry::lookup(int stream) {
  auto it = by_stream_.find(stream);
  return it == by_stream_.end() ? nullptr : it->second;
}

}  // namespace gpu
