//! The alpha-beta search of five in a row: iterative deepening, principal variation search
//! over a transposition table, moves ordered by the table's move, the points' shapes,
//! killers and history; a forced reply (blocking a four) costs no depth; a side facing an
//! open three or worse looks only at the points that break it and at its own fours; victories
//! by fours are looked for at the leaves, where a line found is a proven win.
//!
//! Scores are from the side to move, in the units of [`Field::estimate`]. A win `n` plies
//! from the root scores [`WIN`] − n, a loss −([`WIN`] − n): a quicker win scores higher, a
//! later loss higher, and negation never overflows.

use std::sync::Arc;

use super::field::{Field, worth};
use super::lines::POINTS;
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
/// Fours a leaf's search for a victory tries, and the positions it may look at.
const LEAF_FOURS: u8 = 8;
const LEAF_VCF_NODES: u64 = 60;
/// What each of the other side's threats to win costs the side to move at a leaf.
const THREAT_COST: i32 = 120;
/// Moves looked at in a quiet node, best-ordered first.
const WIDTH: usize = 12;

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

    fn check_stop(&mut self) {
        if self.nodes.is_multiple_of(256) {
            self.stopped = self.stop.reached(self.nodes);
        }
    }

    /// The side to move's victory by fours within `fours` and `nodes` positions.
    pub fn vcf(&mut self, field: &mut Field, fours: u8, nodes: u64) -> Option<Vec<usize>> {
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

    /// Negamax with alpha-beta to `depth` plies (forced replies free) from `ply`.
    pub fn negamax(
        &mut self,
        field: &mut Field,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> i32 {
        self.nodes += 1;
        self.check_stop();
        if self.stopped {
            return 0;
        }
        let (me, them) = (field.to_move(), 1 - field.to_move());
        if !field.fives(me).is_empty() {
            return WIN - ply as i32 - 1;
        }
        let threats = field.fives(them);
        if threats.len() >= 2 {
            return -(WIN - ply as i32 - 2);
        }
        if field.is_full() || ply >= MAX_PLY {
            return 0;
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
        let forced = threats.first();
        if depth <= 0 && forced.is_none() {
            return self.leaf(field, ply);
        }
        let (moves, threatened) = match forced {
            Some(block) => (vec![block], true),
            None => self.moves(field, stored.map(|e| e.best), ply),
        };
        // A forced reply, or a defence against a threat to win, costs no depth while the
        // line is not too long.
        let free = forced.is_some() || threatened && ply < 2 * MAX_PLY / 3;
        let depth = if free { depth } else { depth - 1 };
        self.children(field, &moves, depth, alpha, beta, ply, key)
    }

    /// Searches `moves` in order at `depth` and stores what they show.
    #[allow(clippy::too_many_arguments)]
    fn children(
        &mut self,
        field: &mut Field,
        moves: &[usize],
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        key: u64,
    ) -> i32 {
        let me = field.to_move();
        let original = alpha;
        let mut best = (-INFINITY, moves[0]);
        for (i, &m) in moves.iter().enumerate() {
            field.play(m);
            let score = if i == 0 {
                -self.negamax(field, depth, -beta, -alpha, ply + 1)
            } else {
                // Late quiet moves are searched a ply shallower first.
                let reduce = if depth < 3 {
                    0
                } else {
                    i32::from(i >= 3) + i32::from(i >= 8)
                };
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

    /// A leaf's score: a victory by fours if the side to move has one, else the estimate.
    fn leaf(&mut self, field: &mut Field, ply: usize) -> i32 {
        if !field.fours(field.to_move()).is_empty()
            && let Some(line) = self.vcf(field, LEAF_FOURS, LEAF_VCF_NODES)
        {
            return WIN - (ply + line.len()) as i32;
        }
        // The other side's threats to win (points where it makes an open four, two fours or a
        // four and an open three) must be answered now; each costs the side to move.
        let them = 1 - field.to_move();
        let threats = field
            .fours(them)
            .iter()
            .filter(|&q| field.worth(q, them) >= worth::WINNING / 2)
            .count();
        field.estimate() - THREAT_COST * threats.min(4) as i32
    }

    /// The moves worth a look, best first: where the other side has a five to make, the points
    /// that block it; where it threatens to win (it can make
    /// an open four, two fours or a four and an open three), the points that break its threats
    /// and the side's own fours; else the best-scored points near the stones. And whether the
    /// side is so threatened.
    pub fn moves(&self, field: &Field, stored: Option<u16>, ply: usize) -> (Vec<usize>, bool) {
        let (me, them) = (field.to_move(), 1 - field.to_move());
        // Facing a five, any move but a block loses at once (a five of our own is taken
        // before moves are asked for): the blocks alone, whatever else threatens.
        let blocks = field.fives(them);
        if !blocks.is_empty() {
            return (blocks.iter().collect(), true);
        }
        let mut threatened = super::field::Bits::default();
        for q in field.fours(them).iter() {
            if field.worth(q, them) >= worth::WINNING / 2 {
                threatened.set(q);
                threatened = threatened.or(field.threat_points(q, them));
            }
        }
        let (pool, width) = if threatened.is_empty() {
            (field.candidates(), if ply == 0 { POINTS } else { WIDTH })
        } else {
            (threatened.or(field.fours(me)), POINTS)
        };
        let killers = self.killers[ply.min(MAX_PLY)];
        let mut ranked: Vec<(i64, usize)> = pool
            .iter()
            .map(|p| {
                let mine = i64::from(field.worth(p, me));
                let theirs = i64::from(field.worth(p, them));
                let mut score = (mine + theirs * 3 / 4) * 64;
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
        ranked.truncate(width);
        let moves = ranked.into_iter().map(|(_, p)| p).collect();
        (moves, !threatened.is_empty())
    }
}
