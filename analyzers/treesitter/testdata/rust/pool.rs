// Annotated source for the owns rule in Rust: `// want ID "regexp"` marks a
// finding; every other line must stay silent.
pub struct CommandBuffer {
    active: Option<Encoder>,
    count: u32,
}

impl CommandBuffer {
    pub fn new() -> Self {
        CommandBuffer { active: None, count: 0 }
    }

    pub fn get_or_create_encoder(&mut self) -> &Encoder {
        if self.active.is_none() {
            self.active = Some(Encoder::new());
        }
        self.active.as_ref().unwrap()
    }

    pub fn end_active_encoder(&mut self) {
        if let Some(e) = self.active.take() {
            e.release();
        }
    }

    pub fn reset(&mut self) {
        self.active = None;  // want rs-owns "field CommandBuffer::active is written here by CommandBuffer::reset; only CommandBuffer::new, CommandBuffer::get_or_create_encoder, CommandBuffer::end_active_encoder may write it"
        self.count += 1;
    }

    pub fn reset_take(&mut self) {
        let _ = self.active.take();  // want rs-owns "written here by CommandBuffer::reset_take"
    }

    pub fn reset_cfg(&mut self) {
        #[cfg(any())]
        {
            self.active = None;
        }
        self.end_active_encoder();
    }

    pub fn reset_later(&mut self) -> impl FnMut() + '_ {
        move || self.active = None  // want rs-owns "this write might run: it is in a closure that is never called here"
    }

    pub fn swap_in(&mut self, e: Encoder) {
        std::mem::replace(&mut self.active, Some(e));  // want rs-owns "written here by CommandBuffer::swap_in"
    }
}

fn rebuild() -> CommandBuffer {
    CommandBuffer { active: None, count: 1 }  // want rs-owns "written here by rebuild"
}
