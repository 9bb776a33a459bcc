//! When a search of five in a row must stop: at a time, after a number of nodes, or when a
//! flag is raised; and the soft limit past which no new depth begins.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// When a search must stop.
#[derive(Clone, Debug, Default)]
pub struct Stop {
    /// At this time.
    pub deadline: Option<Instant>,
    /// After this many nodes.
    pub nodes: Option<u64>,
    /// When this flag is raised.
    pub cancel: Option<Arc<AtomicBool>>,
    /// After this time, or this many nodes, no new depth is begun while the best move stays
    /// the same; where it changes, the search goes on to the deadline.
    pub soft_deadline: Option<Instant>,
    pub soft_nodes: Option<u64>,
}

impl Stop {
    /// Whether the search must stop, with `nodes` searched.
    pub fn reached(&self, nodes: u64) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
            || self.nodes.is_some_and(|n| nodes >= n)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Whether the soft limit is past, with `nodes` searched.
    pub fn soft_reached(&self, nodes: u64) -> bool {
        self.soft_nodes.is_some_and(|n| nodes >= n)
            || self.soft_deadline.is_some_and(|d| Instant::now() >= d)
    }
}
