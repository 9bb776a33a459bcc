//! Swap openings, as the AI plays them: the opener's stones, chosen to leave a position the
//! other side cannot profit from by choosing, and the choice between playing on and swapping,
//! made by the AI's own evaluation of the position.
//!
//! Under swap2 the opener places three stones (black, white, black); the other side then
//! takes black, takes white and plays, or places two more (white, black) and hands the choice
//! back; the opener then takes white and plays, or takes black. Each choice is the same
//! question: is the side to move (white, after three or five stones) better off? The chooser
//! takes that side and plays its best move where it is worth half the points or more, and
//! swaps (takes the other side, whose opponent moves) where it is worth less. The AI never
//! places two more stones: a position it judges, it chooses on.

use std::time::Duration;

use crate::ai::player::Brain;
use crate::rules::classic::Cell;
use crate::rules::gomoku::Gomoku;
use crate::rules::position::Position;

/// What the side asked to choose does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Takes the side to move and plays this move.
    Play(Cell),
    /// Takes the other side: the opponent moves next.
    Swap,
}

/// The side to move's best move on `board` and the share of the points it promises
/// ([`crate::ai::search::Value::rate`]; Gomoku's engine values by rates, and anything else reads as even),
/// searched within the brain's thinking budget; `None` once the game is over or if the
/// search was called off.
fn judged(brain: &mut Brain, board: &Gomoku) -> Option<(Cell, f32)> {
    let (value, mv) = brain.analyze(&Position::Gomoku(*board), true).head?;
    Some((Cell::try_from(mv).ok()?, value.rate().unwrap_or(0.5)))
}

/// The choice on `board` (three or five stones, white to move): take white and play its best
/// move where it is worth half the points or more, else swap. `None` if the search was called
/// off.
pub fn choose(brain: &mut Brain, board: &Gomoku) -> Option<Choice> {
    let (best, worth) = judged(brain, board)?;
    Some(if worth >= 0.5 {
        Choice::Play(best)
    } else {
        Choice::Swap
    })
}

/// The shapes of three stones tried as openings, as (column, row) steps from the centre:
/// black, white, black. Each keeps its stones within two of one another, as swap2 openings
/// do, and they differ in how close white's stone sits and where black's second lies.
const SHAPES: [[(i8, i8); 3]; 8] = [
    [(0, 0), (1, 0), (-1, 1)],
    [(0, 0), (1, 1), (2, 0)],
    [(0, 0), (1, 0), (0, 2)],
    [(0, 0), (1, 1), (-1, 2)],
    [(0, 0), (0, 1), (2, 2)],
    [(0, 0), (1, 0), (1, -2)],
    [(0, 0), (1, 1), (0, -2)],
    [(0, 0), (-1, 1), (2, 1)],
];

/// The opener's three stones on the empty `start`: of [`SHAPES`], the one whose position the
/// AI judges closest to even for the side to move, each judged within `budget` shared among
/// them. `None` if the search was called off.
pub fn open(brain: &mut Brain, start: &Gomoku, budget: Duration) -> Option<[Cell; 3]> {
    let centre = i16::from(start.size() / 2);
    let at = |(dc, dr): (i8, i8)| {
        let (col, row) = (centre + i16::from(dc), centre + i16::from(dr));
        start.cell_at(u8::try_from(row).ok()?, u8::try_from(col).ok()?)
    };
    let each = budget / SHAPES.len() as u32;
    brain.set_think(each);
    brain.set_think_most(Some(each));
    let mut best: Option<([Cell; 3], f32)> = None;
    for shape in SHAPES {
        let [Some(a), Some(b), Some(c)] = shape.map(at) else {
            continue;
        };
        let mut board = *start;
        if [a, b, c].iter().any(|&cell| board.play(cell).is_err()) {
            continue;
        }
        let (_, worth) = judged(brain, &board)?;
        let off = (worth - 0.5).abs();
        if best.is_none_or(|(_, o)| off < o) {
            best = Some(([a, b, c], off));
        }
    }
    best.map(|(stones, _)| stones)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_opening_is_three_stones_near_the_centre_black_white_black() {
        let mut brain = Brain::new(Some(1));
        for size in [15, 20] {
            let start = Gomoku::with_size(size).unwrap();
            let stones = open(&mut brain, &start, Duration::from_millis(80)).unwrap();
            let centre = size / 2;
            for cell in stones {
                assert!(cell.row().abs_diff(centre) <= 2 && cell.col().abs_diff(centre) <= 2);
            }
            let mut board = start;
            for cell in stones {
                board.play(cell).unwrap();
            }
            assert_eq!(board.stones(), 3);
        }
    }

    #[test]
    fn a_side_that_makes_five_at_once_plays_it_and_a_lost_side_swaps() {
        let mut brain = Brain::new(Some(1)).with_think(Duration::from_millis(50));
        // Black's open four (h8 to k8) against white's scattered stones, white to move: white
        // blocks one end and black wins at the other, so white swaps to black.
        let mut board = Gomoku::new();
        for name in ["h8", "a1", "i8", "a3", "j8", "a5", "k8", "a7", "b2"] {
            board.play(board.parse_cell(name).unwrap()).unwrap();
        }
        assert_eq!(choose(&mut brain, &board), Some(Choice::Swap));
        // White's four (a1 to a4 with a5 open) against black's: white takes it and wins.
        let mut board = Gomoku::new();
        for name in ["h8", "a1", "j10", "a2", "l12", "a3", "c14", "a4", "o15"] {
            board.play(board.parse_cell(name).unwrap()).unwrap();
        }
        let five = board.parse_cell("a5").unwrap();
        assert_eq!(choose(&mut brain, &board), Some(Choice::Play(five)));
    }
}
