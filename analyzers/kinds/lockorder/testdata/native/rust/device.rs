// Annotated source for lock_order in Rust: `// want ID "regexp"` marks a
// finding; every other line must stay silent.
use std::sync::{Mutex, RwLock};

struct Device {
    eval_mu: Mutex<Vec<u32>>,
    streams: RwLock<u32>,
}

impl Device {
    // In order.
    fn eval(&self) {
        let _e = self.eval_mu.lock().unwrap();
        let mut s = self.streams.write().unwrap();
        *s += 1;
    }

    // The stream guard is dropped before eval_mu is taken.
    fn sequential(&self) {
        let s = self.streams.read().unwrap();
        drop(s);
        self.eval_mu.lock().unwrap().push(1);
    }

    // Reverts.

    fn revert_reversed(&self) {
        let _s = self.streams.write().unwrap();
        let _e = self.eval_mu.lock().unwrap(); // want rust-device-order "Device::revert_reversed takes self.eval_mu while holding self.streams \(taken at line 28\)"
    }

    fn revert_temporary(&self) {
        let _s = self.streams.read().unwrap();
        self.eval_mu.lock().unwrap().push(1); // want rust-device-order "Device::revert_temporary takes self.eval_mu while holding self.streams \(taken at line 33\)"
    }

    fn revert_call(&self) {
        let _s = self.streams.read().unwrap();
        self.eval(); // want rust-device-order "Device::revert_call calls Device::eval while holding self.streams \(taken at line 38\), and Device::eval takes self.eval_mu at device.rs:13: Device::revert_call → Device::eval"
    }

    // Guards bound by patterns, kept alive by a scrutinee or by lifetime
    // extension, or awaited.

    fn if_let_in_order(&self) {
        if let Ok(_e) = self.eval_mu.lock() {
            self.streams.write().unwrap();
        }
    }

    fn if_let_released(&self) {
        if let Ok(s) = self.streams.read() {
            drop(s);
        }
        self.eval_mu.lock().unwrap().push(1);
    }

    fn revert_if_let(&self) {
        if let Ok(_s) = self.streams.try_write() {
            self.eval_mu.lock().unwrap().push(1); // want rust-device-order "Device::revert_if_let takes self.eval_mu while holding self.streams \(taken at line 59\)"
        }
    }

    fn revert_while_let(&self) {
        while let Some(n) = self.streams.read().unwrap().checked_add(1) {
            self.eval_mu.lock().unwrap().push(n); // want rust-device-order "Device::revert_while_let takes self.eval_mu while holding self.streams \(taken at line 65\)"
        }
    }

    fn revert_let_else(&self) {
        let Ok(_s) = self.streams.read() else { return };
        self.eval_mu.lock().unwrap().push(1); // want rust-device-order "takes self.eval_mu while holding self.streams \(taken at line 71\)"
    }

    fn revert_extended(&self) {
        let s = &*self.streams.read().unwrap();
        self.eval_mu.lock().unwrap().push(*s); // want rust-device-order "takes self.eval_mu while holding self.streams \(taken at line 76\)"
    }

    async fn revert_awaited(&self) {
        let _s = self.streams.write().await;
        let _e = self.eval_mu.lock().await; // want rust-device-order "takes self.eval_mu while holding self.streams \(taken at line 81\)"
    }
}
