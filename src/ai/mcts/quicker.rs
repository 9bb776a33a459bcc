//! After proving a win, a short look for a quicker one: the first win a search proves need not
//! be the quickest, and a player expects the AI to take the quickest it can prove.

use super::{Mcts, Proof};

/// The fewest iterations a search with [`super::Settings::quicker_win`] spends looking for a
/// quicker win once it has proven one; it spends as many as it had run before if that is more,
/// and never goes past its budget.
pub const QUICKER_WIN_ITERATIONS: u64 = 2_000;

impl<G: super::SearchGame, E: super::Evaluator<G>> Mcts<G, E> {
    /// Whether a search whose root is proven goes on, `done` iterations in: only with
    /// [`super::Settings::quicker_win`], when the side to move is proven to win in more than
    /// three plies (a win in one is known as soon as the root's moves are) and some root move is
    /// unproven, and only until `until`, set when the look starts: as many iterations again as
    /// the search had run, at least [`QUICKER_WIN_ITERATIONS`].
    pub(super) fn looking_for_quicker_win(&self, done: u64, until: &mut Option<u64>) -> bool {
        // The root's proof is its mover's: a loss for it is a win for the side to move.
        if !self.quicker_win || self.nodes[0].proof != Proof::Loss {
            return false;
        }
        let mut quickest = u8::MAX;
        let mut open = false;
        for i in self.children(0) {
            let c = self.nodes[i];
            match c.proof {
                Proof::Win => quickest = quickest.min(c.plies),
                Proof::Unknown => open = true,
                Proof::Loss | Proof::Draw => {}
            }
        }
        if !open || quickest <= 3 {
            return false;
        }
        let end = *until.get_or_insert(done.saturating_add(done.max(QUICKER_WIN_ITERATIONS)));
        done < end
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::mcts::Settings;
    use crate::ai::mcts::step::tests::near_the_end;
    use crate::ai::search::Value;
    use crate::rules::ultimate::UltimateBoard;

    /// `hard`'s choice and iterations on `board`, with or without the look for a quicker win.
    fn search(board: &UltimateBoard, quicker_win: bool, iterations: u64) -> (Value, u64) {
        let settings = Settings {
            quicker_win,
            ..Settings::HARD
        };
        let mut mcts = Mcts::new(Some(7)).with_settings(settings);
        let choice = mcts.think_iterations(board, iterations).unwrap();
        (choice.value, mcts.iterations())
    }

    #[test]
    fn a_proven_win_is_followed_by_a_bounded_look_for_a_quicker_one() {
        let mut quicker = 0;
        for seed in 0..100 {
            let board = near_the_end(seed, 12);
            let (first, proved_after) = search(&board, false, 200_000);
            if !matches!(first, Value::Win(n) if n > 3) {
                continue;
            }
            let (value, iterations) = search(&board, true, 200_000);
            // The same tree up to the first proof, then a look of bounded length.
            assert!(value >= first, "{board}: {value:?} after {first:?}");
            let bound = proved_after + proved_after.max(QUICKER_WIN_ITERATIONS);
            assert!(iterations <= bound, "{board}: {iterations} > {bound}");
            quicker += usize::from(value > first);
            // Never past the budget.
            let (_, short) = search(&board, true, proved_after + 5);
            assert!(short <= proved_after + 5, "{board}: {short} iterations");
        }
        assert!(quicker > 0, "no quicker win found");
    }
}
