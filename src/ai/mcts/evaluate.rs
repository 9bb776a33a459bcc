//! How the tree search values what it has not searched: a leaf reached for the first time,
//! and the imaginary games a new node starts with. [`Evaluator`] is the seam: Ultimate's
//! learned network and its greedy random games are one implementation
//! ([`super::UltimateEval`]), [`RandomGames`] (uniformly random games to the end, no prior)
//! serves every rule set.

use super::HALF;
use super::game::{Ended, SearchGame};

/// Values leaves and new nodes for the search, in units of score: `2 * HALF` a win, `HALF`
/// a draw.
pub trait Evaluator<G: SearchGame> {
    /// What one expansion computes once for all of a node's new children.
    type Expansion;

    /// Prepared before the children of `position` are added, with `prior_visits` imaginary
    /// visits to give each.
    fn expansion(&self, position: &G, prior_visits: u32) -> Self::Expansion;

    /// The imaginary visits and units of score, for the player who moved, that the child of
    /// `position` by the move of index `index` starts with; `after` is the position after it,
    /// and `over` whether that move ended the game.
    fn prior(
        &self,
        position: &G,
        after: &G,
        index: u8,
        over: bool,
        prior_visits: u32,
        expansion: &Self::Expansion,
    ) -> (u32, u32);

    /// The units of score X earns from `position`, a leaf of a game in progress reached for
    /// the first time, whose node holds `visits` visits and `score` units (its imaginary
    /// games, for an evaluator that already valued it); `position` may be played on.
    fn leaf(
        &self,
        position: &mut G,
        visits: u32,
        score: u32,
        prior_visits: u32,
        rng: &mut fastrand::Rng,
    ) -> u32;

    /// Writes the share of the search each legal move of `position` is worth before any is
    /// searched (a policy's output, summing to 1) at the move's index into `shares`; `false`,
    /// and nothing written, for an evaluator without a policy.
    fn policy(&self, _position: &G, _shares: &mut [f32; 256]) -> bool {
        false
    }

    /// Whether [`Evaluator::leaf`] plays one random game, which [`Evaluator::traced`] can show.
    fn plays_random_games(&self) -> bool {
        false
    }

    /// The random game [`Evaluator::leaf`] would play from `position` on `rng`, its moves as
    /// indices, playing it on both; `None` for an evaluator that plays none. For a search
    /// watched one iteration at a time.
    fn traced(&self, _position: &mut G, _rng: &mut fastrand::Rng) -> Option<Vec<u8>> {
        None
    }
}

/// Uniformly random games to the end as the value of a leaf, and no prior: the textbook
/// Monte Carlo tree search, for any rule set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RandomGames;

impl<G: SearchGame> Evaluator<G> for RandomGames {
    type Expansion = ();

    fn expansion(&self, _: &G, _: u32) {}

    fn prior(&self, _: &G, _: &G, _: u8, _: bool, _: u32, (): &()) -> (u32, u32) {
        (0, 0)
    }

    fn leaf(&self, position: &mut G, _: u32, _: u32, _: u32, rng: &mut fastrand::Rng) -> u32 {
        random_game(position, rng, &mut None)
    }

    fn plays_random_games(&self) -> bool {
        true
    }

    fn traced(&self, position: &mut G, rng: &mut fastrand::Rng) -> Option<Vec<u8>> {
        let mut moves = Some(Vec::new());
        random_game(position, rng, &mut moves);
        moves
    }
}

/// A uniformly random game from `position` to its end, its moves' indices pushed onto
/// `trace` if there is one: the units of score X earns.
fn random_game<G: SearchGame>(
    position: &mut G,
    rng: &mut fastrand::Rng,
    trace: &mut Option<Vec<u8>>,
) -> u32 {
    let mut legal: Vec<u8> = Vec::new();
    loop {
        let mover = position.side();
        legal.clear();
        legal.extend(position.legal_indices());
        let index = legal[rng.usize(..legal.len())];
        if let Some(moves) = trace {
            moves.push(index);
        }
        let winner = match position.apply_index(index) {
            None => continue,
            Some(Ended::Drawn) => return HALF,
            Some(Ended::Won) => mover,
            Some(Ended::Lost) => mover ^ 1,
        };
        return if winner == 0 { 2 * HALF } else { 0 };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::mcts::Mcts;
    use crate::ai::search::{Searcher, Value};
    use crate::rules::classic::{Board, Rules};
    use crate::rules::{Outcome, RuleSet};

    /// Win, draw or loss, without the plies (the tree's first proven win need not be the
    /// quickest).
    fn result(value: Value) -> i8 {
        match value {
            Value::Win(_) => 1,
            Value::Draw => 0,
            Value::Loss(_) => -1,
            other => panic!("not proven: {other:?}"),
        }
    }

    /// Positions of `rules` reached by random moves, the game still going.
    fn positions(rules: Rules, count: usize, rng: &mut fastrand::Rng) -> Vec<Board> {
        let mut found = vec![Board::new(rules)];
        while found.len() < count {
            let mut board = Board::new(rules);
            for _ in 0..rng.usize(1..usize::from(rules.size()).pow(2)) {
                let moves = RuleSet::legal_moves(&board);
                let next = board.after(moves[rng.usize(..moves.len())]).unwrap();
                if next.is_over() {
                    break;
                }
                board = next;
            }
            found.push(board);
        }
        found
    }

    #[test]
    fn the_generic_search_proves_what_the_proof_search_does_and_keeps_the_result() {
        let mut rng = fastrand::Rng::with_seed(3);
        let mut searcher = Searcher::new();
        let mut decisive = (0, 0);
        for (rules, count) in [
            (Rules::CLASSIC, 200),
            (Rules::new(3, 3, true).unwrap(), 200),
            (Rules::new(4, 3, false).unwrap(), 40),
        ] {
            for board in positions(rules, count, &mut rng) {
                let mut mcts = Mcts::with_evaluator(Some(1), RandomGames);
                let choice = mcts.think_iterations(&board, 20_000).unwrap();
                let proven = result(searcher.value(&board).unwrap());
                if choice.value.is_proven() {
                    assert_eq!(result(choice.value), proven, "{board}");
                }
                if proven != 0 {
                    decisive.0 += 1;
                    decisive.1 += usize::from(choice.value.is_proven());
                }
                let after = board.after(choice.mv).unwrap();
                let kept = match RuleSet::outcome(&after) {
                    Outcome::Won(winner) if winner == board.to_move() => 1,
                    Outcome::Won(_) => -1,
                    Outcome::Draw => 0,
                    Outcome::InProgress => -result(searcher.value(&after).unwrap()),
                };
                // Random games mislead it under misère (at 20,000 iterations it opens 3×3 on
                // an edge, which loses): there only what it proves is checked.
                if !rules.misere() {
                    assert_eq!(kept, proven, "{board}: {} gives the result away", choice.mv);
                }
            }
        }
        assert_eq!(
            decisive.0, decisive.1,
            "every won or lost position is proven"
        );
    }
}
