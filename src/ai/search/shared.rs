//! The transposition table that several searchers share when a search runs on more than one
//! thread (see [`super::Searcher::set_threads`]): the same two-slot buckets and packed entries
//! as [`Table`], each slot guarded by a sequence number, so that a reader never takes half of
//! one entry and half of another. A proof stored by any thread is a proof for all of them.
//!
//! A slot is four words: the sequence number, the two bitboards and the packed entry. A writer
//! makes the sequence odd (by a compare-and-swap: when another writer holds the slot, the
//! store is dropped, as a full table drops entries anyway), writes the words and makes it even
//! again; a reader takes the words between two reads of the same even number, and treats
//! anything else as a miss.
//!
//! Like [`Table`] it starts small and doubles once a quarter full, up to its limit, so a short
//! search touches few pages: the thread that finds it full copies it into one twice as large
//! and publishes that in the [`Hub`]; the others move to it when they next look at the clock,
//! and what they store in the old one meanwhile is lost (a cache may lose entries).

use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering, fence};
use std::sync::{Arc, Mutex, PoisonError};

use super::table::{Entry, FIRST_SLOTS, Key, Probe, Table, bucket, stored_depth};

/// One slot: sequence number, the key's two bitboards, the packed entry (0: empty).
type Slot = [AtomicU64; 4];

/// A table of two-slot buckets shared between threads, of one size.
pub(super) struct SharedTable {
    slots: Vec<Slot>,
    mask: usize,
    /// Slots holding an entry, as far as the threads have told.
    filled: AtomicUsize,
    /// Which of the hub's tables this is: a slot chosen in another is stale.
    generation: u32,
}

impl SharedTable {
    /// An empty table of `slots` slots, a power of two (at least two).
    fn new(slots: usize, generation: u32) -> SharedTable {
        debug_assert!(slots.is_power_of_two() && slots >= 2);
        SharedTable {
            slots: std::iter::repeat_with(Slot::default).take(slots).collect(),
            mask: slots - 1,
            filled: AtomicUsize::new(0),
            generation,
        }
    }

    /// The slot's bitboards and packed entry, or `None` while a writer holds it.
    #[inline]
    fn read(&self, slot: usize) -> Option<[u64; 3]> {
        let [seq, me, opp, data] = &self.slots[slot];
        let before = seq.load(Ordering::Acquire);
        if before & 1 == 1 {
            return None;
        }
        let words = [
            me.load(Ordering::Relaxed),
            opp.load(Ordering::Relaxed),
            data.load(Ordering::Relaxed),
        ];
        fence(Ordering::Acquire);
        (seq.load(Ordering::Relaxed) == before).then_some(words)
    }

    /// As [`Table::probe`]: the key's entry, or the slot to replace (the shallower).
    #[inline]
    pub fn probe(&self, key: Key) -> Probe {
        let [first, second] = bucket(key, self.mask);
        for slot in [first, second] {
            if let Some([me, opp, data]) = self.read(slot)
                && me == key.me
                && opp == key.opp
                && let Some(entry) = Entry::unpack(data)
            {
                return Probe {
                    slot,
                    generation: self.generation,
                    entry: Some(entry),
                };
            }
        }
        let depth = |i: usize| stored_depth(self.slots[i][3].load(Ordering::Relaxed));
        let slot = if depth(first) <= depth(second) {
            first
        } else {
            second
        };
        Probe {
            slot,
            generation: self.generation,
            entry: None,
        }
    }

    /// Stores `entry` for `key` in the slot `probe` chose (chosen again if the probe was made
    /// in another table), unless another thread is writing that slot at this moment. Returns
    /// whether an empty slot was filled.
    #[inline]
    pub fn store(&self, probe: Probe, key: Key, entry: Entry) -> bool {
        let slot = if probe.generation == self.generation {
            probe.slot
        } else {
            self.probe(key).slot
        };
        let [seq, me, opp, data] = &self.slots[slot];
        let before = seq.load(Ordering::Relaxed);
        if before & 1 == 1
            || seq
                .compare_exchange(before, before + 1, Ordering::Acquire, Ordering::Relaxed)
                .is_err()
        {
            return false;
        }
        me.store(key.me, Ordering::Relaxed);
        opp.store(key.opp, Ordering::Relaxed);
        let was_empty = data.swap(entry.pack(), Ordering::Relaxed) == 0;
        seq.store(before + 2, Ordering::Release);
        was_empty
    }

