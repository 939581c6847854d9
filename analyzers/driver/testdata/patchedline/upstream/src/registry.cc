// Upstream's registry of stream encoders.
#include <mutex>
#include <unordered_map>

struct Encoder;

class Registry {
 public:
  void add(int stream, Encoder* enc);

 private:
  std::mutex mu_;
  std::unordered_map<int, Encoder*> by_stream_;
};

void Registry::add(int stream, Encoder* enc) {
  std::lock_guard<std::mutex> lock(mu_);
  by_stream_[stream] = enc;
}
