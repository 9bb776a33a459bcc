//! Swap openings, as the AI plays them: the opener's stones, chosen to leave a position the
//! other side cannot profit from by choosing, and the choice between playing on and swapping,
//! made by the AI's own evaluation of the position.
//!
//! Under swap2 the opener places three stones (black, white, black); the other side then
//! takes black, takes white and plays, or places two more (white, black) and hands the choice
//! back; the opener then takes white and plays, or takes black. Each choice is the same
//! question: is the side to move (white, after three or five stones) better off? The chooser
//! takes that side and plays its best move where it is worth half the points or more, and
//! swaps (takes the other side, whose opponent moves) where it is worth less. By its own
//! reading two more stones never pay (the other side then takes the better colour), so the
//! AI places them only where it cannot tell the position from even ([`EVEN`]): white's best
//! move and the black stone that keeps the position even, and the choice is the other side's.

use std::time::Duration;

use crate::rules::classic::{Cell, Mark};
use crate::rules::gomoku::Gomoku;
use crate::rules::gomoku::opening::{self, Stage};
use crate::rules::position::Move;

/// What the side asked to choose does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Takes the side to move and plays this move.
    Play(Cell),
    /// Takes the other side: the opponent moves next.
    Swap,
    /// Places two more stones, white's then black's, and hands the choice back (swap2, after
    /// three stones).
    Two([Cell; 2]),
}

/// A share of the points within this of a half is even to the AI: its search cannot tell
/// such positions apart, and there it places two more stones where it may.
const EVEN: f32 = 0.05;

/// The black stones tried when placing two more: the empty points next to a stone, nearest
/// the centre first, at most this many.
const TRIED: usize = 6;

/// How the AI reads a position: the side to move's best move on a board and the share of
/// the points it promises (½ where its search gives no rate), searched within the time given;
/// `None` once the game is over or if the search was called off. The opening's choices ask
/// nothing else of the search.
pub trait Judge {
    fn judge(&mut self, board: &Gomoku, within: Duration) -> Option<(Cell, f32)>;
}

impl<F: FnMut(&Gomoku, Duration) -> Option<(Cell, f32)>> Judge for F {
    fn judge(&mut self, board: &Gomoku, within: Duration) -> Option<(Cell, f32)> {
        self(board, within)
    }
}

/// The AI's act on `board` in a swap opening, within `budget`: the next of the opener's three
/// stones ([`open`]), its choice when asked to choose ([`choose`]), and the two more stones
/// it places after choosing so: white's best move, then the black stone that leaves the
/// position nearest even ([`evened`]). `None` if the search was called off.
pub fn act(board: &Gomoku, budget: Duration, judge: &mut impl Judge) -> Option<Move> {
    match board.stage() {
        Stage::Choose(offered) => {
            let may_add = offered.contains(&opening::Choice::Two);
            Some(Move::Choice(match choose(board, budget, judge, may_add)? {
                Choice::Play(_) => opening::Choice::White,
                Choice::Swap => opening::Choice::Black,
                Choice::Two(_) => opening::Choice::Two,
            }))
        }
        // Stones that fit no shape (a game set up so) are played on by the search's move.
        Stage::Place if board.stones() < 3 && !agreeing(board).is_empty() => {
            let placed = usize::from(board.stones());
            let shapes = agreeing(board);
            // Where every shape places the same next stone (the first: the centre), nothing
            // is worth a search yet; the choice waits for the stone where they differ.
            let stones = match &shapes[..] {
                [first, rest @ ..] if rest.iter().all(|s| s[placed] == first[placed]) => *first,
                _ => open(board, budget, judge)?,
            };
            let next = stones.into_iter().find(|&c| board.mark_at(c).is_none())?;
            Some(Move::Cell(next))
        }
        Stage::Place if board.to_move() == Mark::X => {
            evened(board, budget, judge).map(|(c, _)| Move::Cell(c))
        }
        _ => judge
            .judge(&board.opened(), budget)
            .map(|(c, _)| Move::Cell(c)),
    }
}

/// The choice on `board` (three or five stones, white to move): take white and play its best
/// move where it is worth half the points or more, else swap; but where two more may be placed
/// (`may_add`) and the position is even to the AI, place white's best move and the black
/// stone that keeps it even, and leave the choice to the other side. `None` if the search was
/// called off.
pub fn choose(
    board: &Gomoku,
    budget: Duration,
    judge: &mut impl Judge,
    may_add: bool,
) -> Option<Choice> {
    let first = if may_add { budget / 3 } else { budget };
    let (best, worth) = judge.judge(&board.opened(), first)?;
    if may_add && (worth - 0.5).abs() < EVEN {
        let mut after = board.opened();
        after.play(best).ok()?;
        let (black, even) = evened(&after, budget.saturating_sub(first), judge)?;
        if (even - 0.5).abs() < EVEN {
            return Some(Choice::Two([best, black]));
        }
    }
    Some(if worth >= 0.5 {
        Choice::Play(best)
    } else {
        Choice::Swap
    })
}

