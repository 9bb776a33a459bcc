//! The search on several threads (lazy SMP): the searcher runs its search as on one thread,
//! while helpers, one a thread, each search the same position to the end of the game with
//! their own move ordering and the one table they all share. A helper that settles part of
//! the tree leaves its proof in the table, where the others find it instead of searching it
//! again. Nothing else passes between them, and every entry is a bound that its own search
//! proved, so the value the searcher reports is one a single thread would prove; only the
//! time it takes (and, among moves of one value, which one) may change.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::order::MoveOrder;
use super::shared::Store;
use super::table::Table;
use super::{FULL, Searcher, Stop};
use crate::ai::search::Meter;
use crate::rules::classic::Board;

impl Searcher {
    /// Searches on `threads` threads from now on (`0` counts as one). One thread is the
    /// search as it always was, and the only one [`Meter::Work`] replays exactly: several
    /// threads race, so their searches depend on timing.
    pub fn set_threads(&mut self, threads: usize) {
        let threads = threads.max(1);
        if threads != self.threads {
            self.threads = threads;
            // A table of the other kind, at the next search.
            self.geom = None;
        }
    }

    /// How many threads a search runs on.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// A table for this searcher that grows as it fills, to at most `cap` slots and the
    /// searcher's size: its own, or, on several threads, one to share (whose slots are a
    /// third larger).
    pub(super) fn new_table(&self, cap: usize) -> Store {
        let slots = |bytes: usize| cap.min(1 << (self.max_bytes / bytes).max(2).ilog2());
        if self.threads > 1 {
            Store::shared(slots(size_of::<[u64; 4]>()))
        } else {
            Store::Own(Table::new(slots(size_of::<[u64; 3]>())))
        }
    }

    /// Runs `main` on this searcher while the helpers search `board` to the end of the game,
    /// and stops them once it returns.
    pub(super) fn with_helpers<T>(
        &mut self,
        board: &Board,
        main: impl FnOnce(&mut Searcher) -> T,
    ) -> T {
        if self.threads == 1 {
            return main(self);
        }
        let halt = Arc::new(AtomicBool::new(false));
        let mut helpers: Vec<Searcher> = (1..self.threads).map(|i| self.helper(i, &halt)).collect();
        std::thread::scope(|scope| {
            for helper in &mut helpers {
                scope.spawn(|| helper.iteration(board, FULL));
            }
            let found = main(self);
            halt.store(true, Ordering::Relaxed);
            found
        })
    }

