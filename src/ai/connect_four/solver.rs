//! The Connect Four solver: negamax with alpha-beta over the bitboards, proving a position's
//! exact value, who wins and how soon, as the published solvers do (John Tromp's, Pascal
//! Pons's tutorial): null windows narrowed by bisection, a transposition table of upper
//! bounds, the columns tried centre first and the moves that make the most threats before
//! the others, moves that hand the opponent a win never tried, and a forced block played at
//! once.
//!
//! A score is from the side to move's view: positive wins, negative loses, zero draws; its
//! size is how early the game ends, one for each of the winner's discs left unplayed when
//! the four is made: `(cells + 1 - moves) / 2` for a win on the next disc. [`plies`] turns it
//! into the plies to the end.

use std::time::{Duration, Instant};

use crate::ai::search::Meter;
use crate::rules::connect_four::ConnectFour;

/// The bitboards a search walks: the side to move's discs and every disc, with the board's
/// shape in masks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bits {
    pub own: u128,
    pub mask: u128,
    pub moves: u32,
    shape: Shape,
}

/// A board's size as bit masks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shape {
    columns: u32,
    /// Bits per column: the rows and one spare.
    h: u32,
    cells: u32,
    bottom: u128,
    board: u128,
}

impl Shape {
    fn of(board: &ConnectFour) -> Shape {
        let (columns, h) = (u32::from(board.columns()), board.height_bits());
        let bottom = (0..columns).fold(0, |b, c| b | 1u128 << (c * h));
        Shape {
            columns,
            h,
            cells: u32::from(board.cells()),
            bottom,
            board: bottom * ((1u128 << (h - 1)) - 1),
        }
    }

    fn column(self, col: u32) -> u128 {
        ((1u128 << (self.h - 1)) - 1) << (col * self.h)
    }
}

impl Bits {
    pub fn of(board: &ConnectFour) -> Bits {
        let (own, mask) = board.bits();
        Bits {
            own,
            mask,
            moves: u32::from(board.moves()),
            shape: Shape::of(board),
        }
    }

    /// The empty cells a disc can drop into now, one a column.
    fn playable(&self) -> u128 {
        (self.mask + self.shape.bottom) & self.shape.board
    }

    /// The empty cells where `own` would make four.
    fn wins_of(&self, own: u128) -> u128 {
        winning_cells(own, self.shape.h) & (self.shape.board ^ self.mask)
    }

    /// The cells where the side to move would make four.
    fn own_wins(&self) -> u128 {
        self.wins_of(self.own)
    }

    fn opponent_wins(&self) -> u128 {
        self.wins_of(self.own ^ self.mask)
    }

    /// Whether the side to move makes four with its next disc.
    pub fn can_win_now(&self) -> bool {
        self.playable() & self.own_wins() != 0
    }

    /// The cells the side to move may play without handing the opponent a win at once:
    /// none where the opponent has two wins to block or one under its own win.
    fn non_losing(&self) -> u128 {
        let mut playable = self.playable();
        let theirs = self.opponent_wins();
        let forced = playable & theirs;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                return 0;
            }
            playable = forced;
        }
        // Never under a cell where the opponent would win.
        playable & !(theirs >> 1)
    }

    /// The position after a disc on `cell` (one bit of [`Bits::playable`]).
    fn after(&self, cell: u128) -> Bits {
        Bits {
            own: self.own ^ self.mask,
            mask: self.mask | cell,
            moves: self.moves + 1,
            shape: self.shape,
        }
    }

    /// A key unique to the position: the side to move's discs plus every disc and the
    /// bottom row (each column's discs and the cell above them).
    fn key(&self) -> u128 {
        self.own + self.mask + self.shape.bottom
    }

    /// How many cells the side to move would win on after a disc on `cell`.
    fn threats_after(&self, cell: u128) -> u32 {
        let own = self.own | cell;
        self.wins_of_with(own, self.mask | cell).count_ones()
    }

    fn wins_of_with(&self, own: u128, mask: u128) -> u128 {
        winning_cells(own, self.shape.h) & (self.shape.board ^ mask)
    }
}

