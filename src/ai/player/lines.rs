//! A position's best lines: its moves by value, best first, each followed by the replies the
//! search expects, as an analysis board shows them.

use std::time::Duration;

use super::{Brain, Work};
use crate::ai::search::Value;
use crate::rules::position::{Move, Position};

/// One line of play from a position: the value of its first move for the side to move, and
/// the moves the search expects, that first move first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub value: Value,
    pub moves: Vec<Move>,
}

/// The most plies a line is followed.
pub const LINE_PLIES: usize = 10;

/// The most lines asked for at once.
pub const MOST_LINES: usize = 5;

impl Brain {
    /// The best `n` lines of `position` (at most [`MOST_LINES`]), best first, each with a
    /// first move of its own: every legal move valued within the thinking budget (as
    /// [`Brain::analyze`] values them; of equal values, the first for people), then each
    /// followed by the best reply of a search of a tenth of the budget, and so on, until the
    /// game ends or [`LINE_PLIES`] are played. A proven win or loss is played out by the
    /// proving search, so its line ends where the value says, where it ends within the plies.
    /// None once the game is over.
    pub fn lines(&mut self, position: &Position, n: usize) -> Vec<Line> {
        let moves = self.analyze(position, false).moves;
        self.lines_of(position, moves, n)
    }

    /// [`Brain::lines`] within `budget` instead of the brain's own, and what the search did:
    /// its nodes in all, and the depth of the first search, the one that valued every move.
    pub fn lines_within(
        &mut self,
        position: &Position,
        n: usize,
        budget: Duration,
    ) -> (Vec<Line>, Work) {
        let think = self.think.replace(budget);
        self.take_work();
        let moves = self.analyze(position, false).moves;
        let root = self.take_work();
        let lines = self.lines_of(position, moves, n);
        self.think = think;
        let followed = self.take_work();
        let work = Work {
            nodes: root.nodes + followed.nodes,
            depth: root.depth,
        };
        (lines, work)
    }

    /// [`Brain::lines`] of `position` whose legal moves were valued already (`moves`, as
    /// [`Brain::analyze`] gives them).
    pub fn lines_of(
        &mut self,
        position: &Position,
        mut moves: Vec<(Move, Value)>,
        n: usize,
    ) -> Vec<Line> {
        moves.sort_by(|a, b| {
            b.1.cmp(&a.1)
                .then(a.0.reading_key().cmp(&b.0.reading_key()))
        });
        moves.truncate(n.min(MOST_LINES));
        let think = self.think;
        self.think = think.map(|budget| (budget / 10).max(Duration::from_millis(1)));
        let lines = moves
            .into_iter()
            .map(|(mv, value)| Line {
                value,
                moves: self.followed(position, mv),
            })
            .collect();
        self.think = think;
        lines
    }

    /// `mv` in `position`, then the best reply and the best reply to it, and so on.
    fn followed(&mut self, position: &Position, mv: Move) -> Vec<Move> {
        let mut now = *position;
        let mut line = Vec::new();
        let mut next = Some(mv);
        while let Some(mv) = next {
            if now.play(mv).is_err() {
                break;
            }
            line.push(mv);
            if now.is_over() || line.len() >= LINE_PLIES {
                break;
            }
            next = self.analyze(&now, true).head.map(|(_, best)| best);
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Outcome;
    use crate::rules::classic::Rules;
    use crate::rules::position::Variant;

    /// A position `plies` random moves into a game of `variant`, or `None` if it ended.
    fn random_position(
        variant: Variant,
        plies: usize,
        rng: &mut fastrand::Rng,
    ) -> Option<Position> {
        let mut position = variant.start();
        for _ in 0..plies {
            let moves = position.legal_moves();
            position.play(moves[rng.usize(..moves.len())]).ok()?;
            if position.is_over() {
                return None;
            }
        }
        Some(position)
    }

    #[test]
    fn lines_are_distinct_sorted_legal_and_led_by_the_positions_value() {
        let mut rng = fastrand::Rng::with_seed(3);
        let mut brain = Brain::new(Some(1));
        for variant in [Variant::default(), Rules::new(4, 3, false).unwrap().into()] {
            for _ in 0..40 {
                let Some(position) = random_position(variant, rng.usize(0..5), &mut rng) else {
                    continue;
                };
                let lines = brain.lines(&position, 3);
                let legal = position.legal_moves().len();
                assert_eq!(lines.len(), legal.min(3), "{position}");
                let head = brain.analyze(&position, false).head.map(|(v, _)| v);
                assert_eq!(lines.first().map(|l| l.value), head, "{position}");
                for pair in lines.windows(2) {
                    assert!(pair[0].value >= pair[1].value, "{position}: {lines:?}");
                    assert_ne!(pair[0].moves[0], pair[1].moves[0]);
                }
                for line in &lines {
                    let mut now = position;
                    for &mv in &line.moves {
                        assert!(now.play(mv).is_ok(), "{position}: {line:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_proven_win_or_loss_is_played_out_to_its_end_in_the_plies_it_names() {
        let mut rng = fastrand::Rng::with_seed(5);
        let mut brain = Brain::new(Some(1));
        let mut ended = 0;
        for _ in 0..200 {
            let Some(position) = random_position(Variant::default(), rng.usize(1..5), &mut rng)
            else {
                continue;
            };
            let mover = position.to_move();
            for line in brain.lines(&position, MOST_LINES) {
                let (winner, plies) = match line.value {
                    Value::Win(n) => (mover, n),
                    Value::Loss(n) => (mover.other(), n),
                    _ => continue,
                };
                let mut now = position;
                for &mv in &line.moves {
                    now.play(mv).unwrap();
                }
                assert_eq!(line.moves.len(), plies as usize, "{position}: {line:?}");
                assert_eq!(now.outcome(), Outcome::Won(winner), "{position}: {line:?}");
                ended += 1;
            }
        }
        assert!(ended > 100, "{ended} lines ended in a win");
    }
}
