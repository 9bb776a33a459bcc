//! The transposition table: two-entry buckets of three words (the position's two bitboards
//! and a packed entry), keyed by the position's canonical symmetric image. It starts small and
//! doubles as it fills, up to its limit.

use crate::rules::classic::geometry::Geometry;

/// Stored depth of an entry whose score is proven, not estimated.
pub(super) const PROVEN: u32 = 255;

/// What a stored score says about the position's true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Bound {
    /// It is the score.
    Exact,
    /// The score is at least this.
    Lower,
    /// The score is at most this.
    Upper,
}

/// One position's stored result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Entry {
    pub score: i32,
    pub bound: Bound,
    /// Depth searched below the position, or [`PROVEN`] when no heuristic leaf fed the score.
    pub depth: u32,
    /// The best move found, as a cell of the canonical image.
    pub best: usize,
}

impl Entry {
    /// Sixteen bits of score, then the bound (never 0: a zero word is an empty slot), the
    /// depth and the move. Scores lie within ±`INF`, far inside `i16`.
    pub(super) fn pack(self) -> u64 {
        let bound: u64 = match self.bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        u64::from(self.score as i16 as u16)
            | (bound << 16)
            | (u64::from(self.depth.min(PROVEN)) << 24)
            | ((self.best as u64) << 32)
    }

    /// The entry packed in `word`, or `None` for an empty slot.
    pub(super) fn unpack(word: u64) -> Option<Entry> {
        let bound = match (word >> 16) & 3 {
            0 => return None,
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(Entry {
            score: i32::from(word as u16 as i16),
            bound,
            depth: stored_depth(word),
            best: ((word >> 32) & 0xFF) as usize,
        })
    }

    /// Whether the entry comes from a search at least `depth` deep (or to the end).
    #[inline]
    pub fn serves(self, depth: u32) -> bool {
        self.depth >= depth.min(PROVEN)
    }

    /// What the entry settles in the window (`alpha`, `beta`): the score to return when it is
    /// enough, else the window narrowed by the bound. Only for an entry that
    /// [serves](Entry::serves) the search's depth.
    #[inline]
    pub fn cutoff(self, alpha: &mut i32, beta: &mut i32) -> Option<i32> {
        match self.bound {
            Bound::Exact => return Some(self.score),
            Bound::Lower => *alpha = (*alpha).max(self.score),
            Bound::Upper => *beta = (*beta).min(self.score),
        }
        (*alpha >= *beta).then_some(self.score)
    }

    /// Whether the score rests on no heuristic leaf.
    pub fn is_proven(self) -> bool {
        self.depth == PROVEN
    }
}

pub(super) fn stored_depth(word: u64) -> u32 {
    ((word >> 24) & 0xFF) as u32
}

/// A position's key: its canonical image, and which symmetry maps the position onto it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Key {
    pub me: u64,
    pub opp: u64,
    pub sym: usize,
}

impl Key {
    /// The position's canonical image under the board's symmetries. Deep in the tree (`full`
    /// false) the position is its own key: symmetric twins are rare there and not worth the
    /// transforms.
    #[inline]
    pub fn of(geom: &Geometry, me: u64, opp: u64, full: bool) -> Key {
        let mut best = Key { me, opp, sym: 0 };
        if !full {
            return best;
        }
        for (i, s) in geom.symmetries.iter().enumerate().skip(1) {
            // Compare the first key before transforming the second.
            let a = s.apply(me);
            if a > best.me {
                continue;
            }
            let b = s.apply(opp);
            if (a, b) < (best.me, best.opp) {
                best = Key {
                    me: a,
                    opp: b,
                    sym: i,
                };
            }
        }
        best
    }
}

/// The two slots of `key`'s bucket in a table of `mask + 1` slots.
#[inline]
pub(super) fn bucket(key: Key, mask: usize) -> [usize; 2] {
    let h =
        key.me.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ key.opp.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    let first =
        ((h.rotate_left(29).wrapping_mul(0x1656_67B1_9E37_79F9) >> 11) as usize) & mask & !1;
    [first, first | (mask & 1)]
}

/// Where a key lives in the table and what is stored there.
#[derive(Clone, Copy, Debug)]
pub(super) struct Probe {
    /// The slot holding the key, or the one to replace with it.
    pub slot: usize,
    /// How many times the table had grown when the slot was chosen.
    pub generation: u32,
    /// The key's entry, if the table holds one.
    pub entry: Option<Entry>,
}

/// The table starts with this many slots (768 KiB) and doubles once a quarter full, up to
/// its limit: a search that stores few positions touches few pages (the empty 7×7 board's
/// proof stores about 40,000; a full 64 MiB table cost it 16,000 page faults).
pub(super) const FIRST_SLOTS: usize = 1 << 15;

/// A table of two-slot buckets; a fresh one is all zeros.
pub(super) struct Table {
    slots: Vec<[u64; 3]>,
    mask: usize,
    /// The most slots it may grow to.
    limit: usize,
    /// Slots holding an entry.
    filled: usize,
    /// How many times it has grown: a slot chosen before is stale.
    generation: u32,
}

impl Table {
    /// A table with no slots, to be replaced before use (allocates nothing).
    pub fn unallocated() -> Table {
        Table {
            slots: Vec::new(),
            mask: 0,
            limit: 0,
            filled: 0,
            generation: 0,
        }
    }

    /// A table that may grow to `limit` slots, a power of two.
    pub fn new(limit: usize) -> Table {
        debug_assert!(limit.is_power_of_two());
        let entries = limit.min(FIRST_SLOTS);
        Table {
            slots: vec![[0; 3]; entries],
            mask: entries - 1,
            limit,
            filled: 0,
            generation: 0,
        }
    }

