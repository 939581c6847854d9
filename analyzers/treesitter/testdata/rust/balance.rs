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
}
