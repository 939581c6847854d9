// Annotated source for the C++ front end. A trailing `// want ID "regexp"`
// marks a finding the invariant ID must report on that line; every other
// line must stay silent.
#include <mutex>
#include <shared_mutex>

struct Encoder {
  void retain();
  void retainCount();
};
struct Buffer {
  void retain();
};
void work();
void log(const char*);

namespace gpu {

class CommandBuffer {
 public:
  // An inline definition is found by Class::method too.
  void good_inline() { enc->retain(); }
  void good_spacing();
  void good_lambda_called();
  void good_lambda_bound();
  void good_ifdef_defined();
  void revert_line_comment();
  void revert_block_comment();
  void revert_string();
  void revert_if0();
  void revert_ifdef();
  void revert_if_defined();
  void revert_if_false();
  void revert_if_zero();
  void revert_else_of_true();
  void revert_after_return();
  void revert_after_throw();
  void revert_lambda_uncalled();
  void revert_nested_function();
  void revert_other_receiver();
  void revert_other_method();
  void suppressed();
  void suppressed_nothing();

 private:
  Encoder* enc;
  Buffer* buf;
};

void CommandBuffer::good_spacing() {
  enc -> /* spacing and comments do not matter */ retain
      ( );
}

void CommandBuffer::good_lambda_called() {
  [&] { enc->retain(); }();
}

void CommandBuffer::good_lambda_bound() {
  auto retain = [&] { enc->retain(); };
  retain();
}

void CommandBuffer::good_ifdef_defined() {
#ifdef GPU_RETAIN
  enc->retain();
#endif
}

void CommandBuffer::revert_line_comment() {  // want cpp-retain "revert_line_comment must call enc->retain, and contains no live call of it"
  // enc->retain();
}

void CommandBuffer::revert_block_comment() {  // want cpp-retain "contains no live call"
  /* enc->retain(); */
}

void CommandBuffer::revert_string() {  // want cpp-retain "contains no live call"
  log("enc->retain();");
}

void CommandBuffer::revert_if0() {
#if 0
  enc->retain();  // want cpp-retain "does not count: it is in `#if 0`, which is not compiled"
#endif
}

void CommandBuffer::revert_ifdef() {
#ifdef GPU_NOT_DEFINED
  enc->retain();  // want cpp-retain "in `#ifdef GPU_NOT_DEFINED`, which is not compiled"
#endif
}

void CommandBuffer::revert_if_defined() {
#if defined(GPU_RETAIN) && GPU_LEVEL > 2
  enc->retain();  // want cpp-retain "in `#if defined\(GPU_RETAIN\) && GPU_LEVEL > 2`, which is not compiled"
#else
  work();
#endif
}

void CommandBuffer::revert_if_false() {
  if (false) {
    enc->retain();  // want cpp-retain "in a branch under a constant false condition"
  }
}

void CommandBuffer::revert_if_zero() {
  if (0) enc->retain();  // want cpp-retain "in a branch under a constant false condition"
}

void CommandBuffer::revert_else_of_true() {
  if (true) {
    work();
  } else {
    enc->retain();  // want cpp-retain "in the else of a constant true condition"
  }
}

void CommandBuffer::revert_after_return() {
  return;
  enc->retain();  // want cpp-retain "after the return at line 121"
}

void CommandBuffer::revert_after_throw() {
  throw 1;
  enc->retain();  // want cpp-retain "after the throw at line 126"
}

void CommandBuffer::revert_lambda_uncalled() {
  auto retain = [&] { enc->retain(); };  // want cpp-retain "in a lambda that is never called here"
}

void CommandBuffer::revert_nested_function() {  // want cpp-retain "contains no live call"
  struct Local {
    void f(Encoder* enc) { enc->retain(); }
  };
}

void CommandBuffer::revert_other_receiver() {  // want cpp-retain "contains no live call"
  buf->retain();
}

void CommandBuffer::revert_other_method() {  // want cpp-retain "contains no live call"
  enc->retainCount();
}

}  // namespace gpu

namespace gpu {

// Suppression comments work as in Go files: on the finding's line or the
// line above, with the invariant id and a reason.
void CommandBuffer::suppressed() {
  if (false) {
    //guardlint:ignore cpp-retain the test double owns no pool
    enc->retain();
  }
}

void CommandBuffer::suppressed_nothing() {
  enc->retain();  //guardlint:ignore cpp-retain stale: the call is live  // want suppression "guardlint:ignore cpp-retain suppresses nothing on this line or the next"
}

}  // namespace gpu
