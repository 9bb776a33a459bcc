//! The alpha-beta search of five in a row: iterative deepening, principal variation search
//! over a transposition table, moves ordered by the table's move, the points' shapes,
//! killers and history; a forced reply (blocking a four) costs no depth; a side facing an
//! open three or worse looks only at the points that break it and at its own fours; victories
//! by fours are looked for at the leaves, where a line found is a proven win.
//!
//! Scores are from the side to move, in the units of [`Board::estimate`]. A win `n` plies
//! from the root scores [`WIN`] − n, a loss −([`WIN`] − n): a quicker win scores higher, a
//! later loss higher, and negation never overflows.

use std::sync::Arc;

use super::board::Board;
use super::points::{Bits, POINTS};
use super::stop::Stop;
use super::table::{Bound, Entry, Table};
use super::vcf::{Refuted, Vcf};

/// A win at the root's move (a five) scores `WIN - 1`; beyond [`MATE`], scores are wins.
pub const WIN: i32 = 30_000;
/// Scores at least this far from zero are wins or losses.
pub const MATE: i32 = WIN - 1_000;
const INFINITY: i32 = WIN + 1;
/// The deepest the search goes, in plies.
pub const MAX_PLY: usize = 64;
/// Fours the search past the leaves may make in a row, and how many it tries at a node.
const QUIESCE_FOURS: u8 = 8;
const QUIESCE_WIDTH: usize = 6;
/// What each of the other side's threats to win costs the side to move at a leaf, in the
/// estimate's units.
const THREAT_COST: i32 = 240;
/// A move worth less than this, for either side, neither makes nor stops an open three or
/// a four: a quiet move, which may be reduced and pruned.
const QUIET: i32 = 400;
/// A margin a ply of the estimate over beta within which the search goes on.
const FUTILITY: i32 = 300;

/// What a node of the search needs to search its moves.
#[derive(Clone, Copy)]
struct Node {
    depth: i32,
    beta: i32,
    ply: usize,
    key: u64,
    threatened: bool,
}

/// The quiet moves searched at `depth` (remaining after this node's move).
fn late_moves(depth: i32) -> usize {
    let d = depth.max(0) as usize;
    5 + d * d
}

/// How much shallower the `i`-th move (from 0) is searched first at `depth`.
fn reduction(depth: i32, i: usize) -> i32 {
    if depth < 2 || i < 2 {
        return 0;
    }
    let moves = u32::try_from(i).map_or(f64::MAX, f64::from);
    let r = (f64::from(depth).ln() * moves.ln() / 2.0 + 0.3) as i32;
    r.clamp(0, depth - 1)
}

/// What the position decides without a search: the side to move makes five, the other
/// side has two fives to make, the side to move makes an open four (two fives no one block
/// stops) the other cannot answer with a four of its own, or the board is full (or the line
/// too long).
fn decided<B: Board>(field: &B, ply: usize) -> Option<i32> {
    let (me, them) = (field.to_move(), 1 - field.to_move());
    let ply = ply as i32;
    if !field.fives(me).is_empty() {
        return Some(WIN - ply - 1);
    }
    let fives = field.fives(them);
    if fives.len() >= 2 {
        return Some(-(WIN - ply - 2));
    }
    if fives.is_empty() && field.fours(them).is_empty() && field.flex_four(me) {
        return Some(WIN - ply - 3);
    }
    if field.is_full() || ply as usize >= MAX_PLY {
        return Some(0);
    }
    None
}

/// One thread's search: its killers, history and counts; the table may be shared.
pub struct Search {
    pub table: Arc<Table>,
    pub refuted: Refuted,
    history: Box<[[u32; POINTS]; 2]>,
    killers: [[u16; 2]; MAX_PLY + 1],
    pub nodes: u64,
    pub stop: Stop,
    stopped: bool,
}

/// Where a score is a win or a loss: plies to the end from the node it was found at.
fn to_table(score: i32, ply: usize) -> i32 {
    if score >= MATE {
        score + ply as i32
    } else if score <= -MATE {
        score - ply as i32
    } else {
        score
    }
}

fn from_table(score: i32, ply: usize) -> i32 {
    if score >= MATE {
        score - ply as i32
    } else if score <= -MATE {
        score + ply as i32
    } else {
        score
    }
}

impl Search {
    pub fn new(table: Arc<Table>) -> Search {
        Search {
            table,
            refuted: Refuted::new(),
            history: Box::new([[0; POINTS]; 2]),
            killers: [[u16::MAX; 2]; MAX_PLY + 1],
            nodes: 0,
            stop: Stop::default(),
            stopped: false,
        }
    }

