// Guards bound by their statement around each push: every revert the
// prover makes of them must be reported.
use std::sync::Mutex;

struct Queue {
    jobs: Mutex<Vec<u32>>,
}

impl Queue {
    pub fn if_let(&self) {
        if let Ok(mut g) = self.jobs.lock() {
            push(&mut g);
            g.clear();
        }
    }

    pub fn while_let(&self) {
        while let Ok(mut g) = self.jobs.try_lock() {
            push(&mut g);
        }
    }

    pub fn match_arm(&self) {
        match self.jobs.try_lock() {
            Ok(mut g) => push(&mut g),
            Err(_) => {}
        }
    }
}
