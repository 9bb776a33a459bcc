//! The search behind Gomoku's `hard`: alpha-beta over line patterns and threats, for every
//! board and line we offer (8×8 to 20×20, k from 3 to the side, freestyle or exactly k).
//!
//! - [`patterns`]: a position kept up to date as stones come and go, as line patterns read
//!   from tables ([`codes`]; point by point for lines too long for a table), each empty
//!   point's threats for each side, and the estimate summed from [`values`];
//! - [`points`]: sets of points, the points near the stones, the positions' keys;
//! - [`vcf`]: victories by continuous fours, proofs;
//! - [`search`]: iterative-deepening principal variation search over a shared
//!   [`table::Table`], with several threads searching at once (lazy SMP) where asked.
//!
//! [`Five::think`] is the whole move: the shortest victory by fours if the side to move has
//! one (a proven win), else the deepest completed search's choice within the budget.

pub mod board;
pub mod codes;
pub mod patterns;
pub mod points;
pub mod search;
pub mod stop;
pub mod table;
pub mod values;
pub mod vcf;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::ai::search::Meter;
use crate::rules::gomoku::Gomoku;
use board::Board;
use patterns::Patterns;
use search::{MATE, MAX_PLY, Search, WIN};
use stop::Stop;
use table::Table;

/// Nodes a millisecond of budget buys when budgets are work (a seeded game): about what one
/// core of a shared server searches in a millisecond on 15×15 middle games.
pub const NODES_PER_MS: u64 = 250;
/// Fours the root's search for a victory tries, and the positions it may look at: half of
/// the budget's nodes, at least [`ROOT_VCF_MIN`] (it stops at the deadline or a cancel too).
const ROOT_FOURS: u8 = 20;
const ROOT_VCF_MIN: u64 = 4_000;