    /// Whether the search has been told to stop (or its budget ran out).
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Forgets the last search's killers and scales its history down, before a new one.
    pub fn begin(&mut self) {
        self.stopped = false;
        self.killers = [[u16::MAX; 2]; MAX_PLY + 1];
        for side in self.history.iter_mut() {
            for h in side.iter_mut() {
                *h /= 8;
            }
        }
    }

    /// A node counted: its score where the search stops or the position decides it.
    fn enter<B: Board>(&mut self, field: &B, ply: usize) -> Option<i32> {
        self.nodes += 1;
        self.check_stop();
        if self.stopped {
            return Some(0);
        }
        decided(field, ply)
    }

    fn check_stop(&mut self) {
        if self.nodes.is_multiple_of(256) {
            self.stopped = self.stop.reached(self.nodes);
        }
    }

    /// The side to move's victory by fours within `fours` and `nodes` positions.
    pub fn vcf<B: Board>(&mut self, field: &mut B, fours: u8, nodes: u64) -> Option<Vec<usize>> {
        let mut vcf = Vcf {
            refuted: &mut self.refuted,
            budget: nodes,
            nodes: 0,
            stop: Some((&self.stop, self.nodes)),
        };
        let line = vcf.find(field, fours);
        self.nodes += vcf.nodes;
        line
    }

