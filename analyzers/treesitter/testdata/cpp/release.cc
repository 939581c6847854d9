// Annotated source for call with every_path in C++: `// want ID "regexp"`
// marks a finding; every other line must stay silent.
struct Encoder {
  void release();
};
bool busy();

void end_straight(Encoder* enc) {
  enc->release();
}

int end_then_return(Encoder* enc, int n) {
  enc->release();
  if (n > 0) {
    return n;
  }
  return 0;
}

int end_in_return(Encoder* enc) {
  return (enc->release(), 0);
}

void end_both_arms_returning(Encoder* enc) {
  if (busy()) {
    enc->release();
    return;
  }
  enc->release();
}

void end_lambda_return(Encoder* enc) {
  auto f = [] { return 1; };
  enc->release();
}

int end_early_return(Encoder* enc, int n) {
  if (n == 0) {
    return -1;  // want cpp-every-path "end_early_return must call enc->release on every path, but this return is reached without the call"
  }
  enc->release();
  return n;
}

void end_one_branch(Encoder* enc) {
  if (busy()) {
    enc->release();
  }
}  // want cpp-every-path "end_one_branch must call enc->release on every path, but the end of its body is reached without the call"

// Helpers named under via: a call of the helper counts as the call, when
// the helper itself makes it on every path.
void release_all(Encoder* enc) {
  enc->release();
}

void release_some(Encoder* enc) {
  if (busy()) enc->release();
}

void end_through_helper(Encoder* enc) {
  release_all(enc);
}

void end_through_dead_helper(Encoder* enc) {
  if (false) release_all(enc);  // want cpp-via "this call does not count: it is in a branch under a constant false condition"
}

void end_through_weak_helper(Encoder* enc) {
  release_some(enc);
}
