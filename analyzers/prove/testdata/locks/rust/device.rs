// A device whose evaluation lock comes first: the completion of a stream
// takes eval_mu, so no wait may hold it, and eval_mu is taken before the
// streams.
use std::collections::HashMap;
use std::sync::Mutex;

pub struct Stream;

impl Stream {
    pub fn synchronize(&self) {}
}

pub struct Device {
    eval_mu: Mutex<u32>,
    streams: Mutex<HashMap<u32, u32>>,
    stream: Stream,
}

impl Device {
    // wait_all waits, holding no lock.
    pub fn wait_all(&self) {
        self.stream.synchronize();
    }

    // eval encodes under the locks, then waits outside them.
    pub fn eval(&self, id: u32) {
        {
            let mut n = self.eval_mu.lock().unwrap();
            let mut streams = self.streams.lock().unwrap();
            *n += 1;
            self.note(id);
            streams.insert(id, *n);
        }
        self.stream.synchronize();
    }

    // flush takes the streams alone.
    pub fn flush(&self, id: u32) {
        let mut streams = self.streams.lock().unwrap();
        self.note(id);
        streams.remove(&id);
    }

    // note notes a use of a stream; its callers hold the streams.
    pub fn note(&self, _id: u32) {}
}
