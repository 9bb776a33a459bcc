//! CodinGame's Ultimate tic-tac-toe referee protocol. Each turn the referee writes the
//! opponent's last move as `row col` (`-1 -1` when we move first), the number of valid
//! actions and the actions, one `row col` a line; the bot answers with its move as `row col`.
//! Rows and columns run 0 to 8 over the whole 9×9 grid, row 0 at the top. The valid actions
//! are checked against our own rules: a referee that disagrees is named, not followed.

use std::collections::BTreeSet;
use std::io::{BufRead, Write};

use super::{EngineError, Options, best_move, brain, next_line, refuse};
use crate::rules::position::{Move, Position, Variant};
use crate::rules::ultimate;

/// The move at `row col` of the protocol's grid.
fn parse_move(line: &str) -> Result<Option<Move>, EngineError> {
    let numbers: Vec<i32> = line
        .split_whitespace()
        .map(str::parse)
        .collect::<Result<_, _>>()
        .map_err(|_| refuse(line, "expected a row and a column"))?;
    match numbers.as_slice() {
        [-1, -1] => Ok(None),
        &[row, col] if (0..9).contains(&row) && (0..9).contains(&col) => {
            let mv = ultimate::Move::at(col as u8, 8 - row as u8).expect("on the grid");
            Ok(Some(Move::Ultimate(mv)))
        }
        [_, _] => Err(refuse(line, "rows and columns run from 0 to 8")),
        _ => Err(refuse(line, "expected a row and a column")),
    }
}

/// `mv` as the protocol writes it: `row col`, row 0 at the top.
fn format_move(mv: Move) -> String {
    let Move::Ultimate(m) = mv else {
        unreachable!("an Ultimate position's moves are Ultimate moves")
    };
    format!("{} {}", 8 - m.row(), m.col())
}

/// Reads the referee's turns from `input` and answers each on `output`, until the input ends.
pub fn run(
    options: &Options,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> Result<(), EngineError> {
    let mut brain = brain(options);
    let mut position = Variant::Ultimate.start();
    let mut first = true;
    while let Some(line) = next_line(input)? {
        if line.trim().is_empty() {
            continue;
        }
        match parse_move(&line)? {
            None if first => {}
            None => return Err(refuse(&line, "only the first turn may have no last move")),
            Some(mv) => position
                .play(mv)
                .map_err(|e| refuse(&line, format!("the opponent's move is not legal: {e}")))?,
        }
        first = false;
        check_actions(&position, input)?;
        let mv = best_move(&mut brain, &position, options.think)
            .ok_or_else(|| refuse(&line, "the game is over: there is no move to make"))?;
        writeln!(output, "{}", format_move(mv))?;
        output.flush()?;
        position.play(mv).expect("the AI plays legal moves");
    }
    Ok(())
}

/// Reads the count of valid actions and the actions, and checks they are the legal moves.
fn check_actions(position: &Position, input: &mut dyn BufRead) -> Result<(), EngineError> {
    let line = next_line(input)?.ok_or_else(|| refuse("", "the input ended before the actions"))?;
    let count: usize = line
        .trim()
        .parse()
        .map_err(|_| refuse(&line, "expected the number of valid actions"))?;
    if count > 81 {
        return Err(refuse(&line, "there are at most 81 actions"));
    }
    let mut given = BTreeSet::new();
    for _ in 0..count {
        let line = next_line(input)?
            .ok_or_else(|| refuse("", "the input ended before the last action"))?;
        let mv = parse_move(&line)?.ok_or_else(|| refuse(&line, "an action is a cell"))?;
        given.insert(format_move(mv));
    }
    let legal: BTreeSet<String> = position
        .legal_moves()
        .into_iter()
        .map(format_move)
        .collect();
    if given != legal {
        let only = |a: &BTreeSet<String>, b: &BTreeSet<String>| {
            a.difference(b).cloned().collect::<Vec<_>>().join(", ")
        };
        return Err(refuse(
            &line,
            format!(
                "the valid actions are not this position's legal moves (given only: [{}]; legal only: [{}])",
                only(&given, &legal),
                only(&legal, &given)
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_and_columns_read_back_as_the_same_move_top_row_first() {
        for mv in Variant::Ultimate.start().legal_moves() {
            assert_eq!(parse_move(&format_move(mv)).unwrap(), Some(mv));
        }
        // Row 0, column 0 is the top left cell of the top left board: board 7, cell 7.
        let top_left = parse_move("0 0").unwrap().unwrap();
        assert_eq!(top_left.to_string(), "77");
        assert_eq!(parse_move("8 8").unwrap().unwrap().to_string(), "33");
        assert_eq!(parse_move("-1 -1").unwrap(), None);
        for bad in ["9 0", "0", "a b", "1 2 3", "-1 0"] {
            assert!(parse_move(bad).is_err(), "{bad}");
        }
    }
}
