// Guards as Rust code binds them: by a refutable pattern (`if let`,
// `while let`, `let ... else`, `match`), kept alive by temporary lifetime
// extension, taken with try_lock, awaited (tokio) or without unwrap
// (parking_lot, spin). `// want ID "regexp"` marks a finding; every other
// line must stay silent.
use std::sync::Mutex;

struct Queue {
    mu: Mutex<Vec<u32>>,
    jobs: Mutex<Vec<u32>>,
}

impl Queue {
    pub fn if_let(&self) {
        if let Ok(mut g) = self.mu.lock() {
            g.push(1);
        }
    }

    pub fn if_let_else_returns(&self) -> Option<u32> {
        if let Ok(g) = self.mu.lock() {
            g.first().copied()
        } else {
            None
        }
    }

    pub fn while_let(&self) {
        while let Ok(mut g) = self.mu.try_lock() {
            g.push(1);
        }
    }

    pub fn scrutinee_temporary(&self) {
        while let Some(job) = self.mu.lock().unwrap().pop() {
            run(job);
        }
    }

    pub fn let_else(&self) {
        let Ok(mut g) = self.mu.lock() else { return };
        g.push(1);
    }

    pub fn let_else_try(&self) {
        let Some(mut g) = self.mu.try_lock() else {
            return;
        };
        g.push(1);
    }

    pub fn match_arms(&self) {
        match self.mu.lock() {
            Ok(mut g) => g.push(1),
            Err(poisoned) => poisoned.into_inner().push(1),
        }
    }

    pub fn match_try(&self) {
        match self.mu.try_lock() {
            Ok(mut g) => g.push(1),
            Err(_) => return,
        }
    }

    pub fn let_match(&self) {
        let mut g = match self.mu.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        };
        g.push(1);
    }

    pub fn extended(&self) -> usize {
        let v: &Vec<u32> = &*self.mu.lock().unwrap();
        v.len()
    }

    pub fn extended_mut(&self) {
        let v = &mut *self.mu.lock().unwrap();
        v.push(1);
    }

    pub fn try_unwrap(&self) {
        let mut g = self.mu.try_lock().unwrap();
        g.push(1);
    }

    pub async fn awaited(&self) {
        let mut g = self.mu.lock().await;
        g.push(1);
    }

    pub fn no_unwrap(&self) {
        let mut g = self.mu.lock();
        g.push(1);
    }

    // Reverts.

    pub fn revert_if_let_then_work(&self) {
        if let Ok(mut g) = self.mu.lock() {
            g.push(1);
        }
        work();  // want id-hold "self.mu is not held here; Queue::revert_if_let_then_work must hold it \(exclusive\) at every statement that does work"
    }

    pub fn revert_else_works(&self) {
        if let Ok(mut g) = self.mu.try_lock() {  // want id-hold "this guard does not count: it holds the lock only from line 109 to line 111, and the code at line 111 does work without it"
            g.push(1);
        } else {
            work();
        }
    }

    pub fn revert_try_without_unwrap(&self) {  // want id-hold "never acquires it"
        let g = self.mu.try_lock();
        work();
    }

    pub fn revert_match_try_other_arm(&self) {
        match self.mu.try_lock() {  // want id-hold "does work without it"
            Ok(mut g) => g.push(1),
            Err(_) => work(),
        }
    }

    pub fn revert_extended_method(&self) {  // want id-hold "never acquires it"
        let n = &self.mu.lock().unwrap().len();
        work();
    }

    pub fn revert_let_else_underscore(&self) {
        let Ok(_) = self.mu.lock() else { return };  // want id-hold "this guard does not count: its pattern binds nothing, so the guard is dropped at the end of the let"
        work();
    }

    pub fn revert_err_pattern(&self) {  // want id-hold "never acquires it"
        if let Err(_) = self.mu.try_lock() {
            work();
        }
    }

    // requires: each push must run with self.jobs held.

    pub fn req_if_let(&self) {
        if let Ok(mut g) = self.jobs.lock() {
            push(&mut g);
        }
    }

    pub fn req_scrutinee(&self) {
        while let Some(job) = self.jobs.lock().unwrap().pop() {
            push(job);
        }
    }

    pub fn req_let_else(&self) {
        let Ok(mut g) = self.jobs.lock() else { return };
        push(&mut g);
    }

    pub fn req_extended(&self) {
        let v = &mut *self.jobs.lock().unwrap();
        push(v);
    }

    pub fn req_match(&self) {
        match self.jobs.try_lock() {
            Ok(mut g) => push(&mut g),
            Err(_) => {}
        }
    }

    pub fn revert_req_after_if_let(&self) {
        if let Ok(g) = self.jobs.lock() {
            drop(g);
        }
        push(1);  // want id-requires "it holds the lock only from line 176 to line 178"
    }

    pub fn revert_req_other_arm(&self) {
        match self.jobs.try_lock() {
            Ok(_) => {}
            Err(_) => push(1),  // want id-requires "it holds the lock only from line 184 to line 184"
        }
    }

    pub fn revert_req_released(&self) {
        if let Ok(g) = self.jobs.lock() {
            drop(g);
            push(1);  // want id-requires "it is released at line 191"
        }
    }
}

// A lock method the invariants file declares (lock_calls).
impl Queue {
    pub fn declared_method(&self) {
        let mut g = self.mu.lock_exclusive();
        g.push(1);
    }

    pub fn revert_declared_temporary(&self) {  // want id-declared "never acquires it"
        self.mu.lock_exclusive().push(1);
        work();
    }
}

// Guards bound by a pattern given up inside their region.
impl Queue {
    pub fn if_let_dropped_last(&self) {
        if let Ok(mut g) = self.mu.lock() {
            g.push(1);
            drop(g);
        }
    }

    pub fn revert_if_let_dropped(&self) {
        if let Ok(mut g) = self.mu.lock() {
            drop(g);  // want id-hold "self.mu is released here, but Queue::revert_if_let_dropped must hold it .*: the statement at line 222 still does"
            work();
        }
    }

    pub fn revert_match_forgotten(&self) {
        match self.mu.lock() {
            Ok(g) => std::mem::forget(g),  // want id-hold "the guard of self.mu is given up here without unlocking it"
            Err(_) => {}
        }
    }
}

// parking_lot's try_lock gives an Option: in a pattern, `None` is the
// variant, not a name that binds the guard, and its arm runs unlocked.
impl Queue {
    pub fn req_some_arm(&self) {
        match self.jobs.try_lock() {
            Some(_) => push(1),
            None => {}
        }
    }

    pub fn revert_req_none_arm(&self) {
        match self.jobs.try_lock() {
            Some(_) => {}
            None => push(1),  // want id-requires "it holds the lock only from line 246 to line 246"
        }
    }
}
