//! The five-in-a-row search's transposition table: what an earlier search of a position
//! found (a score, whether it is exact or a bound, how deep, the best move), keyed by the
//! position's Zobrist hash. Entries are two atomic words, the key stored `XOR`ed with the data,
//! so threads sharing the table never read a torn entry as valid (a torn one simply misses).

use std::sync::atomic::{AtomicU64, Ordering};

/// How a stored score bounds the true one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The true score is at least this (the search failed high).
    Lower,
    /// At most this (it failed low).
    Upper,
}

/// One entry's contents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub score: i32,
    pub depth: i8,
    pub bound: Bound,
    /// The best move found, a point.
    pub best: u16,
}

impl Entry {
    fn pack(self) -> u64 {
        let bound = match self.bound {
            Bound::Exact => 1u64,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        u64::from(self.score as u32)
            | u64::from(self.depth as u8) << 32
            | bound << 40
            | u64::from(self.best) << 48
    }

    fn unpack(data: u64) -> Option<Entry> {
        let bound = match data >> 40 & 0xff {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        Some(Entry {
            score: data as u32 as i32,
            depth: (data >> 32 & 0xff) as u8 as i8,
            bound,
            best: (data >> 48) as u16,
        })
    }
}

/// A table of entries, shared by reference between threads.
pub struct Table {
    slots: Vec<[AtomicU64; 2]>,
    /// Mixed into every key: a new one makes every entry stored before it miss, so the
    /// table is forgotten at once, without writing it.
    salt: AtomicU64,
}

impl Table {
    /// A table of at most `mb` MiB (at least 1 MiB): the most entries, a power of two, that
    /// fit.
    pub fn with_mb(mb: usize) -> Table {
        let want = (mb.max(1) << 20) / 16;
        let len = 1usize << want.ilog2();
        Table {
            slots: (0..len)
                .map(|_| [AtomicU64::new(0), AtomicU64::new(0)])
                .collect(),
            salt: AtomicU64::new(0),
        }
    }

    /// Forgets every entry: from now on none stored before is found.
    pub fn forget(&self) {
        self.salt
            .fetch_add(0x9E37_79B9_7F4A_7C15, Ordering::Relaxed);
    }

    fn slot(&self, key: u64) -> &[AtomicU64; 2] {
        &self.slots[(key as usize) & (self.slots.len() - 1)]
    }

    /// What is stored for `key`, if anything.
    pub fn get(&self, key: u64) -> Option<Entry> {
        let key = key ^ self.salt.load(Ordering::Relaxed);
        self.get_salted(key)
    }

    fn get_salted(&self, key: u64) -> Option<Entry> {
        let [k, d] = self.slot(key);
        let (stored, data) = (k.load(Ordering::Relaxed), d.load(Ordering::Relaxed));
        (stored ^ data == key)
            .then(|| Entry::unpack(data))
            .flatten()
    }

    /// Stores `entry` for `key`, over whatever was there unless that was deeper for the same
    /// key.
    pub fn put(&self, key: u64, entry: Entry) {
        let key = key ^ self.salt.load(Ordering::Relaxed);
        let [k, d] = self.slot(key);
        if let Some(old) = self.get_salted(key)
            && old.depth > entry.depth
            && entry.bound != Bound::Exact
        {
            return;
        }
        let data = entry.pack();
        k.store(key ^ data, Ordering::Relaxed);
        d.store(data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_fills_the_mebibytes_it_is_given_and_no_more() {
        assert_eq!(Table::with_mb(1).slots.len() * 16, 1 << 20);
        assert_eq!(Table::with_mb(64).slots.len() * 16, 64 << 20);
        assert_eq!(Table::with_mb(100).slots.len() * 16, 64 << 20);
        assert_eq!(Table::with_mb(0).slots.len() * 16, 1 << 20);
    }

    #[test]
    fn an_entry_comes_back_as_it_went_in_and_another_key_misses() {
        let table = Table::with_mb(1);
        let entry = Entry {
            score: -29_990,
            depth: 7,
            bound: Bound::Lower,
            best: 112,
        };
        table.put(0xdead_beef, entry);
        assert_eq!(table.get(0xdead_beef), Some(entry));
        assert_eq!(table.get(0xdead_beef ^ 1 << 40), None);
    }
}
