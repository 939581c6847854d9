use std::sync::RwLock;

pub struct Pool {
    mu: RwLock<()>,
    free: Vec<u32>,
}

impl Pool {
    pub fn put(&mut self, v: u32) {
        let _g = self.mu.write().unwrap();
        self.free.push(v);
    }

    pub fn len(&self) -> usize {
        let _g = self.mu.read().unwrap();
        self.free.len()
    }
}
