// A pool of free slots whose list is guarded by the lock beside it.
use std::sync::RwLock;

pub struct Pool {
    mu: RwLock<()>,
    free: Vec<u32>,
}

impl Pool {
    pub fn new() -> Pool {
        Pool { mu: RwLock::new(()), free: Vec::new() }
    }

    pub fn put(&mut self, v: u32) {
        let _g = self.mu.write().unwrap();
        self.free.push(v);
    }

    pub fn len(&self) -> usize {
        let _g = self.mu.read().unwrap();
        self.free.len()
    }

    pub fn bad_put(&mut self, v: u32) {
        let _g = self.mu.read().unwrap();
        self.free.push(v); // want rust-free "writes Pool::free \(push\(\)\) under a shared lock of mu; a write needs it exclusive"
    }

    pub fn peek(&self) -> Option<&u32> {
        self.free.last() // want rust-free "reads Pool::free without mu held in Pool::peek \(it is pub"
    }

    fn take_locked(&mut self) -> Option<u32> {
        self.free.pop()
    }

    pub fn take(&mut self) -> Option<u32> {
        let _g = self.mu.write().unwrap();
        self.take_locked()
    }

    pub fn bad_take(&mut self) -> Option<u32> {
        self.take_locked() // want rust-free "calls Pool::take_locked without mu \(exclusive\) held, and it writes Pool::free \(pop\(\)\) at line 34"
    }

    pub fn dropped(&mut self) {
        let g = self.mu.write().unwrap();
        drop(g);
        self.free.clear(); // want rust-free "writes Pool::free \(clear\(\)\) without mu \(exclusive\) held in Pool::dropped .*released at line"
    }

    pub fn spawned(&'static mut self) {
        let _g = self.mu.write().unwrap();
        std::thread::spawn(move || self.free.clear()); // want rust-free "writes Pool::free \(clear\(\)\) in a closure .*without mu \(exclusive\) held in it"
    }
}

pub fn drain(p: &mut Pool) {
    let _g = p.mu.write().unwrap();
    p.free.clear();
}

pub fn bad_drain(p: &mut Pool, q: &Pool) {
    let _g = q.mu.write().unwrap();
    p.free.clear(); // want rust-free "writes Pool::free \(clear\(\)\) without mu of p \(exclusive\) held in bad_drain"
}
