// Annotated source for the order rule in Rust: `// want ID "regexp"` marks
// a finding; every other line must stay silent.
pub struct Table {
    rows: Vec<u32>,
}

impl Table {
    pub fn read(&self, i: usize) -> u32 {
        self.check_bounds(i);
        self.rows[i] + self.fetch(i)
    }

    pub fn read_matched(&self, i: usize) -> u32 {
        self.check_bounds(i);
        match i {
            0 => self.fetch(0),
            _ => self.fetch(i),
        }
    }

    pub fn read_unchecked(&self, i: usize) -> u32 {
        self.fetch(i)  // want rs-order "Table::read_unchecked must call self.check_bounds before this call of self.fetch, on every path"
    }

    pub fn read_checked_in_closure(&self, i: usize) -> u32 {
        let check = || self.check_bounds(i);
        self.fetch(i)  // want rs-order "must call self.check_bounds before this call"
    }

    pub fn read_checked_in_if(&self, i: usize, fast: bool) -> u32 {
        if !fast {
            self.check_bounds(i);
        }
        self.fetch(i)  // want rs-order "must call self.check_bounds before this call"
    }

    pub fn read_checked_cfg(&self, i: usize) -> u32 {
        #[cfg(any())]
        self.check_bounds(i);
        self.fetch(i)  // want rs-order "must call self.check_bounds before this call"
    }

    pub fn read_checked_in_then(&self, i: usize, fast: bool) -> u32 {
        if fast {
            self.check_bounds(i);
            0
        } else {
            self.fetch(i)  // want rs-order "must call self.check_bounds before this call"
        }
    }

    pub fn read_checked_in_arm(&self, i: usize) -> u32 {
        match i {
            0 => {
                self.check_bounds(i);
                self.fetch(i)
            }
            _ => 0,
        }
    }
}
