//! The random games of the tree search: from a leaf to the end of the game, on the bitboards,
//! with nothing allocated.
//!
//! Three policies, from the weakest to the strongest:
//! - uniform: every legal move equally likely (textbook UCT's playout, for baselines);
//! - [`Playouts::Greedy`]: a player who can win a small board takes it (the game, if it can);
//!   other moves are uniform;
//! - [`Playouts::Safe`]: greedy, and among the other moves only those that do not hand the
//!   opponent a small board (or the game) at once: a move may not send the opponent to a board
//!   it can win with its next mark, nor to a closed board (a free choice) while it can win a
//!   board anywhere. Only when every move does is any move allowed.
//!
//! Everything is a table lookup on 9-bit masks: the rules' table of the cells completing a line
//! (`threats`, 2^9 entries) tells whether a side can win a board, and each side's boards that
//! it can win at once are kept as one more 9-bit mask, updated for the one board a move changes.

use crate::rules::classic::Mark;
use crate::rules::ultimate::{Outcome, UltimateBoard, count, has_line, nth_bit, threats};

/// A random game's result: the winning side (0 for X, 1 for O) or `DRAW`.
pub(super) const DRAW: u8 = 2;

/// How the search's random games choose their moves (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Playouts {
    /// Wins of small boards and of the game are taken; other moves are uniform.
    Greedy,
    /// Greedy, and no move hands the opponent a small board or the game where another does not.
    Safe,
}

impl Playouts {
    /// Every policy, weakest first.
    pub const ALL: [Playouts; 2] = [Playouts::Greedy, Playouts::Safe];

    /// The policy's name in lower case (`greedy`, `safe`).
    pub fn name(self) -> &'static str {
        match self {
            Playouts::Greedy => "greedy",
            Playouts::Safe => "safe",
        }
    }
}

/// The lowest set bit's index.
#[inline]
fn lowest(mask: u16) -> usize {
    mask.trailing_zeros() as usize
}

/// A random number below `n` (at most 81): the high half of a 32 × 32-bit product, whose bias
/// (under 2^-25) does not matter to random games.
#[inline]
fn below(rng: &mut fastrand::Rng, n: u32) -> u32 {
    ((u64::from(rng.u32(..)) * u64::from(n)) >> 32) as u32
}

/// A uniformly random set bit of the 9-bit `mask`, which has one.
#[inline]
fn any_of(mask: u16, rng: &mut fastrand::Rng) -> usize {
    nth_bit(mask, below(rng, count(mask)))
}

/// Plays a random game to the end from `board` (in progress) with `policy` and returns the
/// winning side or `DRAW`.
#[inline]
pub(super) fn playout_from(
    board: &mut UltimateBoard,
    policy: Playouts,
    rng: &mut fastrand::Rng,
) -> u8 {
    match policy {
        Playouts::Greedy => greedy_from(board, rng),
        Playouts::Safe => safe_from(board, rng),
    }
}

/// The end of a game: `side` made the last move.
#[inline]
pub(super) fn result(board: &UltimateBoard, side: usize) -> u8 {
    if has_line(board.won_by(side)) {
        side as u8
    } else {
        DRAW
    }
}

/// A greedy random game (see [`Playouts::Greedy`]).
#[inline]
fn greedy_from(board: &mut UltimateBoard, rng: &mut fastrand::Rng) -> u8 {
    loop {
        let side = board.side();
        let (b, c) = greedy_move(board, side, rng);
        if board.apply(b, c) {
            return result(board, side);
        }
    }
}

/// The move of a greedy random game for `side`, the side to move: board and cell.
#[inline]
pub(super) fn greedy_move(
    board: &UltimateBoard,
    side: usize,
    rng: &mut fastrand::Rng,
) -> (usize, usize) {
    let forced = board.forced_index();
    if forced < 9 {
        let empty = board.empty(forced);
        let wins = threats(board.cells_of(side, forced)) & empty;
        if wins == 0 {
            (forced, any_of(empty, rng))
        } else {
            (forced, lowest(wins))
        }
    } else {
        greedy_anywhere(board, side, rng)
    }
}

