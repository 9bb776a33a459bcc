//! Victory by continuous fours (VCF) on a [`Board`]: the side to move makes a four with every
//! move, so each reply is forced (the one five point), until it makes five or two five
//! points at once. Where the defender's forced block makes a four of its own, the attacker
//! must block that with a four of its own or the line fails. Every line found is a proof: the
//! defender had no other move that did not lose at once.

use super::board::Board;
use super::stop::Stop;

/// Positions known to have no victory by fours within some number of fours, by hash: a
/// direct-mapped cache the search keeps from move to move.
pub struct Refuted {
    slots: Vec<(u64, u8)>,
}

impl Refuted {
    pub fn new() -> Refuted {
        Refuted {
            slots: vec![(0, 0); 1 << 16],
        }
    }

    fn index(&self, key: u64) -> usize {
        (key >> 20) as usize & (self.slots.len() - 1)
    }

    fn holds(&self, key: u64, fours: u8) -> bool {
        let (k, f) = self.slots[self.index(key)];
        k == key && f >= fours
    }

    fn note(&mut self, key: u64, fours: u8) {
        let i = self.index(key);
        self.slots[i] = (key, fours);
    }
}

impl Default for Refuted {
    fn default() -> Self {
        Refuted::new()
    }
}

/// A search for a victory by fours, within a number of positions.
pub struct Vcf<'a> {
    pub refuted: &'a mut Refuted,
    /// Positions it may still look at.
    pub budget: u64,
    /// Positions looked at.
    pub nodes: u64,
    /// The whole search's stop, and the nodes it had searched before this one: checked every
    /// 256 positions, so a search for a victory stops at a deadline or a cancel too.
    pub stop: Option<(&'a Stop, u64)>,
}

impl Vcf<'_> {
    /// The side to move's victory by at most `fours` fours before the five: its moves and the
    /// forced replies, ending with the five (so its length is the plies to the end).
    pub fn find<B: Board>(&mut self, field: &mut B, fours: u8) -> Option<Vec<usize>> {
        let mut line = Vec::new();
        self.search(field, fours, &mut line).then_some(line)
    }

    fn search<B: Board>(&mut self, field: &mut B, fours: u8, line: &mut Vec<usize>) -> bool {
        let (me, them) = (field.to_move(), 1 - field.to_move());
        if let Some(five) = field.fives(me).first() {
            line.push(five);
            return true;
        }
        if fours == 0 || self.budget == 0 {
            return false;
        }
        let key = field.hash();
        if self.refuted.holds(key, fours) {
            return false;
        }
        self.budget -= 1;
        self.nodes += 1;
        if self.nodes.is_multiple_of(256)
            && let Some((stop, before)) = self.stop
            && stop.reached(before + self.nodes)
        {
            self.budget = 0;
            return false;
        }
        let blocks = field.fives(them);
        let mut moves: Vec<(i32, usize)> = match blocks.len() {
            0 => field.fours(me).iter().map(|p| (0, p)).collect(),
            1 => {
                let block = blocks.first().expect("one block");
                if !field.fours(me).has(block) {
                    return false;
                }
                vec![(0, block)]
            }
            _ => return false,
        };
        // Under renju black's fours on forbidden points are no moves of its.
        if let Some(stones) = field.fouls() {
            moves.retain(|&(_, p)| stones.foul(p).is_none());
        }
        for m in &mut moves {
            m.0 = -field.worth(m.1, me);
        }
        moves.sort_unstable();
        for (_, four) in moves {
            if self.after_four(field, four, fours, line) {
                return true;
            }
            if self.budget == 0 {
                return false;
            }
        }
        self.refuted.note(key, fours);
        false
    }

    /// The search after the four on `four`: won at once with two five points, else the one
    /// five point blocked and the search goes on.
    fn after_four<B: Board>(
        &mut self,
        field: &mut B,
        four: usize,
        fours: u8,
        line: &mut Vec<usize>,
    ) -> bool {
        let me = field.to_move();
        field.play(four);
        let fives = field.fives(me);
        let won = match fives.len() {
            0 => false,
            // Under renju, a four black may only block on a forbidden point wins for white:
            // black's reply is any other point, then the five there (written as the block,
            // for the line's length).
            1 if field.forbidden(fives.first().expect("one five point")) => {
                let block = fives.first().expect("one five point");
                line.extend([four, block, block]);
                true
            }
            1 => {
                let block = fives.first().expect("one five point");
                field.play(block);
                let len = line.len();
                line.extend([four, block]);
                let won = self.search(field, fours - 1, line);
                if !won {
                    line.truncate(len);
                }
                field.undo();
                won
            }
            _ => {
                let five = fives.first().expect("a five point");
                let block = fives.iter().nth(1).expect("another");
                line.extend([four, block, five]);
                true
            }
        };
        field.undo();
        won
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::gomoku::Gomoku;

    /// `board` after `moves`, and the victory by at most `fours` fours the search finds
    /// there for the side to move, if any.
    fn victory(mut board: Gomoku, moves: &[&str], fours: u8) -> (Gomoku, Option<Vec<usize>>) {
        for m in moves {
            board.play(board.parse_cell(m).unwrap()).unwrap();
        }
        let mut field = <crate::ai::five::patterns::Patterns as Board>::of(&board);
        let mut refuted = Refuted::new();
        let mut vcf = Vcf {
            refuted: &mut refuted,
            budget: 10_000,
            nodes: 0,
            stop: None,
        };
        let line = vcf.find(&mut field, fours);
        (board, line)
    }

    #[test]
    fn the_guides_example_is_won_in_five_plies() {
        let moves = [
            "c1", "b1", "d1", "e6", "e3", "f6", "e4", "a15", "e5", "o15", "f3", "o1", "f4", "a10",
            "f5", "o10",
        ];
        let (_, line) = victory(Gomoku::new(), &moves, 10);
        assert_eq!(line.expect("a victory").len(), 5);
        assert!(victory(Gomoku::new(), &moves, 1).1.is_none());
    }

    #[test]
    fn under_renju_a_four_black_may_only_block_on_a_forbidden_point_wins_for_white() {
        // Black f8 g8 and f6 g7: h8 is a double three. White h9 h10 h11 between black's h7
        // and h13: white's h12 makes a four that only h8 blocks.
        let moves = [
            "f8", "h9", "g8", "h10", "f6", "h11", "g7", "a1", "h13", "a2", "h7",
        ];
        let (board, line) = victory(Gomoku::renju(15).unwrap(), &moves, 1);
        let h12 = board.parse_cell("h12").unwrap().index();
        assert_eq!(line.map(|l| (l[0] == h12, l.len())), Some((true, 3)));
        let (_, line) = victory(Gomoku::new(), &moves, 1);
        assert_eq!(line, None, "freestyle: black blocks at h8");
    }
}
