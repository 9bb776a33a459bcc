//! How a search budget given as a duration is spent: by the clock, or by an amount of work
//! that takes about that long on a typical machine. Work gives the same search, and so the
//! same move, on any machine under any load: a seeded game replays exactly.

use std::time::{Duration, Instant};

/// Work per millisecond of budget when budgets are metered by work: five per position the
/// search visits, one per node of a pairing search and eight per pairing search begun, what
/// each costs. Calibrated on the empty 5×5 to 7×7 boards, normal and misère, where a release
/// build does 25,000 to 31,000 a millisecond on one core of a shared 2020s server, idle or
/// beside another job.
pub const WORK_PER_MS: u64 = 28_000;

/// How budgets are spent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Meter {
    /// A budget is wall-clock time: the search stops at its deadline, so how deep it gets
    /// depends on the machine and its load.
    #[default]
    Clock,
    /// A budget is work, [`WORK_PER_MS`] per millisecond: the search's result depends only on
    /// the position and what the searcher did before, never on the clock.
    Work,
}

/// When a search began, in both currencies.
#[derive(Clone, Copy, Debug)]
pub(super) struct Start {
    time: Instant,
    work: u64,
}

impl Start {
    /// Now, with `work` done so far.
    pub fn now(work: u64) -> Start {
        Start {
            time: Instant::now(),
            work,
        }
    }
}

/// When a search must stop (besides a cancel).
#[derive(Clone, Copy, Debug, Default)]
pub(super) enum Stop {
    /// Only a cancel stops it.
    #[default]
    Never,
    /// At this time.
    At(Instant),
    /// Once this much work is done in all.
    After(u64),
}

impl Stop {
    /// Whether the search must stop, with `work` done in all.
    #[inline]
    pub fn reached(self, work: u64) -> bool {
        match self {
            Stop::Never => false,
            Stop::At(deadline) => Instant::now() >= deadline,
            Stop::After(limit) => work >= limit,
        }
    }
}

impl Meter {
    /// The work a budget of `budget` buys.
    pub fn work(budget: Duration) -> u64 {
        u64::try_from(budget.as_micros().saturating_mul(u128::from(WORK_PER_MS)) / 1000)
            .unwrap_or(u64::MAX)
    }

    /// When a search that began at `start` with `budget` stops.
    pub(super) fn stop(self, start: Start, budget: Duration) -> Stop {
        match self {
            Meter::Clock => start.time.checked_add(budget).map_or(Stop::Never, Stop::At),
            Meter::Work => Stop::After(start.work.saturating_add(Meter::work(budget))),
        }
    }

    /// What is left of `budget` for a search that began at `start`, with `work` done in all.
    pub(super) fn left(self, start: Start, work: u64, budget: Duration) -> Duration {
        match self {
            Meter::Clock => budget.saturating_sub(start.time.elapsed()),
            Meter::Work => {
                let spent = work.saturating_sub(start.work);
                let left = Meter::work(budget).saturating_sub(spent);
                Duration::from_micros(left.saturating_mul(1000) / WORK_PER_MS)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn work_budgets_stop_at_the_work_they_buy() {
        let start = Start::now(100);
        let budget = Duration::from_millis(2);
        let stop = Meter::Work.stop(start, budget);
        let limit = 100 + 2 * WORK_PER_MS;
        assert!(!stop.reached(limit - 1) && stop.reached(limit));
        assert_eq!(Meter::Work.left(start, 100, budget), budget);
        assert_eq!(
            Meter::Work.left(start, 100 + WORK_PER_MS, budget),
            budget / 2
        );
        assert_eq!(Meter::Work.left(start, limit + 5, budget), Duration::ZERO);
    }

    #[test]
    fn clock_budgets_stop_at_the_deadline() {
        let start = Start::now(0);
        assert!(Meter::Clock.stop(start, Duration::ZERO).reached(0));
        let long = Meter::Clock.stop(start, Duration::from_hours(1));
        assert!(!long.reached(u64::MAX));
        assert!(!Stop::Never.reached(u64::MAX));
    }
}