    /// Doubles the slots and stores every entry again.
    fn grow(&mut self) {
        let old = std::mem::replace(&mut self.slots, vec![[0; 3]; 2 * (self.mask + 1)]);
        self.mask = 2 * self.mask + 1;
        self.filled = 0;
        self.generation += 1;
        for s in old.into_iter().filter(|s| s[2] != 0) {
            let slot = self.probe(Key {
                me: s[0],
                opp: s[1],
                sym: 0,
            });
            self.put(slot.slot, s);
        }
    }

    /// Writes a slot, counting the slots filled.
    #[inline]
    fn put(&mut self, slot: usize, s: [u64; 3]) {
        self.filled += usize::from(self.slots[slot][2] == 0);
        self.slots[slot] = s;
    }

    /// The key's slot in its two-entry bucket and its entry, or the slot to replace: the one
    /// with the shallower entry.
    #[inline]
    pub fn probe(&self, key: Key) -> Probe {
        let (me, opp) = (key.me, key.opp);
        let [bucket, other] = bucket(key, self.mask);
        for slot in [bucket, other] {
            let s = &self.slots[slot];
            if s[0] == me
                && s[1] == opp
                && let Some(entry) = Entry::unpack(s[2])
            {
                return Probe {
                    slot,
                    generation: self.generation,
                    entry: Some(entry),
                };
            }
        }
        let depth = |i: usize| stored_depth(self.slots[i][2]);
        let slot = if depth(bucket) <= depth(other) {
            bucket
        } else {
            other
        };
        Probe {
            slot,
            generation: self.generation,
            entry: None,
        }
    }

    /// Stores `entry` for `key` in the slot `probe` chose (chosen again if the table grew
    /// since), growing the table once a quarter of it is full.
    #[inline]
    pub fn store(&mut self, probe: Probe, key: Key, entry: Entry) {
        let slot = if probe.generation == self.generation {
            probe.slot
        } else {
            self.probe(key).slot
        };
        self.put(slot, [key.me, key.opp, entry.pack()]);
        if 4 * self.filled > self.mask && self.mask + 1 < self.limit {
            self.grow();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::search::value::INF;

    #[test]
    fn entries_pack_and_unpack_unchanged() {
        for score in [-INF, -937, -1, 0, 1, 499, INF] {
            for bound in [Bound::Exact, Bound::Lower, Bound::Upper] {
                for depth in [0, 1, 37, PROVEN] {
                    for best in [0, 24, 48] {
                        let e = Entry {
                            score,
                            bound,
                            depth,
                            best,
                        };
                        assert_ne!(e.pack(), 0, "a stored entry is never an empty slot");
                        assert_eq!(Entry::unpack(e.pack()), Some(e));
                    }
                }
            }
        }
        assert_eq!(Entry::unpack(0), None);
    }

    #[test]
    fn a_stored_key_is_found_and_others_are_not() {
        let mut t = Table::new(1 << 4);
        let key = Key {
            me: 0b101,
            opp: 0b10,
            sym: 0,
        };
        let e = Entry {
            score: 3,
            bound: Bound::Lower,
            depth: 4,
            best: 7,
        };
        let p = t.probe(key);
        assert_eq!(p.entry, None);
        t.store(p, key, e);
        assert_eq!(t.probe(key).entry, Some(e));
        let other = Key { opp: 0b1000, ..key };
        assert_eq!(t.probe(other).entry, None);
    }

    #[test]
    fn the_table_grows_once_a_quarter_full_and_keeps_its_entries() {
        let mut t = Table::new(1 << 20);
        let key = |i: u64| {
            let mut rng = fastrand::Rng::with_seed(i);
            Key {
                me: rng.u64(..) >> 15,
                opp: rng.u64(..) >> 15,
                sym: 0,
            }
        };
        let e = |i: u64| Entry {
            score: 1,
            bound: Bound::Exact,
            depth: 3,
            best: (i % 49) as usize,
        };
        // A slot chosen before the table grows is chosen again when stored.
        let early = t.probe(key(0));
        for i in 1..100_000 {
            t.store(t.probe(key(i)), key(i), e(i));
        }
        t.store(early, key(0), e(0));
        assert!(t.slots.len() >= 1 << 18, "grew to {} slots", t.slots.len());
        let found = (0..100_000)
            .filter(|&i| t.probe(key(i)).entry == Some(e(i)))
            .count();
        // Two-slot buckets a quarter full lose about 3% to collisions.
        assert!(found >= 95_000, "{found} of 100,000 entries kept");
        assert_eq!(t.probe(key(0)).entry, Some(e(0)));
    }

    #[test]
    fn the_table_never_grows_past_its_limit() {
        let mut t = Table::new(1 << 10);
        for i in 0..10_000u64 {
            let k = Key {
                me: i,
                opp: !i,
                sym: 0,
            };
            t.store(
                t.probe(k),
                k,
                Entry {
                    score: 0,
                    bound: Bound::Lower,
                    depth: 1,
                    best: 0,
                },
            );
        }
        assert_eq!(t.slots.len(), 1 << 10);
    }

    #[test]
    fn an_entry_serves_shallower_searches_and_narrows_the_window() {
        let e = Entry {
            score: 5,
            bound: Bound::Lower,
            depth: 6,
            best: 0,
        };
        assert!(e.serves(6) && e.serves(2) && !e.serves(7));
        let (mut a, mut b) = (0, 4);
        assert_eq!(e.cutoff(&mut a, &mut b), Some(5));
        let (mut a, mut b) = (0, 9);
        assert_eq!(e.cutoff(&mut a, &mut b), None);
        assert_eq!((a, b), (5, 9));
        let proven = Entry { depth: PROVEN, ..e };
        assert!(proven.serves(64) && proven.is_proven() && !e.is_proven());
    }
}
