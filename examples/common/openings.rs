//! Openings files for the Gomoku match tools: one opening a line, its stones as `x,y` in the
//! order played (black first), `x` the column and `y` the row from the top, both from 0 (the
//! Gomocup's coordinates). Blank lines are skipped. A tool that measures stops on a file it
//! cannot read whole.

use std::path::Path;

use tictactoe::rules::classic::Cell;
use tictactoe::rules::gomoku::Gomoku;

/// Every opening of the file at `path`, each played on a copy of the empty `board`.
pub fn read(path: &Path, board: &Gomoku) -> Vec<(Gomoku, Vec<Cell>)> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| play(line, *board))
        .collect()
}

/// `board` after the opening `line`, and its stones.
pub fn play(line: &str, mut board: Gomoku) -> (Gomoku, Vec<Cell>) {
    let side = board.size();
    let mut moves = Vec::new();
    for point in line.split_whitespace() {
        let (x, y) = point.split_once(',').expect("x,y");
        let (x, y): (u8, u8) = (x.parse().expect("x"), y.parse().expect("y"));
        let cell = (y < side)
            .then(|| board.cell_at(side - 1 - y, x))
            .flatten()
            .unwrap_or_else(|| panic!("{point} is off the board"));
        board.play(cell).expect("a legal opening");
        moves.push(cell);
    }
    (board, moves)
}