    /// The `index`th helper: this searcher's rules and table, an ordering of its own, and no
    /// budget but `halt`.
    fn helper(&self, index: usize, halt: &Arc<AtomicBool>) -> Searcher {
        let geom = self.geom.expect("prepare() runs before the search");
        let mut helper = Searcher::with_table_mb(0);
        helper.table = self
            .table
            .join()
            .expect("a search on several threads shares its table");
        helper.threads = self.threads;
        helper.geom = Some(geom);
        helper.misere = self.misere;
        helper.mirrors.clone_from(&self.mirrors);
        helper.order = MoveOrder::shuffled(usize::from(geom.cells), index as u64);
        helper.meter = Meter::Clock;
        helper.stop = Stop::Never;
        helper.cancel = Some(Arc::clone(halt));
        helper
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::search::Value;
    use crate::rules::classic::{Outcome, Rules};
    use std::time::Duration;

    /// Every board on offer.
    fn every_rules() -> Vec<Rules> {
        let mut all = Vec::new();
        for size in 3..=7 {
            for k in 3..=size {
                for misere in [false, true] {
                    all.push(Rules::new(size, k, misere).unwrap());
                }
            }
        }
        all
    }

    /// A position of a random game on `rules` with at most `empties` empty cells (or the
    /// fewest it reached) and the game still in progress, if the game got there.
    fn random_position(rules: Rules, empties: usize, rng: &mut fastrand::Rng) -> Option<Board> {
        let mut board = Board::new(rules);
        loop {
            let moves = board.legal_moves();
            if moves.len() <= empties {
                return Some(board);
            }
            let next = board.with_move(moves[rng.usize(..moves.len())]).unwrap();
            if next.outcome() != Outcome::InProgress {
                return None;
            }
            board = next;
        }
    }

    fn threaded(threads: usize) -> Searcher {
        let mut searcher = Searcher::with_table_mb(4);
        searcher.set_threads(threads);
        searcher
    }

    #[test]
    fn three_threads_prove_the_values_one_thread_proves_on_every_board() {
        let mut rng = fastrand::Rng::with_seed(34);
        let mut compared = 0;
        for rules in every_rules() {
            let (mut one, mut three) = (threaded(1), threaded(3));
            for _ in 0..6 {
                let empties = rng.usize(8..=16);
                let Some(board) = random_position(rules, empties, &mut rng) else {
                    continue;
                };
                // Every move's value: positions of one or two marks more, and their
                // neighbours in the table.
                let alone = one.analyze(&board);
                let shared = three.analyze(&board);
                assert!(alone.iter().all(|(_, v)| v.is_proven()), "{board}");
                assert_eq!(alone, shared, "{rules} {board}");
                compared += alone.len();
            }
        }
        assert!(compared > 1_000, "{compared} moves compared");
    }

    /// Whether `quick`, proven by a search cut short by its budget, agrees with `exact`, one
    /// thread's proof without a budget: the same result, and a win or a loss no nearer. A
    /// search cut short may prove a result by a forcing line that is not the quickest, on one
    /// thread as on several: 5×5 with four from `...XX/O..../...../....O/.....`, a win in 9,
    /// is a win in 15 within 5 ms of work; misère 5×5 with three from
    /// `O..../O..../.OX../X.XX./....O`, a loss in 11, is a loss in 13 within 20 ms.
    fn agrees(quick: Value, exact: Value) -> bool {
        match (quick, exact) {
            (Value::Win(q), Value::Win(e)) | (Value::Loss(q), Value::Loss(e)) => q >= e,
            (q, e) => q == e,
        }
    }

    #[test]
    fn a_value_proven_on_several_threads_within_a_budget_has_the_result_one_thread_proves() {
        let mut rng = fastrand::Rng::with_seed(7);
        let mut proven = 0;
        for rules in every_rules().into_iter().filter(|r| r.size() >= 5) {
            let mut two = threaded(2);
            for _ in 0..4 {
                let empties = rng.usize(12..=22);
                let Some(board) = random_position(rules, empties, &mut rng) else {
                    continue;
                };
                let quick = two.think(&board, Some(Duration::from_millis(20))).unwrap();
                if quick.value.is_proven() {
                    let alone = threaded(1).think(&board, None).unwrap().value;
                    assert!(
                        agrees(quick.value, alone),
                        "{rules} {board}: {:?} within the budget, {alone:?} without",
                        quick.value
                    );
                    proven += 1;
                }
            }
        }
        assert!(proven > 10, "{proven} values proven in time");
    }

    #[test]
    fn a_search_on_several_threads_stops_at_once_when_cancelled() {
        let mut searcher = threaded(2);
        let flag = Arc::new(AtomicBool::new(true));
        searcher.set_cancel(Some(Arc::clone(&flag)));
        let board = Board::new(Rules::new(7, 4, false).unwrap());
        let started = std::time::Instant::now();
        assert_eq!(searcher.think(&board, None), None);
        assert!(started.elapsed() < Duration::from_secs(5));
        flag.store(false, Ordering::Relaxed);
        let small = Board::new(Rules::new(4, 3, false).unwrap());
        let alone = threaded(1).think(&small, None).map(|t| t.value);
        assert!(alone.is_some_and(Value::is_proven));
        assert_eq!(
            searcher.think(&small, None).map(|t| t.value),
            alone,
            "lowered, it searches"
        );
    }

    #[test]
    fn the_threads_can_change_between_searches_and_the_value_stays() {
        let board = Board::new(Rules::new(5, 4, false).unwrap());
        let mut searcher = Searcher::new();
        assert_eq!(searcher.threads(), 1);
        let before = searcher.think(&board, None).unwrap().value;
        searcher.set_threads(0);
        assert_eq!(searcher.threads(), 1);
        searcher.set_threads(2);
        assert!(
            matches!(searcher.table, Store::Own(_)),
            "changed at the next search"
        );
        assert_eq!(searcher.think(&board, None).unwrap().value, before);
        assert!(matches!(searcher.table, Store::Shared { .. }));
        searcher.set_threads(1);
        assert_eq!(searcher.think(&board, None).unwrap().value, before);
        assert!(matches!(searcher.table, Store::Own(_)));
    }
}
