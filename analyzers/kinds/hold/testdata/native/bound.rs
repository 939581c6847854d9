// Guards bound by their statement, which hold the lock over a region of
// it: every revert the prover makes of them must be reported.
use std::sync::Mutex;

struct Queue {
    mu: Mutex<Vec<u32>>,
}

impl Queue {
    pub fn if_let(&self) {
        if let Ok(mut g) = self.mu.lock() {
            g.push(1);
        }
    }

    pub fn while_let(&self) {
        while let Ok(mut g) = self.mu.try_lock() {
            g.push(1);
            if g.len() > 8 {
                break;
            }
        }
    }

    pub fn match_arms(&self) {
        match self.mu.lock() {
            Ok(mut g) => g.push(1),
            Err(poisoned) => poisoned.into_inner().push(1),
        }
    }

    pub fn match_try(&self) {
        match self.mu.try_lock() {
            Ok(mut g) => {
                g.push(1);
                g.push(2);
            }
            Err(_) => {}
        }
    }

    pub fn let_else(&self) {
        let Ok(mut g) = self.mu.lock() else { return };
        g.push(1);
    }
}