/// Black's stone on `board` (black to move) that leaves white's share of the points nearest
/// even, of the [`TRIED`] empty points next to a stone nearest the centre, each judged within
/// an equal share of `budget`; with that share. `None` if none is empty or the search was
/// called off.
pub fn evened(board: &Gomoku, budget: Duration, judge: &mut impl Judge) -> Option<(Cell, f32)> {
    let centre = i16::from(board.size() / 2);
    let off_centre =
        |c: Cell| (i16::from(c.row()) - centre).abs() + (i16::from(c.col()) - centre).abs();
    let next_to_a_stone = |c: &Cell| {
        board.mark_at(*c).is_none()
            && board.cells().any(|s| {
                board.mark_at(s).is_some()
                    && s.row().abs_diff(c.row()) <= 1
                    && s.col().abs_diff(c.col()) <= 1
            })
    };
    let mut tried: Vec<Cell> = board.cells().filter(next_to_a_stone).collect();
    tried.sort_by_key(|&c| (off_centre(c), c.index()));
    tried.truncate(TRIED);
    let each = budget / tried.len().max(1) as u32;
    let mut nearest: Option<(Cell, f32)> = None;
    for cell in tried {
        let mut after = board.opened();
        if after.play(cell).is_err() {
            continue;
        }
        let (_, white) = judge.judge(&after, each)?;
        if nearest.is_none_or(|(_, w)| (white - 0.5).abs() < (w - 0.5).abs()) {
            nearest = Some((cell, white));
        }
    }
    nearest
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

/// The opener's three stones on `board` (empty, or holding the first of them): of the
/// [`SHAPES`] that agree with the stones already placed, the one whose position the AI judges
/// closest to even for the side to move, each judged within an equal share of `budget`.
/// `None` if no shape agrees or the search was called off.
pub fn open(board: &Gomoku, budget: Duration, judge: &mut impl Judge) -> Option<[Cell; 3]> {
    let shapes = agreeing(board);
    let placed = usize::from(board.stones());
    let each = budget / shapes.len().max(1) as u32;
    let mut best: Option<([Cell; 3], f32)> = None;
    for stones in shapes {
        let mut after = *board;
        if stones[placed..]
            .iter()
            .any(|&cell| after.play(cell).is_err())
        {
            continue;
        }
        let (_, worth) = judge.judge(&after.opened(), each)?;
        let off = (worth - 0.5).abs();
        if best.is_none_or(|(_, o)| off < o) {
            best = Some((stones, off));
        }
    }
    best.map(|(stones, _)| stones)
}

/// The [`SHAPES`] on `board` that agree with the stones already placed: those stones first,
/// in their colours, and the rest of the shape empty.
fn agreeing(board: &Gomoku) -> Vec<[Cell; 3]> {
    let centre = i16::from(board.size() / 2);
    let at = |(dc, dr): (i8, i8)| {
        let (col, row) = (centre + i16::from(dc), centre + i16::from(dr));
        board.cell_at(u8::try_from(row).ok()?, u8::try_from(col).ok()?)
    };
    let placed = usize::from(board.stones());
    let colour = |i: usize| {
        if i.is_multiple_of(2) {
            Mark::X
        } else {
            Mark::O
        }
    };
    let agrees = |cells: &[Cell; 3]| {
        (0..3).all(|i| match board.mark_at(cells[i]) {
            Some(mark) => i < placed && mark == colour(i),
            None => i >= placed,
        })
    };
    SHAPES
        .iter()
        .filter_map(|shape| {
            let [Some(a), Some(b), Some(c)] = shape.map(at) else {
                return None;
            };
            Some([a, b, c]).filter(agrees)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::player::Brain;
    use crate::rules::gomoku::opening::Opening;

    /// A brain's `hard` reading, as the game's AI judges.
    fn judge(brain: &mut Brain) -> impl FnMut(&Gomoku, Duration) -> Option<(Cell, f32)> + '_ {
        move |board, within| brain.judged(board, within)
    }

    #[test]
    fn the_opening_is_three_stones_near_the_centre_black_white_black() {
        let mut brain = Brain::new(Some(1));
        for size in [15, 20] {
            let start = Gomoku::with_size(size).unwrap();
            let budget = Duration::from_millis(80);
            let stones = open(&start, budget, &mut judge(&mut brain)).unwrap();
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
        let mut brain = Brain::new(Some(1));
        let within = Duration::from_millis(50);
        // Black's open four (h8 to k8) against white's scattered stones, white to move: white
        // blocks one end and black wins at the other, so white swaps to black.
        let mut board = Gomoku::new();
        for name in ["h8", "a1", "i8", "a3", "j8", "a5", "k8", "a7", "b2"] {
            board.play(board.parse_cell(name).unwrap()).unwrap();
        }
        assert_eq!(
            choose(&board, within, &mut judge(&mut brain), false),
            Some(Choice::Swap)
        );
        // White's four (a1 to a4 with a5 open) against black's: white takes it and wins.
        let mut board = Gomoku::new();
        for name in ["h8", "a1", "j10", "a2", "l12", "a3", "c14", "a4", "o15"] {
            board.play(board.parse_cell(name).unwrap()).unwrap();
        }
        let five = board.parse_cell("a5").unwrap();
        assert_eq!(
            choose(&board, within, &mut judge(&mut brain), true),
            Some(Choice::Play(five))
        );
    }

    #[test]
    fn the_ai_places_a_whole_shape_stone_by_stone_then_chooses() {
        let mut brain = Brain::new(Some(1));
        let budget = Duration::from_millis(40);
        let mut board = Gomoku::new().with_opening(Opening::Swap2).unwrap();
        let mut placed = Vec::new();
        while board.stones() < 3 {
            let Some(Move::Cell(cell)) = act(&board, budget, &mut judge(&mut brain)) else {
                panic!("the opener places stones");
            };
            board.play(cell).unwrap();
            placed.push(cell);
        }
        let centre = board.parse_cell("h8").unwrap();
        assert_eq!(placed[0], centre);
        assert!(SHAPES.iter().any(|shape| {
            let at = |(dc, dr): (i8, i8)| {
                let row = u8::try_from(7 + i16::from(dr)).unwrap();
                board.cell_at(row, u8::try_from(7 + i16::from(dc)).unwrap())
            };
            shape.map(at) == placed.iter().map(|&c| Some(c)).collect::<Vec<_>>()[..]
        }));
        // Asked to choose (as the AI would be against a person who opened so), it takes a
        // colour or, the stones being even to it, places two more: white's, then black's.
        let Some(Move::Choice(chosen)) = act(&board, budget, &mut judge(&mut brain)) else {
            panic!("a choice");
        };
        board.choose(chosen).unwrap();
        if chosen == opening::Choice::Two {
            for colour in [Mark::O, Mark::X] {
                let Some(Move::Cell(cell)) = act(&board, budget, &mut judge(&mut brain)) else {
                    panic!("two more stones");
                };
                board.play(cell).unwrap();
                assert_eq!(board.mark_at(cell), Some(colour));
            }
            assert!(matches!(board.stage(), Stage::Choose(&[_, _])));
        }
    }

    /// A judge that finds every position worth `white` to white, and answers `best`.
    fn flat(best: Cell, white: f32) -> impl FnMut(&Gomoku, Duration) -> Option<(Cell, f32)> {
        move |board, _| {
            let share = if board.to_move() == Mark::O {
                white
            } else {
                1.0 - white
            };
            Some((best, share))
        }
    }

    #[test]
    fn two_more_are_placed_only_where_the_position_is_even_and_two_may_be() {
        let mut board = Gomoku::new();
        for name in ["h8", "i9", "j8"] {
            board.play(board.parse_cell(name).unwrap()).unwrap();
        }
        let best = board.parse_cell("i7").unwrap();
        let budget = Duration::from_millis(60);
        let Some(Choice::Two([white, black])) = choose(&board, budget, &mut flat(best, 0.52), true)
        else {
            panic!("an even position under swap2 gets two more");
        };
        assert_eq!(white, best);
        assert!(black != best && board.mark_at(black).is_none());
        assert_eq!(
            choose(&board, budget, &mut flat(best, 0.52), false),
            Some(Choice::Play(best)),
            "not where two may not be placed"
        );
        assert_eq!(
            choose(&board, budget, &mut flat(best, 0.7), true),
            Some(Choice::Play(best))
        );
        assert_eq!(
            choose(&board, budget, &mut flat(best, 0.3), true),
            Some(Choice::Swap)
        );
    }

    #[test]
    fn stones_that_fit_no_shape_are_played_on_by_the_search() {
        let mut board = Gomoku::new().with_opening(Opening::Swap2).unwrap();
        board.play(board.parse_cell("a1").unwrap()).unwrap();
        assert!(agreeing(&board).is_empty());
        let best = board.parse_cell("h8").unwrap();
        let next = act(&board, Duration::from_millis(10), &mut flat(best, 0.5));
        assert_eq!(next, Some(Move::Cell(best)), "not stuck: the search's move");
    }
}