    /// Negamax with alpha-beta to `depth` plies from `ply` (the answer to a four free).
    pub fn negamax<B: Board>(
        &mut self,
        field: &mut B,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> i32 {
        if let Some(score) = self.enter(field, ply) {
            return score;
        }
        // No win can be quicker than the next move's, no loss later than this.
        alpha = alpha.max(-(WIN - ply as i32 - 2));
        beta = beta.min(WIN - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        let key = field.hash();
        let stored = self.table.get(key);
        if let Some(e) = stored
            && i32::from(e.depth) >= depth
        {
            let score = from_table(e.score, ply);
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if cut {
                return score;
            }
        }
        let them = 1 - field.to_move();
        let forced = field.fives(them).first();
        if depth <= 0 && forced.is_none() {
            return self.quiesce(field, alpha, beta, ply, QUIESCE_FOURS);
        }
        let pv = beta - alpha > 1;
        let quiet = forced.is_none() && field.winning(them).is_empty();
        // Far above beta near the leaves, in a position without threats: the estimate
        // stands (reverse futility).
        if !pv && quiet && depth <= 3 && beta.abs() < MATE {
            let eval = field.estimate();
            if eval - FUTILITY * depth >= beta {
                return eval;
            }
        }
        let (moves, threatened) = match forced {
            Some(block) => (vec![block], true),
            None => self.moves(field, stored.map(|e| e.best), ply),
        };
        // The answer to a four costs no depth while the line is not too long.
        let free = forced.is_some() && ply < 2 * MAX_PLY / 3;
        let depth = if free { depth } else { depth - 1 };
        // Nothing stored to search first: a node too new to search in full.
        let depth = if stored.is_none() && depth >= 4 {
            depth - 1
        } else {
            depth
        };
        let node = Node {
            depth,
            beta,
            ply,
            key,
            threatened,
        };
        self.children(field, &moves, alpha, &node)
    }

    /// Searches `moves` in order at the node's depth and stores what they show: late quiet
    /// moves searched shallower first (by log depth × log move number), and past a count
    /// that grows with depth, not at all.
    fn children<B: Board>(
        &mut self,
        field: &mut B,
        moves: &[usize],
        mut alpha: i32,
        node: &Node,
    ) -> i32 {
        let Node {
            depth,
            beta,
            ply,
            key,
            threatened,
        } = *node;
        let (me, them) = (field.to_move(), 1 - field.to_move());
        let original = alpha;
        let mut best = (-INFINITY, moves[0]);
        for (i, &m) in moves.iter().enumerate() {
            let quiet = !threatened && field.worth(m, me) < QUIET && field.worth(m, them) < QUIET;
            if quiet && i >= late_moves(depth) && best.0 > -MATE {
                continue;
            }
            field.play(m);
            let score = if i == 0 {
                -self.negamax(field, depth, -beta, -alpha, ply + 1)
            } else {
                let reduce = if quiet { reduction(depth, i) } else { 0 };
                let mut s = -self.negamax(field, depth - reduce, -alpha - 1, -alpha, ply + 1);
                if s > alpha && reduce > 0 {
                    s = -self.negamax(field, depth, -alpha - 1, -alpha, ply + 1);
                }
                if s > alpha && s < beta {
                    s = -self.negamax(field, depth, -beta, -alpha, ply + 1);
                }
                s
            };
            field.undo();
            if self.stopped {
                return 0;
            }
            if score > best.0 {
                best = (score, m);
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                self.reward(me, m, depth, ply);
                break;
            }
        }
        let bound = if best.0 >= beta {
            Bound::Lower
        } else if best.0 > original {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.table.put(
            key,
            Entry {
                score: to_table(best.0, ply),
                depth: depth.clamp(0, 127) as i8,
                bound,
                best: best.1 as u16,
            },
        );
        best.0
    }

    /// The search past the leaves: victories by fours. The side to move stands on its
    /// estimate or makes a four; a side facing a five blocks it, at no cost and with no
    /// standing pat.
    fn quiesce<B: Board>(
        &mut self,
        field: &mut B,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        fours: u8,
    ) -> i32 {
        if let Some(score) = self.enter(field, ply) {
            return score;
        }
        let (me, them) = (field.to_move(), 1 - field.to_move());
        if let Some(block) = field.fives(them).first() {
            if field.forbidden(block) {
                return -(WIN - ply as i32 - 2);
            }
            field.play(block);
            let score = -self.quiesce(field, -beta, -alpha, ply + 1, fours);
            field.undo();
            return score;
        }
        // The other side's threats to win must be answered now; each costs the side to move.
        let threats = field.winning(them).len().min(4) as i32;
        let stand = field.estimate() - THREAT_COST * threats;
        if stand >= beta || fours == 0 {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut moves: Vec<(i32, usize)> = field
            .fours(me)
            .iter()
            .map(|p| (-field.worth(p, me), p))
            .collect();
        moves.sort_unstable();
        for &(_, m) in moves.iter().take(QUIESCE_WIDTH) {
            field.play(m);
            let score = -self.quiesce(field, -beta, -alpha, ply + 1, fours - 1);
            field.undo();
            if self.stopped {
                return 0;
            }
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
        alpha
    }

    /// A move that cut off: a killer at its ply, and history.
    fn reward(&mut self, side: usize, m: usize, depth: i32, ply: usize) {
        let killers = &mut self.killers[ply.min(MAX_PLY)];
        if killers[0] != m as u16 {
            killers[1] = killers[0];
            killers[0] = m as u16;
        }
        let bonus = (depth.max(1) * depth.max(1)) as u32;
        self.history[side][m] = self.history[side][m].saturating_add(bonus);
    }

    /// The moves worth a look, best first: where the other side has a five to make, the points
    /// that block it; where it threatens to win (it can make
    /// an open four, two fours or a four and an open three), the points that break its threats
    /// and the side's own fours; else the best-scored points near the stones. And whether the
    /// side is so threatened.
    pub fn moves<B: Board>(
        &self,
        field: &B,
        stored: Option<u16>,
        ply: usize,
    ) -> (Vec<usize>, bool) {
        let (me, them) = (field.to_move(), 1 - field.to_move());
        // Facing a five, any move but a block loses at once (a five of our own is taken
        // before moves are asked for): the blocks alone, whatever else threatens.
        let blocks = field.fives(them);
        if !blocks.is_empty() {
            return (blocks.iter().collect(), true);
        }
        let mut threatened = Bits::default();
        for q in field.winning(them).iter() {
            threatened.set(q);
            threatened = threatened.or(field.threat_points(q, them));
        }
        let pool = if threatened.is_empty() {
            field.candidates()
        } else {
            threatened.or(field.fours(me))
        };
        let killers = self.killers[ply.min(MAX_PLY)];
        let mut ranked: Vec<(i64, usize)> = pool
            .iter()
            .filter(|&p| ply == 0 || !field.looks_forbidden(p))
            .map(|p| {
                let mut score = field.promise(p, me) * 64;
                if Some(p as u16) == stored {
                    score += 1 << 40;
                } else if killers.contains(&(p as u16)) {
                    score += 1 << 14;
                }
                score += i64::from(self.history[me][p].min(1 << 12));
                (-score, p)
            })
            .collect();
        ranked.sort_unstable();
        if ply == 0 {
            // Under renju black never plays a forbidden point (checked at the root only: the
            // check reads the whole board).
            if let Some(stones) = field.fouls() {
                ranked.retain(|&(_, p)| stones.foul(p).is_none());
            }
        }
        if ranked.is_empty() {
            // Nothing near a stone: the empty board, or a lone far point.
            let centre = field.side() / 2 * field.side() + field.side() / 2;
            let points = 0..field.side() * field.side();
            let p = if field.is_empty(centre) {
                centre
            } else {
                points
                    .clone()
                    .find(|&p| field.is_empty(p) && !field.forbidden(p))
                    .or_else(|| points.clone().find(|&p| field.is_empty(p)))
                    .expect("a board not full")
            };
            return (vec![p], false);
        }
        let moves = ranked.into_iter().map(|(_, p)| p).collect();
        (moves, !threatened.is_empty())
    }
}
