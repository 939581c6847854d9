//! A small command buffer over a pool of encoders, the shape of the Metal
//! code guardlint was made for: the pool hands an encoder out at +0, so
//! the command buffer retains the one it uses and releases it when it ends
//! it; a registry of streams behind locks; a table read after a bounds
//! check. The tests are the functional guards `guardlint prove --test`
//! measures against the invariants in guardlint.yaml.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, RwLock};

/// An encoder with a reference count. Releasing one that nobody retained
/// is the bug the retain fixes: the count would go below zero.
#[derive(Debug, Default)]
pub struct Encoder {
    refs: u32,
}

impl Encoder {
    pub fn retain(&mut self) {
        self.refs += 1;
    }

    pub fn release(&mut self) {
        self.refs = self.refs.checked_sub(1).expect("released an encoder nobody retained");
    }

    pub fn refs(&self) -> u32 {
        self.refs
    }
}

/// A command buffer with at most one active encoder.
#[derive(Debug, Default)]
pub struct CommandBuffer {
    active: Option<Encoder>,
    ended: u32,
}

impl CommandBuffer {
    pub fn new() -> Self {
        CommandBuffer { active: None, ended: 0 }
    }

    /// Returns the active encoder, taking one from the pool (at +0) and
    /// retaining it when there is none.
    pub fn get_or_create_encoder(&mut self) -> &mut Encoder {
        if self.active.is_none() {
            let mut encoder = Encoder::default();
            encoder.retain();
            self.active = Some(encoder);
        }
        self.active.as_mut().unwrap()
    }

    /// Ends the active encoder: releases it and gives it back. It returns
    /// the encoder's count after the release.
    pub fn end_active_encoder(&mut self) -> Option<u32> {
        let mut encoder = self.active.take()?;
        encoder.release();
        self.ended += 1;
        Some(encoder.refs())
    }

    /// Resets the buffer; the active encoder goes back through
    /// end_active_encoder, which releases it.
    pub fn reset(&mut self) {
        self.end_active_encoder();
        self.ended = 0;
    }

    pub fn ended(&self) -> u32 {
        self.ended
    }

    pub fn has_active(&self) -> bool {
        self.active.is_some()
    }
}

/// The streams of a device and their names, behind locks: registrations
/// take the write side, lookups share the read side.
#[derive(Debug, Default)]
pub struct Registry {
    streams: Mutex<Vec<u32>>,
    names: RwLock<Vec<String>>,
}

impl Registry {
    pub fn register(&self, id: u32) -> usize {
        let mut streams = self.streams.lock().unwrap();
        Self::record(&mut streams, id);
        streams.len()
    }

    /// Records a stream in the list; the caller holds the streams' lock,
    /// which the list is borrowed from.
    pub fn record(streams: &mut Vec<u32>, id: u32) {
        streams.push(id);
    }

    pub fn name(&self, i: usize) -> Option<String> {
        let names = self.names.read().unwrap();
        names.get(i).cloned()
    }

    /// Registers a stream under a name: the streams are locked before the
    /// names, as everywhere.
    pub fn register_named(&self, id: u32, name: &str) -> usize {
        let mut streams = self.streams.lock().unwrap();
        let mut names = self.names.write().unwrap();
        streams.push(id);
        names.push(name.to_string());
        streams.len()
    }

    pub fn rename(&self, i: usize, name: &str) {
        let mut names = self.names.write().unwrap();
        if names.len() <= i {
            names.resize(i + 1, String::new());
        }
        names[i] = name.to_string();
    }
}

/// A device queue that the driver serialises only under `device`: the
/// lock guards the device, not a Rust value, so the compiler cannot tell
/// when it is missing.
#[derive(Debug, Default)]
pub struct Queue {
    device: Mutex<()>,
    submitted: AtomicU32,
}

impl Queue {
    /// Submits n command buffers and returns how many were submitted in
    /// all.
    pub fn submit(&self, n: u32) -> u32 {
        let _device = self.device.lock().unwrap();
        let before = self.submitted.load(Ordering::Relaxed);
        self.submitted.store(before + n, Ordering::Relaxed);
        before + n
    }

    /// Waits for what was submitted. The device completes the work under
    /// the device lock, so a wait that holds it never returns.
    pub fn wait(&self) -> u32 {
        self.submitted.load(Ordering::Relaxed)
    }

    /// Submits n command buffers and waits for them, outside the lock.
    pub fn submit_and_wait(&self, n: u32) -> u32 {
        self.submit(n);
        self.wait()
    }
}

/// Slots handed out and given back by every worker; `free` is guarded by
/// `mu`, a lock beside the data rather than around it (as a field shared
/// with foreign code would be).
#[derive(Debug, Default)]
pub struct Slots {
    mu: RwLock<()>,
    free: Vec<u32>,
}

impl Slots {
    /// Gives a slot back.
    pub fn put(&mut self, v: u32) {
        let _g = self.mu.write().unwrap();
        self.free.push(v);
    }

    /// How many slots are free.
    pub fn len(&self) -> usize {
        let _g = self.mu.read().unwrap();
        self.free.len()
    }
}

/// A table whose reads are checked against its length first.
#[derive(Debug)]
pub struct Table {
    rows: Vec<u32>,
}

#[derive(Debug, PartialEq)]
pub struct OutOfBounds(pub usize);

impl Table {
    pub fn new(rows: Vec<u32>) -> Self {
        Table { rows }
    }

    fn check_bounds(&self, i: usize) -> Result<(), OutOfBounds> {
        if i < self.rows.len() {
            Ok(())
        } else {
            Err(OutOfBounds(i))
        }
    }

    /// Reads row i, with i checked first.
    pub fn read(&self, i: usize) -> Result<u32, OutOfBounds> {
        self.check_bounds(i)?;
        Ok(self.fetch(i))
    }

    /// The unchecked read: past the end it returns another tenant's row
    /// (here, the first one).
    fn fetch(&self, i: usize) -> u32 {
        *self.rows.get(i).unwrap_or(&self.rows[0])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoder_is_retained_and_released_once() {
        let mut cb = CommandBuffer::new();
        assert_eq!(cb.get_or_create_encoder().refs(), 1);
        assert_eq!(cb.end_active_encoder(), Some(0));
        assert_eq!(cb.ended(), 1);
    }

    #[test]
    fn reset_ends_the_active_encoder() {
        let mut cb = CommandBuffer::new();
        cb.get_or_create_encoder();
        cb.reset();
        assert!(!cb.has_active());
    }

    #[test]
    fn registry_registers_and_names() {
        let r = Registry::default();
        assert_eq!(r.register(7), 1);
        r.rename(0, "main");
        assert_eq!(r.name(0).as_deref(), Some("main"));
        assert_eq!(r.register_named(8, "copy"), 2);
    }

    #[test]
    fn submissions_add_up() {
        let q = Queue::default();
        q.submit(2);
        assert_eq!(q.submit(3), 5);
        assert_eq!(q.submit_and_wait(1), 6);
    }

    #[test]
    fn read_past_the_end_is_refused() {
        let t = Table::new(vec![10, 20]);
        assert_eq!(t.read(1), Ok(20));
        assert_eq!(t.read(5), Err(OutOfBounds(5)));
    }
}