/// A move that wins the game, else one that wins a small board, among the open boards; `None`
/// if `side` can win no board.
#[inline]
fn win_anywhere(board: &UltimateBoard, side: usize, hot: u16) -> Option<(usize, usize)> {
    if hot == 0 {
        return None;
    }
    let finishing = threats(board.won_by(side)) & hot;
    let b = if finishing == 0 {
        lowest(hot)
    } else {
        lowest(finishing)
    };
    Some((b, lowest(threats(board.cells_of(side, b)) & board.empty(b))))
}

/// The open boards where `side` can win at once.
#[inline]
fn hot_boards(board: &UltimateBoard, side: usize) -> u16 {
    let mut hot = 0;
    let mut rest = board.open();
    while rest != 0 {
        let b = lowest(rest);
        rest &= rest - 1;
        if threats(board.cells_of(side, b)) & board.empty(b) != 0 {
            hot |= 1 << b;
        }
    }
    hot
}

/// A greedy random game's move when any open board may be played.
#[inline]
fn greedy_anywhere(board: &UltimateBoard, side: usize, rng: &mut fastrand::Rng) -> (usize, usize) {
    if let Some(win) = win_anywhere(board, side, hot_boards(board, side)) {
        return win;
    }
    let open = board.open();
    let mut total = 0;
    let mut rest = open;
    while rest != 0 {
        total += count(board.empty(lowest(rest)));
        rest &= rest - 1;
    }
    let mut r = below(rng, total);
    let mut rest = open;
    loop {
        let b = lowest(rest);
        rest &= rest - 1;
        let empty = board.empty(b);
        let n = count(empty);
        if r < n {
            return (b, nth_bit(empty, r));
        }
        r -= n;
    }
}

/// The cells of board `b` (with empty cells `empty`, none of which wins it for the mover) that
/// do not hand the opponent a board at once: that send it neither to a board it can win nor,
/// while it can win one anywhere, to a closed board (a free choice). `hot` holds the open
/// boards the opponent can win, as they are before the move; only board `b` changes with it.
#[inline]
fn safe_cells(board: &UltimateBoard, b: usize, empty: u16, hot: u16, opponent: usize) -> u16 {
    let here = 1u16 << b;
    let elsewhere = hot & !here;
    // The opponent's winning cells here: the move takes at most one of them.
    let lines = threats(board.cells_of(opponent, b)) & empty;
    let mut bad = elsewhere;
    if elsewhere != 0 || lines != 0 {
        let mut free = !board.open() & 0x1FF;
        if elsewhere == 0 && lines.is_power_of_two() {
            // Taking its only winning cell leaves it none: a free choice is harmless then.
            free &= !lines;
        }
        bad |= free;
    }
    if empty & here != 0 {
        // Playing cell b sends the opponent back here, into the board after the move (or,
        // when that fills it, anywhere).
        let left = empty & !here;
        let gift = if left == 0 {
            elsewhere != 0
        } else {
            lines & left != 0
        };
        bad = (bad & !here) | (u16::from(gift) << b);
    }
    empty & !bad
}

/// A safe random game (see [`Playouts::Safe`]).
#[inline]
fn safe_from(board: &mut UltimateBoard, rng: &mut fastrand::Rng) -> u8 {
    let mut hot = [hot_boards(board, 0), hot_boards(board, 1)];
    loop {
        let side = board.side();
        let (b, c) = safe_move(board, hot, rng);
        if board.apply(b, c) {
            return result(board, side);
        }
        let here = 1u16 << b;
        let open = board.open() & here != 0;
        let empty = board.empty(b);
        for (s, h) in hot.iter_mut().enumerate() {
            let can = open && threats(board.cells_of(s, b)) & empty != 0;
            *h = (*h & !here) | (u16::from(can) << b);
        }
    }
}

