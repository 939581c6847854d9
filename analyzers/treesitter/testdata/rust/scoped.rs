// Annotated source for requires, hold, call and owns over real Rust
// shapes: a guard in the block around the only access it protects,
// argument checks before the lock, a lock through a reference, closures
// run by a runner. `// want ID "regexp"` marks a finding; every other
// line must stay silent.
use std::collections::HashMap;
use std::sync::{Mutex, Once, RwLock};

static ENV_LOCK: RwLock<()> = RwLock::new(());
static INIT: Once = Once::new();

fn env_read_lock() -> std::sync::RwLockReadGuard<'static, ()> {
    ENV_LOCK.read().unwrap()
}

fn libc_getenv(k: &str) -> Option<String> {
    None
}

pub fn getenv(k: &str) -> Option<String> {
    let v = {
        let _guard = ENV_LOCK.read().unwrap();
        libc_getenv(k)
    };
    v
}

pub fn getenv_helper(k: &str) -> Option<String> {
    let _guard = env_read_lock();
    libc_getenv(k)
}

pub fn getenv_temporary(k: &str) -> Option<String> {
    ENV_LOCK.read().map(|_g| ()).ok();
    let v = ENV_LOCK.read().unwrap().clone();
    libc_getenv(k)  // want env-locked "getenv_temporary \(it is pub, so other modules can call it\) calls libc_getenv without holding ENV_LOCK \(shared\).*the guard at line 35 does not count: the guard is a temporary, dropped at the end of its statement"
}

pub fn getenv_let_underscore(k: &str) -> Option<String> {
    let _ = ENV_LOCK.read().unwrap();
    libc_getenv(k)  // want env-locked "the guard at line 40 does not count: `let _ =` drops the guard at once"
}

pub fn getenv_nested(k: &str) -> Option<String> {
    {
        let _guard = ENV_LOCK.read().unwrap();
    }
    libc_getenv(k)  // want env-locked "the guard at line 46 does not count: it is declared in a block that ends at line 47, before this"
}

pub fn getenv_dropped(k: &str) -> Option<String> {
    let guard = ENV_LOCK.read().unwrap();
    drop(guard);
    libc_getenv(k)  // want env-locked "the guard at line 52 does not count: it is released at line 53"
}

pub fn getenv_cfg(k: &str) -> Option<String> {
    #[cfg(any())]
    let _guard = ENV_LOCK.read().unwrap();
    libc_getenv(k)  // want env-locked "does not count: it never runs: under `#\[cfg\(any\(\)\)\]`, which does not hold"
}

pub fn getenv_stored(k: String) -> Box<dyn Fn() -> Option<String>> {
    let _guard = ENV_LOCK.read().unwrap();
    Box::new(move || libc_getenv(&k))  // want env-locked "a closure that is never called here calls libc_getenv without holding ENV_LOCK"
}

// A private function: its callers in this file hold the lock.
fn getenv_locked(k: &str) -> Option<String> {
    libc_getenv(k)
}

pub fn getenv_via(k: &str) -> Option<String> {
    let _guard = ENV_LOCK.read().unwrap();
    getenv_locked(k)
}

pub fn getenv_via_unlocked(k: &str) -> Option<String> {
    getenv_locked(k)  // want env-locked "getenv_via_unlocked \(it is pub, so other modules can call it\) calls getenv_locked without holding ENV_LOCK \(shared\), and nothing shows its callers hold it: getenv_via_unlocked → getenv_locked → libc_getenv"
}

pub struct Engine {
    mu: Mutex<()>,
    encoders: HashMap<u32, u64>,
    retained: u32,
}

fn encode() {}

fn retain(_e: u64) {}

mod objc {
    pub mod rc {
        pub fn autoreleasepool<T>(f: impl FnOnce() -> T) -> T {
            f()
        }
    }
}

impl Engine {
    // Argument checks before the lock do no work.
    pub fn eval(&self, n: usize, outputs: &[u32]) -> Result<(), String> {
        assert!(n > 0, "n must be positive: {}", n);
        if outputs.is_empty() {
            return Err(String::from("no outputs"));
        }
        if n > 4096 {
            panic!("too many outputs: {}", n);
        }
        let _g = self.mu.lock().unwrap();
        encode();
        Ok(())
    }

    // The lock through a reference to it.
    pub fn eval_alias(&self) {
        let m = &self.mu;
        let _g = m.lock().unwrap();
        encode();
    }

    // A check of shared state is work.
    pub fn revert_eval(&self) {
        if self.retained == 0 {  // want engine-locked "self.mu is not held here; Engine::revert_eval must hold it \(exclusive\) at every statement that does work, and takes it only at line 127"
            return;
        }
        let _g = self.mu.lock().unwrap();
        encode();
    }

    // Runners: the closure runs before the runner returns.
    pub fn encoder_pool(&self, e: u64) {
        objc::rc::autoreleasepool(|| {
            retain(e);
        });
    }

    pub fn encoder_once(&self, e: u64) {
        INIT.call_once(|| retain(e));
    }

    pub fn encoder_scope(&self, e: u64) {
        std::thread::scope(|_s| retain(e));
    }

    pub fn revert_encoder_spawned(&self, e: u64) {
        std::thread::spawn(move || retain(e));  // want encoder-retained "this call does not count: it is in a closure that is never called here"
    }

    // Map writes.
    fn register(&mut self, k: u32, v: u64) {
        self.encoders.insert(k, v);
        self.encoders.remove(&k);
    }

    fn revert_register(&mut self, k: u32, v: u64) {
        self.encoders.entry(k).or_insert(v);  // want encoders-owned "field Engine::encoders is written here by Engine::revert_register"
        *self.encoders.get_mut(&k).unwrap() = v;  // want encoders-owned "field Engine::encoders is written here by Engine::revert_register"
        self.encoders.remove(&k);  // want encoders-owned "field Engine::encoders is written here by Engine::revert_register"
    }
}