    /// A table of twice the slots holding every entry of this one that no thread is writing.
    fn doubled(&self) -> SharedTable {
        let bigger = SharedTable::new(2 * self.slots.len(), self.generation + 1);
        let mut filled = 0;
        for slot in 0..self.slots.len() {
            if let Some([me, opp, data]) = self.read(slot)
                && let Some(entry) = Entry::unpack(data)
            {
                let key = Key { me, opp, sym: 0 };
                filled += usize::from(bigger.store(bigger.probe(key), key, entry));
            }
        }
        bigger.filled.store(filled, Ordering::Relaxed);
        bigger
    }
}

/// Nodes with at least this many empty cells say while they are being searched, so that the
/// other threads search something else first (a few per cent of the nodes).
const BUSY_EMPTIES: u32 = 9;

/// Slots for the positions being searched (a hash of each; 0 for none).
const BUSY_SLOTS: usize = 1 << 12;

/// A position's hash for the busy list: never 0.
#[inline]
fn busy_hash(me: u64, opp: u64) -> u64 {
    (me.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ opp.wrapping_mul(0xC2B2_AE3D_27D4_EB4F)) | 1
}

/// Where the threads of one search find the table in use, and which positions they are
/// searching now.
pub(super) struct Hub {
    current: Mutex<Arc<SharedTable>>,
    busy: Vec<AtomicU64>,
    /// The current table's generation, to look at without the lock.
    generation: AtomicU32,
    /// The most slots the table may grow to.
    limit: usize,
}

/// The searcher's table: its own, or one shared with the other threads of its search.
pub(super) enum Store {
    Own(Table),
    Shared {
        hub: Arc<Hub>,
        /// The table this thread uses until it next looks at the hub.
        table: Arc<SharedTable>,
        /// Slots this thread filled since it last added them to the table's count.
        filled: usize,
    },
}

impl Store {
    /// A table to share, growing to `limit` slots (a power of two, at least two).
    pub fn shared(limit: usize) -> Store {
        let table = Arc::new(SharedTable::new(limit.min(FIRST_SLOTS), 0));
        let hub = Hub {
            current: Mutex::new(Arc::clone(&table)),
            busy: std::iter::repeat_with(AtomicU64::default)
                .take(BUSY_SLOTS)
                .collect(),
            generation: AtomicU32::new(0),
            limit,
        };
        Store::Shared {
            hub: Arc::new(hub),
            table,
            filled: 0,
        }
    }

    /// Another thread's way into the same shared table (`None` for a table of one's own).
    pub fn join(&self) -> Option<Store> {
        let Store::Shared { hub, .. } = self else {
            return None;
        };
        let table = Arc::clone(&hub.current.lock().unwrap_or_else(PoisonError::into_inner));
        Some(Store::Shared {
            hub: Arc::clone(hub),
            table,
            filled: 0,
        })
    }

    #[inline]
    pub fn probe(&self, key: Key) -> Probe {
        match self {
            Store::Own(table) => table.probe(key),
            Store::Shared { table, .. } => table.probe(key),
        }
    }

    #[inline]
    pub fn store(&mut self, probe: Probe, key: Key, entry: Entry) {
        match self {
            Store::Own(table) => table.store(probe, key, entry),
            Store::Shared { table, filled, .. } => {
                *filled += usize::from(table.store(probe, key, entry));
            }
        }
    }

    /// Says that this thread is searching the position whose `empty` cells are left, if the
    /// table is shared and the position is large enough to be worth it; returns whether it
    /// said so, to [`Store::leave`] when done.
    #[inline]
    pub fn enter(&self, me: u64, opp: u64, empty: u64) -> bool {
        let Store::Shared { hub, .. } = self else {
            return false;
        };
        if empty.count_ones() < BUSY_EMPTIES {
            return false;
        }
        let hash = busy_hash(me, opp);
        hub.busy[hash as usize % BUSY_SLOTS].store(hash, Ordering::Relaxed);
        true
    }

