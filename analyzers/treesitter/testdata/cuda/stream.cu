// More annotated CUDA: the call and hold reverts on a stream wrapper.
// A trailing `// want ID "regexp"` marks a finding; every other line must
// stay silent.
#include <cuda_runtime.h>
#include <mutex>

void log(const char*);

struct Stream {
  cudaStream_t s;
  std::mutex mu;
  void sync_good();
  void sync_line_comment();
  void sync_block_comment();
  void sync_string();
  void sync_ifdef();
  void sync_if_false();
  void sync_after_throw();
  void sync_lambda();
  void sync_nested();
  void launch_locked();
  void launch_temporary();
  void launch_nested_lock();
};

void Stream::sync_good() {
  cudaStreamSynchronize(/* the stream */ s);
}

void Stream::sync_line_comment() {  // want cu-sync "contains no live call"
  // cudaStreamSynchronize(s);
}

void Stream::sync_block_comment() {  // want cu-sync "contains no live call"
  /* cudaStreamSynchronize(s); */
}

void Stream::sync_string() {  // want cu-sync "contains no live call"
  log("cudaStreamSynchronize(s)");
}

void Stream::sync_ifdef() {
#ifdef STREAM_SYNC
  cudaStreamSynchronize(s);  // want cu-sync "in `#ifdef STREAM_SYNC`, which is not compiled"
#endif
}

void Stream::sync_if_false() {
  if (false) cudaStreamSynchronize(s);  // want cu-sync "in a branch under a constant false condition"
}

void Stream::sync_after_throw() {
  throw 1;
  cudaStreamSynchronize(s);  // want cu-sync "after the throw at line 53"
}

void Stream::sync_lambda() {
  auto later = [this] { cudaStreamSynchronize(s); };  // want cu-sync "in a lambda that is never called here"
}

void Stream::sync_nested() {  // want cu-sync "contains no live call"
  struct Later {
    void run(cudaStream_t s) { cudaStreamSynchronize(s); }
  };
}

void Stream::launch_locked() {
  std::lock_guard<std::mutex> l{mu};
  cudaStreamSynchronize(s);
}

void Stream::launch_temporary() {
  std::lock_guard<std::mutex>{mu};  // want cu-hold "it is a temporary"
  cudaStreamSynchronize(s);
}

void Stream::launch_nested_lock() {
  {
    std::lock_guard<std::mutex> l(mu);  // want cu-hold "declared in a nested block"
  }
  cudaStreamSynchronize(s);
}
