struct buf { int n; };

void buf_flush(struct buf *b) { b->n = 0; }

void buf_release(struct buf *b) {
	/* buf_flush(b); */
	b->n = -1;
}
