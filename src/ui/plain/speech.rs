//! The plain front end in words, for players who hear the game through a screen reader
//! (`--screen-reader`): no grids or symbols to spell out, each move said as a sentence (`O
//! plays c3.`), and commands that read the game on request: the board row by row, each
//! side's stones, the last move, the legal moves and the threats against the player to move.
//!
//! Every cell is named by its column letter and row number on the game's grid (`c3`, and
//! in Ultimate `e5` with the board and cell beside it), as both front ends type them.

use std::time::{Duration, Instant};

use crate::game::clock;
use crate::game::{Game, Session};
use crate::rules::classic::Mark;
use crate::rules::position::{Move, Position};

/// The commands of the mode, and what they do, for `help` in a game of `variant` (whose
/// pieces are marks or stones).
pub fn commands(variant: crate::rules::position::Variant) -> String {
    let pieces = variant.pieces();
    format!(
        "board reads the board row by row; stones lists each side's {pieces}; last says the \
         last move; moves lists the legal moves; threats says where the other side wins next \
         unless stopped; clock says the time left; draw offers a draw; resign resigns; undo \
         takes back your move; hint says the best moves; lines says the three best lines \
         (lines 5, the five best), line 2 the second only; save FILE writes the game to a file; \
         quit leaves."
    )
}

/// A grid point's name: its column letter and row number, `c3`.
fn point((col, row): (u8, u8)) -> String {
    format!("{}{}", char::from(b'a' + col), row + 1)
}

/// How `mv` is said in `position`: `c3` on a square board, `board 5 cell 3, e5` in
/// Ultimate, the choice's words in a swap opening.
pub fn said(position: &Position, mv: Move) -> String {
    match mv {
        Move::Choice(choice) => choice.name().to_string(),
        Move::Ultimate(m) => {
            let at = position.grid_point(mv).map(point).unwrap_or_default();
            format!("board {} cell {}, {at}", m.board(), m.cell())
        }
        Move::Cell(_) => position
            .grid_point(mv)
            .map_or_else(|| mv.to_string(), point),
        Move::Column(column) => format!("column {column}"),
    }
}

/// `lines` wrapped for the eye (blank lines between paragraphs), as sentences, one a line,
/// for a reader that pauses at the end of every line.
pub fn sentences(lines: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for paragraph in lines.split(|line| line.trim().is_empty()) {
        let text = paragraph
            .iter()
            .map(|line| line.trim())
            .collect::<Vec<_>>()
            .join(" ");
        let mut rest = text.as_str();
        while let Some(end) = rest.find(". ") {
            out.push(rest[..=end].to_string());
            rest = &rest[end + 2..];
        }
        if !rest.is_empty() {
            out.push(rest.to_string());
        }
    }
    out
}

/// The result of a game over on the board, with the line that decided it: `O wins with a1,
/// b2 and c3.`, under misère `X completed a line, a1, b2 and c3: O wins.`; in Ultimate, the
/// boards.
pub fn result(position: &Position) -> String {
    use crate::report::board::{result_line, result_sentence};
    let Some(line) = position.won_line() else {
        return result_sentence(position);
    };
    let named = match line {
        crate::rules::WonLine::Cells(cells) => {
            // Named as every move is said here (3×3 names its cells by keypad digits).
            let said: Vec<String> = cells
                .iter()
                .map(|cell| match position.parse_move(cell) {
                    Ok(mv) => said(position, mv),
                    Err(_) => cell.clone(),
                })
                .collect();
            listed(&said)
        }
        crate::rules::WonLine::Boards(boards) => {
            let boards: Vec<String> = boards.iter().map(ToString::to_string).collect();
            format!("boards {}", listed(&boards))
        }
    };
    let result = result_line(position.outcome());
    match position.line_completed_by_loser() {
        Some(loser) => format!("{loser} completed a line, {named}: {result}"),
        None => format!("{} with {named}.", result.trim_end_matches('.')),
    }
}

