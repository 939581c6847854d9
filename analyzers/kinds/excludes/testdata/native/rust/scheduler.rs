// Annotated source for excludes in Rust: `// want ID "regexp"` marks a
// finding; every other line must stay silent.
use std::sync::Mutex;

struct Stream;

impl Stream {
    fn synchronize(&self) {}
}

struct Scheduler {
    eval_mu: Mutex<u32>,
    stream: Stream,
}

impl Scheduler {
    // wait_all passes the exclusion to its callers.
    fn wait_all(&self) {
        self.stream.synchronize();
    }

    // The guard's block ends before the wait.
    fn eval(&self) {
        {
            let mut n = self.eval_mu.lock().unwrap();
            *n += 1;
        }
        self.stream.synchronize();
    }

    // The guard is dropped before the wait.
    fn eval_drop(&self) {
        let n = self.eval_mu.lock().unwrap();
        drop(n);
        self.wait_all();
    }

    // A temporary guard is dropped at the end of its statement.
    fn eval_temporary(&self) {
        *self.eval_mu.lock().unwrap() += 1;
        self.stream.synchronize();
    }

    // Reverts.

    fn revert_locked(&self) {
        let _n = self.eval_mu.lock().unwrap();
        self.stream.synchronize(); // want rust-wait-unlocked "Scheduler::revert_locked calls Stream::synchronize while holding self.eval_mu \(taken at line 47\), and Stream::synchronize must not run with self.eval_mu held"
    }

    fn revert_helper(&self) {
        let n = self.eval_mu.lock().unwrap();
        self.wait_all(); // want rust-wait-unlocked "Scheduler::revert_helper calls Scheduler::wait_all while holding self.eval_mu \(taken at line 52\), and Stream::synchronize must not run with self.eval_mu held: Scheduler::revert_helper → Scheduler::wait_all → Stream::synchronize"
        drop(n);
    }
}