/// A safe random game's move on `board` (in progress), where `hot[side]` holds the open boards
/// `side` can win at once.
#[inline]
fn safe_move(board: &UltimateBoard, hot: [u16; 2], rng: &mut fastrand::Rng) -> (usize, usize) {
    let side = board.side();
    let opponent = side ^ 1;
    let forced = board.forced_index();
    if forced < 9 {
        let empty = board.empty(forced);
        let wins = threats(board.cells_of(side, forced)) & empty;
        if wins != 0 {
            return (forced, lowest(wins));
        }
        let safe = safe_cells(board, forced, empty, hot[opponent], opponent);
        (forced, any_of(if safe == 0 { empty } else { safe }, rng))
    } else if let Some(win) = win_anywhere(board, side, hot[side]) {
        win
    } else {
        safe_anywhere(board, hot[opponent], opponent, rng)
    }
}

/// A safe random game's move when any open board may be played and none can be won: uniform
/// among the safe moves of every open board, or among all moves if none is safe.
#[inline]
fn safe_anywhere(
    board: &UltimateBoard,
    hot: u16,
    opponent: usize,
    rng: &mut fastrand::Rng,
) -> (usize, usize) {
    let mut safe = [0u16; 9];
    let mut total = 0;
    let mut rest = board.open();
    while rest != 0 {
        let b = lowest(rest);
        rest &= rest - 1;
        safe[b] = safe_cells(board, b, board.empty(b), hot, opponent);
        total += count(safe[b]);
    }
    if total == 0 {
        let mut rest = board.open();
        while rest != 0 {
            let b = lowest(rest);
            rest &= rest - 1;
            safe[b] = board.empty(b);
            total += count(safe[b]);
        }
    }
    let mut r = below(rng, total);
    let mut b = 0;
    loop {
        let n = count(safe[b]);
        if r < n {
            return (b, nth_bit(safe[b], r));
        }
        r -= n;
        b += 1;
    }
}

/// Plays one random game from `board` with `policy` (as the search does) and returns the
/// winner, `None` for a draw (and for a game already drawn). For benchmarks and tests.
pub fn playout_with(
    board: &UltimateBoard,
    policy: Playouts,
    rng: &mut fastrand::Rng,
) -> Option<Mark> {
    match board.outcome() {
        Outcome::Won { winner, .. } => return Some(winner),
        Outcome::Draw => return None,
        Outcome::InProgress => {}
    }
    let mut b = *board;
    match playout_from(&mut b, policy, rng) {
        0 => Some(Mark::X),
        1 => Some(Mark::O),
        _ => None,
    }
}

/// Plays one greedy random game from `board` (wins of small boards and of the game are taken,
/// other moves are uniform) and returns the winner, `None` for a draw (and for a game already
/// drawn). For benchmarks and tests.
pub fn playout(board: &UltimateBoard, rng: &mut fastrand::Rng) -> Option<Mark> {
    playout_with(board, Playouts::Greedy, rng)
}

