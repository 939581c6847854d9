/* Annotated source for the C front end. A trailing `// want ID "regexp"`
   marks a finding the invariant ID must report on that line; every other
   line must stay silent. */
#include <stdlib.h>

struct buf;
void buf_flush(struct buf *b);
void buf_free(struct buf *b);
void trace(const char *msg);

void good(struct buf *b) {
  buf_flush(b);
  buf_free(b);
}

void good_macro_defined(struct buf *b) {
#if defined(BUF_FLUSH) && BUF_LEVEL >= 2
  buf_flush(b);
#endif
  buf_free(b);
}

void good_ifndef(struct buf *b) {
#ifndef BUF_NO_FLUSH
  buf_flush(b);
#endif
}

void revert_block_comment(struct buf *b) {  // want c-flush "revert_block_comment must call buf_flush, and contains no live call of it"
  /* buf_flush(b); */
  buf_free(b);
}

void revert_string(struct buf *b) {  // want c-flush "contains no live call"
  trace("buf_flush(b)");
}

void revert_if0(struct buf *b) {
#if 0
  buf_flush(b);  // want c-flush "in `#if 0`, which is not compiled"
#endif
}

void revert_ifdef(struct buf *b) {
#ifdef BUF_DEBUG
  buf_flush(b);  // want c-flush "in `#ifdef BUF_DEBUG`, which is not compiled"
#endif
}

void revert_elif(struct buf *b) {
#if BUF_LEVEL > 1
  buf_free(b);
#elif 1
  buf_flush(b);  // want c-flush "in `#elif 1`, which is not compiled"
#endif
}

void revert_if_zero(struct buf *b) {
  if (0) {
    buf_flush(b);  // want c-flush "in a branch under a constant false condition"
  }
}

void revert_while_zero(struct buf *b) {
  while (0)
    buf_flush(b);  // want c-flush "in a loop whose condition is constant false"
}

void revert_after_return(struct buf *b) {
  return;
  buf_flush(b);  // want c-flush "after the return at line 70"
}

void revert_after_abort(struct buf *b) {
  abort();
  buf_flush(b);  // want c-flush "after the call of abort at line 75"
}

void revert_other_function(struct buf *b) {  // want c-flush "contains no live call"
  buf_flush_later(b);
}

void release_clean(struct buf *b) {
  if (0) {
    free(b);
  }
#if 0
  free(b);
#endif
  buf_free(b);
}

void release_raw(struct buf *b) {
  free(b);  // want c-no-free "release_raw must not call free"
}

void revert_line_comment(struct buf *b) {  // want c-flush "contains no live call"
  // buf_flush(b);
}

void revert_if_defined(struct buf *b) {
#if defined(BUF_DEBUG) || BUF_LEVEL > 3
  buf_flush(b);  // want c-flush "in `#if defined\(BUF_DEBUG\) \|\| BUF_LEVEL > 3`, which is not compiled"
#endif
}

void revert_nested_function(struct buf *b) {  // want c-flush "contains no live call"
  void flush_later(struct buf *x) { buf_flush(x); }
}

void revert_after_exit(struct buf *b) {
  exit(1);
  buf_flush(b);  // want c-flush "after the call of exit at line 112"
}

void broken(struct buf *b) {
  buf_flush(b;
}