/// The nodes a budget buys at [`NODES_PER_MS`].
fn budget_nodes(budget: Duration) -> u64 {
    u64::try_from(budget.as_millis())
        .unwrap_or(u64::MAX)
        .saturating_mul(NODES_PER_MS)
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thought {
    /// The move, a point index.
    pub best: usize,
    /// Its score for the side to move ([`search::WIN`] − n: a win in n plies).
    pub score: i32,
    /// A victory by fours that starts with `best`, its moves and replies: a proven win.
    pub proof: Option<Vec<usize>>,
    /// The deepest search completed, in plies.
    pub depth: u32,
    pub nodes: u64,
}

impl Thought {
    /// Plies to the end where the score is a win (positive) or a loss (negative).
    pub fn mate(&self) -> Option<i32> {
        match self.score {
            s if s >= MATE => Some(WIN - s),
            s if s <= -MATE => Some(-(WIN + s)),
            _ => None,
        }
    }
}

/// The search, its table kept from move to move, on one or more threads.
pub struct Five {
    table: Arc<Table>,
    main: Search,
    threads: usize,
    meter: Meter,
    cancel: Option<Arc<AtomicBool>>,
}

impl Five {
    /// A search with a table of about `mb` MiB, spending budgets by `meter`.
    pub fn new(mb: usize, meter: Meter) -> Five {
        let table = Arc::new(Table::with_mb(mb));
        Five {
            main: Search::new(Arc::clone(&table)),
            table,
            threads: 1,
            meter,
            cancel: None,
        }
    }

    /// Forgets what earlier searches found (the table, killers, history, positions known to
    /// have no victory by fours), at once: the next search is as a new one's.
    pub fn forget(&mut self) {
        self.table.forget();
        self.main = Search::new(Arc::clone(&self.table));
    }

    /// Searches on `threads` threads sharing the table (1: this thread alone).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    pub fn set_cancel(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.cancel = flag;
    }

    /// Whether the last search was cancelled.
    pub fn cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
    }

    /// The stop of a search of `budget` beginning now, with `nodes` searched so far, that a
    /// move whose best choice keeps changing may take up to `most`.
    fn stop(&self, budget: Duration, most: Duration, nodes: u64) -> Stop {
        let mut stop = Stop {
            cancel: self.cancel.clone(),
            ..Stop::default()
        };
        let most = most.max(budget);
        let now = Instant::now();
        let work = |time: Duration| nodes.saturating_add(budget_nodes(time).max(1));
        match self.meter {
            Meter::Clock => {
                stop.deadline = now.checked_add(most);
                stop.soft_deadline = (most > budget).then(|| now.checked_add(budget)).flatten();
            }
            Meter::Work => {
                stop.nodes = Some(work(most));
                stop.soft_nodes = (most > budget).then(|| work(budget));
            }
        }
        stop
    }

    /// The best move in `board` within `budget`, searched at most `depth` plies deep; `None`
    /// once the game is over or when cancelled before a move was found.
    pub fn think(&mut self, board: &Gomoku, budget: Duration, depth: u32) -> Option<Thought> {
        self.think_within(board, budget, budget, depth)
    }

    /// [`Five::think`] where a move whose best choice is still changing after `budget` may go
    /// on up to `most`: no new depth begins after `budget` once a depth has confirmed the
    /// move before it.
    pub fn think_within(
        &mut self,
        board: &Gomoku,
        budget: Duration,
        most: Duration,
        depth: u32,
    ) -> Option<Thought> {
        if board.is_over() || board.is_full() {
            return None;
        }
        self.think_on(Patterns::of(board), budget, most, depth)
    }

    /// [`Five::think_within`] on the position `field`.
    fn think_on<B: Board>(
        &mut self,
        mut field: B,
        budget: Duration,
        most: Duration,
        depth: u32,
    ) -> Option<Thought> {
        self.main.nodes = 0;
        self.main.stop = self.stop(budget, most, 0);
        self.main.begin();
        let (me, them) = (field.to_move(), 1 - field.to_move());
        if let Some(five) = field.fives(me).first() {
            return Some(proven(vec![five], 0));
        }
        if field.fives(them).is_empty() {
            // The fewest fours first: the victory found is the shortest.
            let nodes = (budget_nodes(budget) / 2).max(ROOT_VCF_MIN);
            let start = self.main.nodes;
            for fours in 1..=ROOT_FOURS {
                let left = nodes.saturating_sub(self.main.nodes - start);
                if left == 0 {
                    break;
                }
                if let Some(line) = self.main.vcf(&mut field, fours, left) {
                    return Some(proven(line, self.main.nodes));
                }
            }
        }
        let found = if self.threads > 1 && self.meter == Meter::Clock {
            self.parallel(&field, depth)
        } else {
            deepen(&mut self.main, &mut field, depth)
        };
        if found.is_none() && self.cancelled() {
            return None;
        }
        found.or_else(|| {
            let (moves, _) = self.main.moves(&field, None, 0);
            Some(Thought {
                best: moves[0],
                score: 0,
                proof: None,
                depth: 0,
                nodes: self.main.nodes,
            })
        })
    }

    /// [`deepen`] on every thread at once over the shared table; the first thread's result.
    fn parallel<B: Board>(&mut self, field: &B, depth: u32) -> Option<Thought> {
        let done = Arc::new(AtomicBool::new(false));
        let helpers: Vec<_> = (1..self.threads)
            .map(|i| {
                let mut search = Search::new(Arc::clone(&self.table));
                search.stop = Stop {
                    cancel: Some(Arc::clone(&done)),
                    ..self.main.stop.clone()
                };
                let mut field = field.clone();
                std::thread::spawn(move || {
                    search.begin();
                    // Helpers start a ply deeper every other thread, to spread the work.
                    deepen_from(&mut search, &mut field, depth, 1 + (i % 2) as u32);
                    search.nodes
                })
            })
            .collect();
        let mut field = field.clone();
        let found = deepen(&mut self.main, &mut field, depth);
        done.store(true, Ordering::Relaxed);
        let helped: u64 = helpers.into_iter().filter_map(|h| h.join().ok()).sum();
        found.map(|t| Thought {
            nodes: t.nodes + helped,
            ..t
        })
    }
}