    /// This thread is done with the position it [entered](Store::enter).
    #[inline]
    pub fn leave(&self, me: u64, opp: u64) {
        if let Store::Shared { hub, .. } = self {
            let hash = busy_hash(me, opp);
            let _ = hub.busy[hash as usize % BUSY_SLOTS].compare_exchange(
                hash,
                0,
                Ordering::Relaxed,
                Ordering::Relaxed,
            );
        }
    }

    /// Whether another thread (or this one) is searching the position now.
    #[inline]
    pub fn busy(&self, me: u64, opp: u64) -> bool {
        let Store::Shared { hub, .. } = self else {
            return false;
        };
        let hash = busy_hash(me, opp);
        hub.busy[hash as usize % BUSY_SLOTS].load(Ordering::Relaxed) == hash
    }

    /// For a shared table, between nodes: counts the slots this thread filled, doubles the
    /// table once a quarter full, and moves to the table in use.
    pub fn refresh(&mut self) {
        let Store::Shared { hub, table, filled } = self else {
            return;
        };
        let count = table.filled.fetch_add(*filled, Ordering::Relaxed) + *filled;
        *filled = 0;
        let full = 4 * count > table.slots.len() && table.slots.len() < hub.limit;
        if !full && hub.generation.load(Ordering::Relaxed) == table.generation {
            return;
        }
        let mut current = hub.current.lock().unwrap_or_else(PoisonError::into_inner);
        if full && Arc::ptr_eq(&current, table) {
            *current = Arc::new(table.doubled());
            hub.generation.store(current.generation, Ordering::Relaxed);
        }
        *table = Arc::clone(&current);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::search::table::Bound;
    use std::sync::Arc;

    /// The entry the tests store for a key: every field follows from the key, so a reader can
    /// tell an entry put together from two writes.
    fn entry_of(key: Key) -> Entry {
        let mix = key.me.wrapping_mul(31) ^ key.opp;
        Entry {
            score: (mix % 2001) as i32 - 1000,
            bound: [Bound::Exact, Bound::Lower, Bound::Upper][(mix % 3) as usize],
            depth: (mix % 200) as u32,
            best: (mix % 49) as usize,
        }
    }

    #[test]
    fn a_stored_key_is_found_and_another_is_not() {
        let t = SharedTable::new(1 << 4, 0);
        let key = Key {
            me: 0b101,
            opp: 0b10,
            sym: 0,
        };
        assert_eq!(t.probe(key).entry, None);
        assert!(
            t.store(t.probe(key), key, entry_of(key)),
            "an empty slot filled"
        );
        assert_eq!(t.probe(key).entry, Some(entry_of(key)));
        assert_eq!(t.probe(Key { opp: 0b1000, ..key }).entry, None);
    }

    #[test]
    fn threads_writing_the_same_slots_never_show_a_reader_half_of_another_entry() {
        // A tiny table, so the four threads write the same slots all the time; each key's
        // entry follows from the key, and the keys share cells, as positions do.
        let table = Arc::new(SharedTable::new(1 << 3, 0));
        let found: u64 = std::thread::scope(|scope| {
            let threads: Vec<_> = (0..4u64)
                .map(|t| {
                    let table = Arc::clone(&table);
                    scope.spawn(move || {
                        let mut rng = fastrand::Rng::with_seed(t);
                        let mut found = 0u64;
                        for _ in 0..200_000 {
                            let key = Key {
                                me: rng.u64(..16),
                                opp: rng.u64(..16) << 4,
                                sym: 0,
                            };
                            let probe = table.probe(key);
                            match probe.entry {
                                Some(e) => {
                                    assert_eq!(e, entry_of(key), "{key:?}");
                                    found += 1;
                                }
                                None => {
                                    table.store(probe, key, entry_of(key));
                                }
                            }
                        }
                        found
                    })
                })
                .collect();
            threads.into_iter().map(|t| t.join().unwrap()).sum()
        });
        assert!(found > 10_000, "the keys were found {found} times");
    }
}
