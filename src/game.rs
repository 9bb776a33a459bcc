//! A game in progress: the board, the moves so far (for undo), and who controls each side.

use crate::board::{Board, Cell, Mark, MoveError, Outcome, Rules};
use crate::player::Player;

/// One game: a board reached from the empty board by `history`, and the two sides' players.
///
/// Invariant: `board` is the empty board of `rules` with `history` played in order.
#[derive(Clone, Debug)]
pub struct Game {
    rules: Rules,
    board: Board,
    history: Vec<Cell>,
    x: Player,
    o: Player,
}

impl Game {
    pub fn new(rules: Rules, x: Player, o: Player) -> Game {
        Game {
            rules,
            board: Board::new(rules),
            history: Vec::new(),
            x,
            o,
        }
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The moves played so far, first to last.
    pub fn history(&self) -> &[Cell] {
        &self.history
    }

    pub fn last_move(&self) -> Option<Cell> {
        self.history.last().copied()
    }

    pub fn player(&self, mark: Mark) -> Player {
        match mark {
            Mark::X => self.x,
            Mark::O => self.o,
        }
    }

    /// Who is to move, or `None` once the game is over.
    pub fn turn(&self) -> Option<(Mark, Player)> {
        if self.is_over() {
            return None;
        }
        let mark = self.board.to_move();
        Some((mark, self.player(mark)))
    }

    pub fn outcome(&self) -> Outcome {
        self.board.outcome()
    }

    pub fn is_over(&self) -> bool {
        self.outcome() != Outcome::InProgress
    }

    /// Plays `cell` for the side to move; on error nothing changes.
    pub fn play(&mut self, cell: Cell) -> Result<(), MoveError> {
        self.board.play(cell)?;
        self.history.push(cell);
        Ok(())
    }

    /// Takes back moves up to and including the last move a human made, so that it is that
    /// human's turn again (in a game against the AI this also takes back the AI's reply).
    /// Returns how many moves were taken back: 0 when no human has moved yet.
    pub fn undo(&mut self) -> usize {
        let Some(last_human) = (0..self.history.len()).rev().find(|&i| {
            self.player(if i % 2 == 0 { Mark::X } else { Mark::O })
                .is_human()
        }) else {
            return 0;
        };
        let taken = self.history.len() - last_human;
        self.history.truncate(last_human);
        self.board = Board::new(self.rules);
        for &cell in &self.history {
            self.board.play(cell).expect("history replays legally");
        }
        taken
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(x: Player, o: Player, moves: &[u8]) -> Game {
        let mut g = Game::new(Rules::CLASSIC, x, o);
        for &d in moves {
            let cell = g.board().numpad(d).unwrap();
            g.play(cell).unwrap();
        }
        g
    }

    #[test]
    fn undo_against_ai_takes_back_the_reply_too() {
        let mut g = game(Player::Human, Player::Hard, &[5, 1, 3, 7]);
        assert_eq!(g.undo(), 2);
        assert_eq!(g.board().to_string(), ".../.X./O..");
        assert_eq!(g.turn(), Some((Mark::X, Player::Human)));
    }

    #[test]
    fn undo_between_humans_takes_back_one_move() {
        let mut g = game(Player::Human, Player::Human, &[5, 1]);
        assert_eq!(g.undo(), 1);
        assert_eq!(g.board().to_string(), ".../.X./...");
    }

    #[test]
    fn undo_with_no_human_move_does_nothing() {
        let mut g = game(Player::Hard, Player::Human, &[5]);
        assert_eq!(g.undo(), 0);
        assert_eq!(g.history().len(), 1);
        let mut empty = game(Player::Human, Player::Hard, &[]);
        assert_eq!(empty.undo(), 0);
    }

    #[test]
    fn undo_after_the_end_reopens_the_game() {
        let mut g = game(Player::Human, Player::Human, &[7, 1, 8, 2, 9]);
        assert!(g.is_over());
        assert_eq!(g.turn(), None);
        assert_eq!(g.undo(), 1);
        assert!(!g.is_over());
    }

    #[test]
    fn illegal_moves_change_nothing() {
        let mut g = game(Player::Human, Player::Human, &[5]);
        let five = g.board().numpad(5).unwrap();
        assert_eq!(g.play(five), Err(MoveError::Occupied(five)));
        assert_eq!(g.history().len(), 1);
    }
}
