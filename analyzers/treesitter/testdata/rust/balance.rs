// Annotated source for balance in Rust: a guard forgotten or leaked never
// unlocks its mutex.
use std::mem::ManuallyDrop;
use std::sync::Mutex;

pub struct Table {
    mu: Mutex<Vec<u32>>,
    cap: usize,
}

static CAP: usize = 8;

impl Table {
    pub fn forgotten(&self) {
        let mut g = self.mu.lock().unwrap();
        g.push(1);
        std::mem::forget(g);  // want rs-balance "the guard of self.mu is given up here without unlocking it: Table::forgotten returns with self.mu held, and every later acquisition of it blocks for ever"
    }

    pub fn manually_dropped(&self) {
        let mut g = self.mu.lock().unwrap();
        g.push(1);
        let _keep = ManuallyDrop::new(g);  // want rs-balance "the guard of self.mu is given up here without unlocking it"
    }

    pub fn leaked(&self) {
        let mut g = self.mu.lock().unwrap();
        g.push(1);
        Box::leak(Box::new(g));  // want rs-balance "the guard of self.mu is given up here without unlocking it"
    }

    pub fn dropped(&self) {
        let mut g = self.mu.lock().unwrap();
        g.push(1);
        drop(g);
    }

    pub fn handed_over(&self) {
        let mut g = self.mu.lock().unwrap();
        g.push(1);
        std::mem::forget(g);
    }

    // Work after the release: a standard constructor of locals and
    // constants touches nothing the lock protects; a method of self may.
    pub fn spare(&self) -> Vec<u32> {
        let g = self.mu.lock().unwrap();
        let n = g.len();
        drop(g);
        Vec::with_capacity(n)
    }

    // A formatted message of locals after the release touches nothing the
    // lock protects, whether it is bound, returned or its name captured
    // inline; a field formatted after the release is read unlocked.
    pub fn message(&self) -> String {
        let g = self.mu.lock().unwrap();
        let n = g.len();
        drop(g);
        let s = format!("{} items", n);
        s
    }

    pub fn message_inline(&self) -> String {
        let g = self.mu.lock().unwrap();
        let n = g.len();
        drop(g);
        format!("{n} items, {{braces}} and {:>4}", n)
    }

    pub fn message_of_field(&self) -> String {
        let g = self.mu.lock().unwrap();
        let n = g.len();
        drop(g);  // want rs-balance "self.mu is released here, but Table::message_of_field must hold it at every statement that does work: the statement at line 75 still does"
        format!("{} of {}", n, self.cap)
    }

    pub fn message_captured(&self) -> String {
        let g = self.mu.lock().unwrap();
        let n = g.len();
        drop(g);  // want rs-balance "self.mu is released here, but Table::message_captured must hold it at every statement that does work: the statement at line 82 still does"
        format!("{n} of {CAP}")
    }

    pub fn label(&self) -> String {
        let g = self.mu.lock().unwrap();
        let n = g.len();
        drop(g);  // want rs-balance "self.mu is released here, but Table::label must hold it at every statement that does work: the statement at line 89 still does"
        self.describe(n)
    }

    fn describe(&self, n: usize) -> String {
        String::from("items")
    }
}
