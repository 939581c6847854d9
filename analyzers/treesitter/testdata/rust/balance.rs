// Annotated source for balance in Rust: a guard forgotten or leaked never
// unlocks its mutex.
use std::mem::ManuallyDrop;
use std::sync::Mutex;

pub struct Table {
    mu: Mutex<Vec<u32>>,
}

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

    pub fn label(&self) -> String {
        let g = self.mu.lock().unwrap();
        let n = g.len();
        drop(g);  // want rs-balance "self.mu is released here, but Table::label must hold it at every statement that does work: the statement at line 54 still does"
        self.describe(n)
    }

    fn describe(&self, n: usize) -> String {
        String::from("items")
    }
}