/// Plays one uniformly random game from `board`, every legal move equally likely, and returns
/// the winner, `None` for a draw: the plain playout of textbook UCT, on the same bitboards, for
/// baselines and benchmarks.
pub fn uniform_playout(board: &UltimateBoard, rng: &mut fastrand::Rng) -> Option<Mark> {
    if board.outcome() != Outcome::InProgress {
        return playout(board, rng);
    }
    let mut b = *board;
    loop {
        let side = b.side();
        let forced = b.forced_index();
        let (bi, c) = if forced < 9 {
            (forced, any_of(b.empty(forced), rng))
        } else {
            let open = b.open();
            let mut total = 0;
            let mut rest = open;
            while rest != 0 {
                total += count(b.empty(lowest(rest)));
                rest &= rest - 1;
            }
            let mut r = below(rng, total);
            let mut rest = open;
            loop {
                let i = lowest(rest);
                rest &= rest - 1;
                let n = count(b.empty(i));
                if r < n {
                    break (i, nth_bit(b.empty(i), r));
                }
                r -= n;
            }
        };
        if b.apply(bi, c) {
            return has_line(b.won_by(side)).then_some(if side == 0 { Mark::X } else { Mark::O });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::ultimate::Move;

    /// Positions from uniformly random games, every ply of each.
    fn positions(games: u64) -> Vec<UltimateBoard> {
        let mut rng = fastrand::Rng::with_seed(7);
        let mut all = Vec::new();
        for _ in 0..games {
            let mut board = UltimateBoard::new();
            while board.outcome() == Outcome::InProgress {
                all.push(board);
                let moves = board.legal_moves();
                board
                    .play(moves.nth(rng.usize(..moves.len())).unwrap())
                    .unwrap();
            }
        }
        all
    }

    /// Whether the game on `after` was won by its last move.
    fn won_game(after: &UltimateBoard) -> bool {
        matches!(after.outcome(), Outcome::Won { .. })
    }

    /// Whether `mv` wins a small board for the side to move on `before`.
    fn won_board(before: &UltimateBoard, mv: Move) -> bool {
        let after = before.with_move(mv).unwrap();
        let side = before.side();
        after.won_by(side) != before.won_by(side)
    }

    /// Whether the opponent, to move on `after`, can win a small board at once.
    fn hands_a_board(after: &UltimateBoard) -> bool {
        after.outcome() == Outcome::InProgress
            && after.legal_moves().into_iter().any(|m| won_board(after, m))
    }

    #[test]
    fn safe_playouts_take_every_win_and_hand_over_none_that_can_be_avoided() {
        let mut rng = fastrand::Rng::with_seed(3);
        let (mut wins, mut dodges) = (0, 0);
        for board in positions(300) {
            let hot = [hot_boards(&board, 0), hot_boards(&board, 1)];
            let (b, c) = safe_move(&board, hot, &mut rng);
            let mv = Move::from_index(b * 9 + c).unwrap();
            assert!(board.is_legal(mv), "{board} {mv}");
            let after = board.with_move(mv).unwrap();
            let moves: Vec<Move> = board.legal_moves().into_iter().collect();
            let can = |test: &dyn Fn(Move) -> bool| moves.iter().any(|&m| test(m));
            if can(&|m| won_game(&board.with_move(m).unwrap())) {
                assert!(won_game(&after), "missed the game on {board}: {mv}");
            } else if can(&|m| won_board(&board, m)) {
                assert!(won_board(&board, mv), "missed a board on {board}: {mv}");
                wins += 1;
            } else if hands_a_board(&after) {
                assert!(
                    moves
                        .iter()
                        .all(|&m| hands_a_board(&board.with_move(m).unwrap())),
                    "handed over a board on {board}: {mv}"
                );
            } else if can(&|m| hands_a_board(&board.with_move(m).unwrap())) {
                dodges += 1;
            }
        }
        // The positions tried hold both kinds of choice.
        assert!(wins > 100 && dodges > 100, "{wins} {dodges}");
    }

    #[test]
    fn every_policy_plays_games_to_their_end() {
        let mut rng = fastrand::Rng::with_seed(5);
        for policy in Playouts::ALL {
            for board in positions(3).into_iter().step_by(7) {
                let mut b = board;
                let result = playout_from(&mut b, policy, &mut rng);
                let outcome = b.outcome();
                assert_ne!(outcome, Outcome::InProgress, "{}", policy.name());
                let expected = match outcome {
                    Outcome::Won { winner, .. } => winner as u8,
                    _ => DRAW,
                };
                assert_eq!(result, expected, "{}", policy.name());
            }
        }
    }
}