impl Bits {
    /// The side to move's score by alpha-beta `depth` plies deep: a win on its next disc is
    /// `win` plus the cells left, a position with no disc that saves it `-win` less them; at
    /// the horizon `threat` for each empty cell where it would make four, less the same for
    /// the opponent, and a point a disc for each column nearer the centre. The game must not
    /// be over.
    pub fn search(&self, depth: u32, mut alpha: i32, beta: i32, threat: i32, win: i32) -> i32 {
        let left = (self.shape.cells - self.moves) as i32;
        if self.can_win_now() {
            return win + left;
        }
        let next = self.non_losing();
        if next == 0 {
            return -win - left + 1;
        }
        if self.moves + 1 >= self.shape.cells {
            return 0;
        }
        if depth == 0 {
            return self.estimate(threat);
        }
        let mut best = -2 * win;
        for col in centre_first(self.shape.columns) {
            let cell = next & self.shape.column(col);
            if cell == 0 {
                continue;
            }
            let score = -self
                .after(cell)
                .search(depth - 1, -beta, -alpha, threat, win);
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// [`Bits::search`]'s score at its horizon.
    fn estimate(&self, threat: i32) -> i32 {
        let theirs = self.own ^ self.mask;
        let threats =
            self.own_wins().count_ones() as i32 - self.opponent_wins().count_ones() as i32;
        let mid = self.shape.columns / 2;
        let centre: i32 = (0..self.shape.columns)
            .map(|col| {
                let near = 3 - col.abs_diff(mid).min(3) as i32;
                let cells = self.shape.column(col);
                near * ((self.own & cells).count_ones() as i32
                    - (theirs & cells).count_ones() as i32)
            })
            .sum();
        threat * threats + centre
    }
}

/// Every cell where `own` would complete four, whether empty or not.
fn winning_cells(own: u128, h: u32) -> u128 {
    // Vertical: three above one another, the cell on top.
    let mut r = (own << 1) & (own << 2) & (own << 3);
    for shift in [h, h + 1, h - 1] {
        let pairs = (own << shift) & (own << (2 * shift));
        r |= pairs & (own << (3 * shift));
        r |= pairs & (own >> shift);
        let pairs = (own >> shift) & (own >> (2 * shift));
        r |= pairs & (own << shift);
        r |= pairs & (own >> (3 * shift));
    }
    r
}

/// The plies from a position with `moves` discs to the end a score promises, on a board of
/// `cells`: the winner's last disc, counted from now.
pub fn plies(score: i32, moves: u32, cells: u32) -> u32 {
    let (s, mover_moves) = if score > 0 {
        (score, moves)
    } else {
        (-score, moves + 1)
    };
    // The winning disc is dropped onto a board of `at` discs, of the winner's parity, with
    // (cells + 1 - at) / 2 == s.
    let s = s.unsigned_abs();
    let at = [cells + 1 - 2 * s, cells - 2 * s]
        .into_iter()
        .find(|at| at % 2 == mover_moves % 2)
        .expect("one of two neighbours has the parity");
    at + 1 - moves
}

/// A table of upper bounds on scores, by position, made at its first use (a brain that
/// never plays Connect Four never fills one).
struct Table {
    entries: usize,
    keys: Vec<u128>,
    values: Vec<i8>,
}

impl Table {
    fn new(entries: usize) -> Table {
        Table {
            entries: entries.max(1024),
            keys: Vec::new(),
            values: Vec::new(),
        }
    }

    fn slot(&self, key: u128) -> usize {
        (key % self.keys.len() as u128) as usize
    }

    fn get(&self, key: u128) -> Option<i32> {
        if self.keys.is_empty() {
            return None;
        }
        let i = self.slot(key);
        (self.keys[i] == key).then(|| i32::from(self.values[i]))
    }

    fn put(&mut self, key: u128, upper: i32) {
        if self.keys.is_empty() {
            self.keys = vec![0; self.entries];
            self.values = vec![0; self.entries];
        }
        let i = self.slot(key);
        self.keys[i] = key;
        self.values[i] = upper as i8;
    }

    /// Forgets every entry (a table made afresh costs nothing until it is written).
    fn clear(&mut self) {
        self.keys = Vec::new();
        self.values = Vec::new();
    }
}

/// The columns centre first: 3, 2, 4, 1, 5, 0, 6 on seven.
fn centre_first(columns: u32) -> Vec<u32> {
    let mid = columns / 2;
    let mut order = vec![mid];
    for d in 1..=mid {
        order.push(mid - d);
        if mid + d < columns {
            order.push(mid + d);
        }
    }
    order
}

/// The solver, its table kept between searches of one game.
pub struct Solver {
    table: Table,
    nodes: u64,
    stop: Option<Stop>,
    stopped: bool,
    order: Vec<u32>,
}

/// When a search gives up: after so many nodes, or at a time.
#[derive(Clone, Copy, Debug)]
enum Stop {
    Nodes(u64),
    At(Instant),
}

/// The work of one node, in the currency of [`Meter::work`].
const WORK_PER_NODE: u64 = 4;

impl Solver {
    /// A solver with a table of about `mb` MiB.
    pub fn new(mb: usize) -> Solver {
        let entry = std::mem::size_of::<u128>() + 1;
        Solver {
            table: Table::new(mb.max(1) * 1024 * 1024 / entry),
            nodes: 0,
            stop: None,
            stopped: false,
            order: Vec::new(),
        }
    }

    /// The nodes searched since the solver was made.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// The exact score of `board` for the side to move, or `None` if `budget` (spent as
    /// `meter` says) ran out first. The game must not be over.
    pub fn solve(
        &mut self,
        board: &ConnectFour,
        budget: Option<Duration>,
        meter: Meter,
    ) -> Option<i32> {
        self.start(budget, meter);
        let bits = Bits::of(board);
        let score = self.solve_bits(&bits, -i32::MAX, i32::MAX);
        (!self.stopped).then_some(score)
    }

    /// Whether the last search ran out of budget.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    fn start(&mut self, budget: Option<Duration>, meter: Meter) {
        self.stopped = false;
        self.stop = budget.map(|b| match meter {
            Meter::Clock => Stop::At(Instant::now() + b),
            Meter::Work => Stop::Nodes(self.nodes + Meter::work(b) / WORK_PER_NODE),
        });
    }

    /// The score within `[lo, hi]` by null-window searches that halve the interval, as the
    /// published solvers narrow it.
    fn solve_bits(&mut self, bits: &Bits, lo: i32, hi: i32) -> i32 {
        if self.order.len() != bits.shape.columns as usize {
            self.order = centre_first(bits.shape.columns);
        }
        if bits.can_win_now() {
            return (bits.shape.cells as i32 + 1 - bits.moves as i32) / 2;
        }
        let cells = bits.shape.cells as i32;
        let moves = bits.moves as i32;
        let mut min = (-(cells - moves) / 2).max(lo);
        let mut max = ((cells + 1 - moves) / 2).min(hi);
        while min < max && !self.stopped {
            let mut med = min + (max - min) / 2;
            if med <= 0 && min / 2 < med {
                med = min / 2;
            } else if med >= 0 && max / 2 > med {
                med = max / 2;
            }
            let r = self.negamax(bits, med, med + 1);
            if r <= med {
                max = r;
            } else {
                min = r;
            }
        }
        min
    }

    /// The score if within `(alpha, beta)`, else a bound on the side it fell.
    fn negamax(&mut self, bits: &Bits, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        if self.nodes.trailing_zeros() >= 10 && self.out_of_budget() {
            self.stopped = true;
        }
        if self.stopped {
            return alpha;
        }
        let cells = bits.shape.cells as i32;
        let moves = bits.moves as i32;
        let next = bits.non_losing();
        if next == 0 {
            return -(cells - moves) / 2;
        }
        if moves >= cells - 2 {
            return 0;
        }
        let min = -(cells - 2 - moves) / 2;
        if alpha < min {
            alpha = min;
            if alpha >= beta {
                return alpha;
            }
        }
        let mut max = (cells - 1 - moves) / 2;
        if let Some(upper) = self.table.get(bits.key()) {
            max = upper;
        }
        if beta > max {
            beta = max;
            if alpha >= beta {
                return beta;
            }
        }
        for cell in self.ordered(bits, next) {
            let child = bits.after(cell);
            let score = -self.negamax(&child, -beta, -alpha);
            if score >= beta {
                return score;
            }
            alpha = alpha.max(score);
        }
        if !self.stopped {
            self.table.put(bits.key(), alpha);
        }
        alpha
    }

    /// The cells of `next`, those that make the most threats first, ties centre first.
    fn ordered(&self, bits: &Bits, next: u128) -> Vec<u128> {
        let mut moves: Vec<(u32, u128)> = Vec::with_capacity(9);
        for &col in &self.order {
            let cell = next & bits.shape.column(col);
            if cell != 0 {
                let threats = bits.threats_after(cell);
                let at = moves
                    .iter()
                    .position(|&(t, _)| t < threats)
                    .unwrap_or(moves.len());
                moves.insert(at, (threats, cell));
            }
        }
        moves.into_iter().map(|(_, cell)| cell).collect()
    }

    fn out_of_budget(&self) -> bool {
        match self.stop {
            None => false,
            Some(Stop::Nodes(limit)) => self.nodes >= limit,
            Some(Stop::At(deadline)) => Instant::now() >= deadline,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_columns_are_tried_centre_first() {
        assert_eq!(centre_first(7), [3, 2, 4, 1, 5, 0, 6]);
        assert_eq!(centre_first(4), [2, 1, 3, 0]);
        assert_eq!(centre_first(9), [4, 3, 5, 2, 6, 1, 7, 0, 8]);
    }

    #[test]
    fn a_win_on_the_next_disc_is_one_ply_away() {
        let cells = 42;
        // X to move with 6 discs down wins on the 7th: (43 - 6) / 2 = 18.
        assert_eq!(plies(18, 6, cells), 1);
        // O to move after 7 discs, X winning on the 9th: a loss of 17 plies 2 away.
        assert_eq!(plies(-17, 7, cells), 2);
    }
}
