// Annotated source for call with every_path in Rust: `// want ID "regexp"`
// marks a finding; every other line must stay silent.
impl Pool {
    fn end(&mut self, enc: Encoder) -> Result<(), E> {
        enc.release();
        self.flush()?;
        Ok(())
    }

    fn end_closure_returns(&mut self, enc: Encoder) {
        let f = |x: u32| -> u32 { return x; };
        enc.release();
    }

    fn end_try_first(&mut self, enc: Encoder) -> Result<(), E> {
        self.flush()?;  // want rs-every-path "Pool::end_try_first must call enc.release on every path, but this return is reached without the call"
        enc.release();
        Ok(())
    }

    fn end_if(&mut self, enc: Encoder, busy: bool) {
        if busy {
            enc.release();
        }
    }  // want rs-every-path "the end of its body is reached without the call"
}