/// A proven win along `line`.
fn proven(line: Vec<usize>, nodes: u64) -> Thought {
    Thought {
        best: line[0],
        score: WIN - line.len() as i32,
        proof: Some(line),
        depth: 0,
        nodes,
    }
}

/// Iterative deepening from one ply to `depth` while the budget lasts: the last completed
/// depth's move, or a better one the unfinished depth had already found.
fn deepen<B: Board>(search: &mut Search, field: &mut B, depth: u32) -> Option<Thought> {
    deepen_from(search, field, depth, 1)
}

fn deepen_from<B: Board>(
    search: &mut Search,
    field: &mut B,
    depth: u32,
    from: u32,
) -> Option<Thought> {
    let mut moves: Vec<(i32, usize)> = search
        .moves(field, None, 0)
        .0
        .into_iter()
        .map(|p| (0, p))
        .collect();
    let mut best: Option<Thought> = None;
    let mut previous = None;
    for d in from..=depth.min(MAX_PLY as u32) {
        let (score, chosen) = aspire(search, field, d as i32, &mut moves, best.as_ref());
        if let Some(p) = chosen {
            let complete = !search.stopped();
            best = Some(Thought {
                best: p,
                score,
                proof: None,
                depth: if complete { d } else { d - 1 },
                nodes: search.nodes,
            });
        }
        if search.stopped() || moves.len() == 1 || score.abs() >= MATE {
            break;
        }
        // Past the soft limit, a move the last two depths agree on is kept.
        let settled = chosen.is_some() && chosen == previous;
        if settled && search.stop.soft_reached(search.nodes) {
            break;
        }
        previous = chosen;
    }
    best.map(|t| Thought {
        nodes: search.nodes,
        ..t
    })
}

/// How far from the last depth's score the next depth's window first reaches.
const ASPIRATION: i32 = 120;

/// One iteration at the root in a window around the last depth's score, searched again in
/// full where the score falls outside it. A move found by a search stopped before it ended
/// counts only where it was found in the full window or above the window's floor.
fn aspire<B: Board>(
    search: &mut Search,
    field: &mut B,
    depth: i32,
    moves: &mut [(i32, usize)],
    last: Option<&Thought>,
) -> (i32, Option<usize>) {
    let Some(last) = last.filter(|t| depth >= 3 && t.score.abs() < MATE) else {
        return root(search, field, depth, moves, (-WIN, WIN));
    };
    let window = (last.score - ASPIRATION, last.score + ASPIRATION);
    let (score, chosen) = root(search, field, depth, moves, window);
    if search.stopped() {
        return (score, chosen.filter(|_| score > window.0));
    }
    if score <= window.0 || score >= window.1 {
        return root(search, field, depth, moves, (-WIN, WIN));
    }
    (score, chosen)
}

/// One iteration at the root in `window`: each move searched at `depth`, the best first (the
/// moves come back sorted by their scores). The best score and move, where one was searched
/// in full.
fn root<B: Board>(
    search: &mut Search,
    field: &mut B,
    depth: i32,
    moves: &mut [(i32, usize)],
    window: (i32, i32),
) -> (i32, Option<usize>) {
    let (mut alpha, beta) = window;
    let mut best = None;
    for (i, entry) in moves.iter_mut().enumerate() {
        field.play(entry.1);
        let mut score = if i == 0 {
            -search.negamax(field, depth - 1, -beta, -alpha, 1)
        } else {
            -search.negamax(field, depth - 1, -alpha - 1, -alpha, 1)
        };
        if i > 0 && score > alpha && !search.stopped() {
            score = -search.negamax(field, depth - 1, -beta, -alpha, 1);
        }
        field.undo();
        if search.stopped() {
            break;
        }
        entry.0 = if score > alpha || i == 0 { score } else { -WIN };
        if score > alpha || i == 0 {
            alpha = alpha.max(score);
            best = Some(entry.1);
        }
        if alpha >= beta {
            break;
        }
    }
    // The best first for the next depth; stable, so equal moves keep their order.
    moves.sort_by_key(|&(s, _)| std::cmp::Reverse(s));
    (alpha, best)
}