/// The stones (or marks) of `game` with their side, in the order they were placed; a swap
/// opening's choices are no stones.
fn stones(game: &Game) -> Vec<(Mark, Move)> {
    let placed = game
        .history()
        .iter()
        .filter(|mv| !matches!(mv, Move::Choice(_)));
    placed
        .enumerate()
        .map(|(i, &mv)| (if i % 2 == 0 { Mark::X } else { Mark::O }, mv))
        .collect()
}

/// `names` as a list in words: `a1, b2 and c3`, `none`.
fn listed(names: &[String]) -> String {
    match names {
        [] => "none".to_string(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// `board`: each row from the top, its marks by side, `Row 3: X on a3 and c3; O on b3.`; an
/// empty row is `Row 2: empty.`, and a run of them is said once.
pub fn board(game: &Game) -> Vec<String> {
    let position = game.position();
    let (side, rows) = (position.grid_side(), position.grid_rows());
    let mut lines = Vec::new();
    let mut empty_rows: Vec<u8> = Vec::new();
    let flush = |lines: &mut Vec<String>, empty: &mut Vec<u8>| {
        match empty.as_slice() {
            [] => {}
            [one] => lines.push(format!("Row {}: empty.", one + 1)),
            [first, .., last] => lines.push(format!("Rows {} to {}: empty.", first + 1, last + 1)),
        }
        empty.clear();
    };
    for row in (0..rows).rev() {
        let of = |mark: Mark| -> Vec<String> {
            (0..side)
                .filter(|&col| position.point_mark(col, row) == Some(mark))
                .map(|col| point((col, row)))
                .collect()
        };
        let (x, o) = (of(Mark::X), of(Mark::O));
        if x.is_empty() && o.is_empty() {
            empty_rows.push(row);
            continue;
        }
        flush(&mut lines, &mut empty_rows);
        let parts: Vec<String> = [(Mark::X, x), (Mark::O, o)]
            .into_iter()
            .filter(|(_, names)| !names.is_empty())
            .map(|(mark, names)| format!("{mark} on {}", listed(&names)))
            .collect();
        lines.push(format!("Row {}: {}.", row + 1, parts.join("; ")));
    }
    flush(&mut lines, &mut empty_rows);
    lines
}

/// `stones`: each side's stones in the order placed, `X: c3, a1. O: b2.`
pub fn stones_line(game: &Game) -> String {
    let position = game.position();
    let placed = stones(game);
    let of = |mark: Mark| -> Vec<String> {
        let mine = placed.iter().filter(|&&(m, _)| m == mark);
        mine.map(|&(_, mv)| said(position, mv)).collect()
    };
    format!("X: {}. O: {}.", listed(&of(Mark::X)), listed(&of(Mark::O)))
}

/// `last`: the last move, `Last move: O on c3.`, or that there is none.
pub fn last(game: &Game) -> String {
    match stones(game).last() {
        Some(&(mark, mv)) => format!("Last move: {mark} on {}.", said(game.position(), mv)),
        None => "No move yet.".to_string(),
    }
}

/// The most moves `moves` names one by one.
const NAMED_MOVES: usize = 30;

/// `moves`: the legal moves, named where there are few, else counted.
pub fn moves(game: &Game) -> String {
    let position = game.position();
    let legal = position.legal_moves();
    if legal.is_empty() {
        return "No moves: the game is over.".to_string();
    }
    let noun = position.variant().move_noun();
    if legal.len() > NAMED_MOVES {
        let place = position
            .whereabouts()
            .map(|w| format!(", {w}"))
            .unwrap_or_default();
        return format!("{} {noun}s: every empty one{place}.", legal.len());
    }
    let names: Vec<String> = legal.iter().map(|&mv| said(position, mv)).collect();
    format!("{} {noun}s: {}.", legal.len(), listed(&names))
}

/// `threats`: where the other side would win with its next move, unless the player to move
/// stops it: the cells that complete a line for it (two in a row with the third empty, a
/// four in Gomoku), found by playing its moves after each of two moves of the player.
pub fn threats(game: &Game) -> String {
    let position = *game.position();
    let Some(them) = game.turn().map(|(mark, _)| mark.other()) else {
        return "No threats: the game is over.".to_string();
    };
    // On a square board a threat that one move of the player's would block shows after
    // another, so two moves that do not end the game find them all; in Ultimate the move
    // decides where the other side plays, so every move is tried.
    let most = if position.variant().has_boards() {
        position.legal_moves().len()
    } else {
        2
    };
    let mut wins = wins_next(&position, them, most);
    // A side with a win next move keeps it whatever else it plays: its forks mean nothing.
    let forks = if wins.is_empty() {
        forks(&position, them)
    } else {
        Vec::new()
    };
    if wins.is_empty() && forks.is_empty() {
        return format!("No threats: {them} cannot win with its next move.");
    }
    let names = |moves: &[Move]| {
        let names: Vec<String> = moves.iter().map(|&mv| said(&position, mv)).collect();
        listed(&names)
    };
    if wins.is_empty() {
        return format!(
            "{them} makes two winning points at once, which one move cannot stop, by playing {}.",
            names(&forks)
        );
    }
    wins.sort_by_key(|mv| mv.reading_key());
    format!(
        "{them} wins next move on {} unless you stop it.",
        names(&wins)
    )
}

/// Where `them` wins with its next move, after any of the first `most` moves of the player
/// to move that do not end the game.
fn wins_next(position: &Position, them: Mark, most: usize) -> Vec<Move> {
    let mut wins: Vec<Move> = Vec::new();
    let mut tried = 0;
    for mine in position.legal_moves() {
        let mut after = *position;
        if tried == most || after.play(mine).is_err() || after.is_over() {
            continue;
        }
        tried += 1;
        for theirs in after.legal_moves() {
            let mut reply = after;
            let won =
                reply.play(theirs).is_ok() && reply.outcome() == crate::rules::Outcome::Won(them);
            if won && !wins.contains(&theirs) {
                wins.push(theirs);
            }
        }
    }
    wins
}

/// Where `them`, after a move of the player's, would make two winning points at once (an
/// open four in Gomoku, a fork on the small boards). Not in Ultimate, where each move decides
/// where the other side plays.
fn forks(position: &Position, them: Mark) -> Vec<Move> {
    if position.variant().has_boards() {
        return Vec::new();
    }
    let mine = position.legal_moves().into_iter().find(|&mine| {
        let mut after = *position;
        after.play(mine).is_ok() && !after.is_over()
    });
    let Some(mine) = mine else {
        return Vec::new();
    };
    let mut after = *position;
    after.play(mine).expect("just tried");
    let mut forks: Vec<Move> = after
        .legal_moves()
        .into_iter()
        .filter(|&theirs| {
            let mut answered = after;
            answered.play(theirs).is_ok()
                && !answered.is_over()
                && wins_next(&answered, them, 2).len() >= 2
        })
        .collect();
    forks.sort_by_key(|mv| mv.reading_key());
    forks
}

/// The time left of the seat to act, where the game has a clock that runs.
pub(super) fn time_left(session: &Session) -> Option<Duration> {
    let clock = session.clock()?;
    let seat = clock.running()?;
    Some(clock.left(seat, Instant::now()))
}

/// The `clock` reading: each side's time left, whose runs, or that there is no clock.
pub(super) fn clock(session: &Session) -> String {
    let Some(clock) = session.clock() else {
        return "This game has no clock.".to_string();
    };
    let position = session.game().position();
    let now = Instant::now();
    let parts: Vec<String> = [Mark::X, Mark::O]
        .into_iter()
        .map(|mark| {
            let seat = position.seat_of(mark);
            let running = if clock.running() == Some(seat) {
                ", running"
            } else {
                ""
            };
            let name = session.name_of(mark);
            format!(
                "{mark}, {name}: {} left{running}",
                clock::said(clock.left(seat, now))
            )
        })
        .collect();
    format!("Clock: {}. {}.", clock.control().spoken(), parts.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::player::Player;
    use crate::rules::position::Variant;

    fn game(variant: Variant, moves: &[&str]) -> Game {
        let mut game = Game::new(variant, Player::Human, Player::Human);
        for text in moves {
            let mv = game.position().parse_move(text).unwrap();
            game.play(mv).unwrap();
        }
        game
    }

    #[test]
    fn the_board_is_read_row_by_row_in_words() {
        let g = game(Variant::default(), &["5", "7", "9"]);
        assert_eq!(
            board(&g),
            [
                "Row 3: X on c3; O on a3.",
                "Row 2: X on b2.",
                "Row 1: empty."
            ]
        );
        let big = game(Variant::GOMOKU, &["h8", "i9"]);
        assert_eq!(
            board(&big),
            [
                "Rows 15 to 10: empty.",
                "Row 9: O on i9.",
                "Row 8: X on h8.",
                "Rows 7 to 1: empty."
            ]
        );
    }

    #[test]
    fn stones_last_and_moves_name_cells_by_column_and_row() {
        let g = game(Variant::default(), &["5", "7"]);
        assert_eq!(stones_line(&g), "X: b2. O: a3.");
        assert_eq!(last(&g), "Last move: O on a3.");
        assert_eq!(moves(&g), "7 cells: a1, b1, c1, a2, c2, b3 and c3.");
        let u = game(Variant::Ultimate, &["55"]);
        assert_eq!(last(&u), "Last move: X on board 5 cell 5, e5.");
        assert!(
            moves(&u).starts_with("8 moves: board 5 cell 1, d4"),
            "{}",
            moves(&u)
        );
        assert_eq!(
            moves(&game(Variant::GOMOKU, &[])),
            "225 points: every empty one."
        );
    }

    #[test]
    fn a_point_is_said_after_on_never_at_which_a_reader_runs_into_a_as_at_uh() {
        // X a1 and a2, O c3: X wins on a3; every sentence names points on the a file.
        let g = game(Variant::default(), &["1", "9", "4"]);
        let mut said = board(&g);
        said.extend([last(&g), threats(&g), stones_line(&g)]);
        assert!(said.iter().any(|s| s.contains(" on a")), "{said:?}");
        for sentence in &said {
            assert!(!sentence.contains(" at a"), "{sentence}");
        }
    }

    #[test]
    fn threats_are_the_cells_where_the_other_side_wins_next() {
        // X has a1 and b1 with c1 empty: O, to move, is told.
        let g = game(Variant::default(), &["1", "5", "2"]);
        assert_eq!(threats(&g), "X wins next move on c1 unless you stop it.");
        let quiet = game(Variant::default(), &["5"]);
        assert_eq!(
            threats(&quiet),
            "No threats: X cannot win with its next move."
        );
        // A Gomoku four: h8 to k8, with l8 and g8 open.
        let four = game(Variant::GOMOKU, &["h8", "a1", "i8", "a3", "j8", "a5", "k8"]);
        assert_eq!(
            threats(&four),
            "X wins next move on g8 and l8 unless you stop it."
        );
    }

    #[test]
    fn an_open_three_is_named_by_the_points_that_make_it_an_open_four() {
        // X has h8, i8 and j8 with both ends open: g8 or k8 makes two winning points.
        let three = game(Variant::GOMOKU, &["h8", "a1", "i8", "a3", "j8"]);
        assert_eq!(
            threats(&three),
            "X makes two winning points at once, which one move cannot stop, by playing g8 and k8."
        );
        // Blocked at one end, it is no such threat.
        let blocked = game(Variant::GOMOKU, &["h8", "g8", "i8", "a3", "j8"]);
        assert_eq!(
            threats(&blocked),
            "No threats: X cannot win with its next move."
        );
    }
}
