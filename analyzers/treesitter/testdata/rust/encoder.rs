// Annotated source for the Rust front end. A trailing `// want ID "regexp"`
// marks a finding the invariant ID must report on that line; every other
// line must stay silent.
use std::sync::{Mutex, RwLock};

pub struct CommandBuffer {
    encoder: Id,
    mu: Mutex<Vec<u32>>,
    table: RwLock<Vec<u32>>,
}

impl CommandBuffer {
    pub fn good(&self) {
        let encoder = self.encoder;
        unsafe { msg_send![encoder, retain] };  // want rs-macro-name "CommandBuffer::good must not call msg_send!"
    }

    pub fn good_comment_inside(&self) {
        let encoder = self.encoder;
        msg_send![encoder, /* the fix */ retain];
    }

    pub fn good_closure_called(&self) {
        let encoder = self.encoder;
        (|| msg_send![encoder, retain])();
    }

    pub fn good_closure_bound(&self) {
        let encoder = self.encoder;
        let retain = || msg_send![encoder, retain];
        retain();
    }

    pub fn good_in_macro(&self) {
        let encoder = self.encoder;
        debug_log!("retained {:?}", msg_send![encoder, retain]);
    }

    pub fn good_cfg_set(&self) {
        let encoder = self.encoder;
        #[cfg(feature = "metal")]
        msg_send![encoder, retain];
    }

    pub fn revert_other_tokens(&self) {  // want rs-retain "CommandBuffer::revert_other_tokens must call msg_send!\[encoder, retain\], and contains no live call of it"
        msg_send![self.encoder, retainCount];
    }

    pub fn revert_line_comment(&self) {  // want rs-retain "contains no live call"
        let encoder = self.encoder;
        // msg_send![encoder, retain];
    }

    pub fn revert_block_comment(&self) {  // want rs-retain "contains no live call"
        let encoder = self.encoder;
        /* msg_send![encoder, retain]; */
    }

    pub fn revert_string(&self) {  // want rs-retain "contains no live call"
        log("msg_send![encoder, retain]");
    }

    pub fn revert_if_false(&self) {
        let encoder = self.encoder;
        if false {
            msg_send![encoder, retain];  // want rs-retain "this call does not count: it is in a branch under a constant false condition"
        }
    }

    pub fn revert_cfg_any(&self) {
        let encoder = self.encoder;
        #[cfg(any())]
        msg_send![encoder, retain];  // want rs-retain "under `#\[cfg\(any\(\)\)\]`, which does not hold"
    }

    pub fn revert_cfg_unset(&self) {
        let encoder = self.encoder;
        #[cfg(all(test, not(feature = "metal")))]
        msg_send![encoder, retain];  // want rs-retain "which does not hold"
    }

    pub fn revert_after_return(&self) {
        let encoder = self.encoder;
        return;
        msg_send![encoder, retain];  // want rs-retain "after the return at line 84"
    }

    pub fn revert_after_panic(&self) {
        let encoder = self.encoder;
        panic!("no encoder");
        msg_send![encoder, retain];  // want rs-retain "after the panic! at line 90"
    }

    pub fn revert_after_unreachable(&self) {
        let encoder = self.encoder;
        unreachable!();
        msg_send![encoder, retain];  // want rs-retain "after the unreachable! at line 96"
    }

    pub fn revert_closure_uncalled(&self) {
        let encoder = self.encoder;
        let retain = || msg_send![encoder, retain];  // want rs-retain "in a closure that is never called here"
    }

    pub fn revert_nested_fn(&self) {  // want rs-retain "contains no live call"
        fn retain(encoder: Id) {
            msg_send![encoder, retain];
        }
    }
}

impl Drop for CommandBuffer {
    // A trait impl's method is Type::method too.
    fn drop(&mut self) {
        let _g = self.mu.lock().unwrap();
        release(self.encoder);
    }
}

impl CommandBuffer {
    pub fn hold_unwrap(&self) {
        let mut list = self.mu.lock().unwrap();
        list.push(1);
    }

    pub fn hold_try(&self) -> Result<(), E> {
        let n = 0;
        let _guard = self.mu.lock()?;
        work();
        Ok(())
    }

    pub fn hold_drop_at_end(&self) {
        let g = self.mu.lock().unwrap();
        work();
        drop(g);
    }

    pub fn revert_let_underscore(&self) {
        let _ = self.mu.lock().unwrap();  // want rs-hold "this guard does not count: `let _ =` drops the guard at once"
        work();
    }

    pub fn revert_temporary(&self) {
        self.mu.lock().unwrap();  // want rs-hold "the guard is a temporary, dropped at the end of its statement"
        work();
    }

    pub fn revert_nested_block(&self) {
        {
            let _g = self.mu.lock().unwrap();  // want rs-hold "declared in a nested block"
        }
        work();
    }

    pub fn revert_drop_before_work(&self) {
        let g = self.mu.lock().unwrap();
        drop(g);  // want rs-hold "mu is released here, but CommandBuffer::revert_drop_before_work must hold it at every statement that does work: the statement at line 159 still does"
        work();
    }

    pub fn revert_late(&self) {
        work();  // want rs-hold "is not held here; .* takes it only at line 164"
        let _g = self.mu.lock().unwrap();
    }

    pub fn revert_cfg_guard(&self) {
        #[cfg(any())]
        let _g = self.mu.lock().unwrap();  // want rs-hold "it never runs: under `#\[cfg\(any\(\)\)\]`"
        work();
    }

    pub fn lookup(&self) -> u32 {
        let t = self.table.read().unwrap();
        t[0]
    }

    pub fn lookup_write(&self) -> u32 {
        let t = self.table.write().unwrap();  // want rs-shared "self.table is not held in shared mode here"
        t[0]
    }
}

#[cfg(any())]
impl CommandBuffer {
    // Disabled by cfg: not a second definition of good.
    pub fn good(&self) {}
}

mod broken {
    pub fn unparsable() {
        let x = ;
    }
}
