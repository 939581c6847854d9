// Annotated source for lock_order's Rust calls followed by receiver type:
// `// want ID "regexp"` marks a finding; every other line must stay
// silent.
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

pub struct Registry {
    registry_mu: Mutex<()>,
}

impl Registry {
    pub fn new() -> Registry {
        Registry { registry_mu: Mutex::new(()) }
    }

    pub fn get(&self, k: u32) -> u32 {
        let _g = self.registry_mu.lock().unwrap();
        k
    }
}

pub struct Device {
    device_mu: Mutex<()>,
    libraries: HashMap<u32, u32>,
    registry: Registry,
    shared: Arc<Registry>,
}

impl Device {
    // libraries is a HashMap: its get is the library's, not Registry::get.
    pub fn lookup(&self, k: u32) -> u32 {
        let _g = self.device_mu.lock().unwrap();
        *self.libraries.get(&k).unwrap()
    }

    // Reverts: the receiver's type is known, the call followed.

    pub fn revert_field(&self, k: u32) -> u32 {
        let _g = self.device_mu.lock().unwrap();
        self.registry.get(k) // want rust-recv "Device::revert_field calls Registry::get while holding self.device_mu \(taken at line 39\), and Registry::get takes self.registry_mu at device.rs:17"
    }

    pub fn revert_arc(&self, k: u32) -> u32 {
        let _g = self.device_mu.lock().unwrap();
        self.shared.get(k) // want rust-recv "Device::revert_arc calls Registry::get while holding self.device_mu"
    }

    pub fn revert_local(&self, k: u32) -> u32 {
        let _g = self.device_mu.lock().unwrap();
        let r = Registry::new();
        r.get(k) // want rust-recv "Device::revert_local calls Registry::get while holding self.device_mu"
    }

    pub fn revert_parameter(&self, r: &Registry, k: u32) -> u32 {
        let _g = self.device_mu.lock().unwrap();
        r.get(k) // want rust-recv "Device::revert_parameter calls Registry::get while holding self.device_mu"
    }

    pub fn revert_self_method(&self, k: u32) -> u32 {
        let _g = self.device_mu.lock().unwrap();
        self.via_registry(k) // want rust-recv "Device::revert_self_method calls Device::via_registry while holding self.device_mu"
    }

    fn via_registry(&self, k: u32) -> u32 {
        Registry::get(&self.registry, k)
    }
}
