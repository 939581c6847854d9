// A public helper whose callers hold the lock, declared in the
// invariants file with held_in (Rust has no annotation for it).
use std::sync::Mutex;

pub struct Queue {
    mu: Mutex<()>,
    items: Vec<u32>,
}

impl Queue {
    pub fn push_locked(&mut self, v: u32) {
        self.items.push(v);
    }

    pub fn push(&mut self, v: u32) {
        let _g = self.mu.lock().unwrap();
        self.push_locked(v);
    }

    pub fn push_unlocked(&mut self, v: u32) {
        self.push_locked(v); // want rust-items "calls Queue::push_locked without mu \(exclusive\) held, and it writes Queue::items \(push\(\)\) at line 12 \(Queue::push_unlocked -> Queue::push_locked \[held_in Queue::push_locked\]"
    }
}
