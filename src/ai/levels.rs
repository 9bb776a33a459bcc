//! The ladder: AI levels from 1 (a beginner) to [`Level::TOP`] (perfect where proven), one
//! mechanism for every rule set. A level below the top is a [`Style`]: on classic boards a
//! search that looks `depth` plies ahead, scores what it sees at the horizon by the lines each
//! side is building (the moves a person finds natural), and chooses among the moves it judges
//! close with softmax noise of `temperature`; in Ultimate a fresh Monte Carlo tree search of
//! `playouts` iterations. The top level is the perfect player (`hard`).
//!
//! Every choice here depends only on the position and the random source: no clock, so a
//! seeded game replays exactly.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::rules::classic::geometry::Geometry;
use crate::rules::classic::{Board, Cell};
use crate::rules::position::Variant;

/// One rung of the ladder, `1..=Level::TOP`; only valid levels can be built.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Level(u8);

impl Level {
    /// The number of the strongest level, the perfect player.
    pub const TOP: u8 = 7;
    /// `easy`: level 1.
    pub const EASY: Level = Level(1);
    /// `medium`: level 3.
    pub const MEDIUM: Level = Level(3);
    /// `hard`: the top level.
    pub const HARD: Level = Level(Level::TOP);
    /// The lowest level that always takes a win in one.
    pub const SEES_WIN: Level = Level(1);
    /// The lowest level that always blocks the opponent's win in one.
    pub const SEES_BLOCK: Level = Level(2);

    /// Level `n`, if it is on the ladder.
    pub const fn new(n: u8) -> Option<Level> {
        if n >= 1 && n <= Level::TOP {
            Some(Level(n))
        } else {
            None
        }
    }

    pub const fn number(self) -> u8 {
        self.0
    }

    /// Every level, weakest first.
    pub fn all() -> impl Iterator<Item = Level> {
        (1..=Level::TOP).map(Level)
    }

    /// Whether this is the perfect player.
    pub const fn is_top(self) -> bool {
        self.0 == Level::TOP
    }

    /// The next level up, after the top the first again.
    pub const fn next(self) -> Level {
        Level(self.0 % Level::TOP + 1)
    }

    /// The next level down, after the first the top again.
    pub const fn previous(self) -> Level {
        Level((self.0 + Level::TOP - 2) % Level::TOP + 1)
    }

    /// One level up, staying at the top.
    pub const fn up(self) -> Level {
        Level(if self.0 < Level::TOP {
            self.0 + 1
        } else {
            self.0
        })
    }

    /// One level down, staying at 1.
    pub const fn down(self) -> Level {
        Level(if self.0 > 1 { self.0 - 1 } else { 1 })
    }

    /// The name kept for this level, if it has one: easy, medium or hard.
    pub const fn alias(self) -> Option<&'static str> {
        match self.0 {
            1 => Some("easy"),
            3 => Some("medium"),
            Level::TOP => Some("hard"),
            _ => None,
        }
    }

    /// How this level plays, or `None` for the top level, which is the perfect search.
    pub const fn style(self) -> Option<Style> {
        if self.is_top() {
            None
        } else {
            Some(STYLES[(self.0 - 1) as usize])
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "level {}", self.0)
    }
}

/// How a level below the top plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    /// Plies searched on classic boards.
    pub depth: u8,
    /// The softmax temperature among close moves, in units of the line score (0: the best).
    pub temperature: u32,
    /// Monte Carlo iterations in Ultimate.
    pub playouts: u64,
}

const fn style(depth: u8, temperature: u32, playouts: u64) -> Style {
    Style {
        depth,
        temperature,
        playouts,
    }
}

/// Levels 1 to 6: the horizon grows, the noise falls, the playouts multiply.
const STYLES: [Style; (Level::TOP - 1) as usize] = [
    style(1, 24, 8),
    style(2, 12, 40),
    style(3, 6, 150),
    style(4, 3, 500),
    style(5, 2, 1_500),
    style(6, 1, 5_000),
];

/// The measured ratings of levels 1 to 7 (random play is 0), by board, named by its flags
/// ([`Variant::flags`]): 3×3, 5×5 and 7×7 with the default k, Ultimate, Connect Four and
/// Gomoku (five or more, and exactly five; see
/// `docs/ai.md` and `examples/ladder.rs`).
const RATINGS: [(&str, [i32; Level::TOP as usize]); 7] = [
    ("", [115, 365, 411, 414, 460, 455, 459]),
    ("--size 5", [390, 674, 673, 807, 864, 915, 919]),
    ("--size 7", [287, 497, 530, 563, 552, 577, 552]),
    ("--ultimate", [166, 321, 423, 542, 594, 655, 869]),
    ("--gomoku", [617, 786, 935, 1131, 1175, 1299, 1510]),
    ("--gomoku --exact", [600, 741, 960, 1145, 1273, 1373, 1584]),
    ("--connect-four", [305, 415, 617, 699, 839, 893, 1069]),
];

/// The measured rating of `level` on `variant`'s board (random play is 0), where the ladder
/// was measured: the default boards of 3×3, 5×5 and 7×7, Ultimate and Gomoku.
///
/// A level is never rated below a lower one: where the measured figures of neighbouring
/// levels run the wrong way (on 3×3 levels 5 to 7 all play perfectly, and measured 460, 455
/// and 459), they are pooled into their mean (458, 458, 459), the nearest ratings that climb
/// with the level.
pub fn rating(variant: Variant, level: Level) -> Option<i32> {
    let flags = variant.flags().join(" ");
    let (_, row) = RATINGS.iter().find(|(named, _)| *named == flags)?;
    Some(climbing(row)[usize::from(level.0 - 1)])
}

/// The non-decreasing ratings nearest to `measured` (least squares): adjacent pools whose
/// means run the wrong way are merged until none do, and each level takes its pool's mean,
/// rounded.
fn climbing(measured: &[i32; Level::TOP as usize]) -> [i32; Level::TOP as usize] {
    // Each pool: its sum and how many levels it holds.
    let mut pools: Vec<(i64, i64)> = Vec::new();
    for &r in measured {
        pools.push((i64::from(r), 1));
        while let [.., (s1, n1), (s2, n2)] = pools[..] {
            if s1 * n2 <= s2 * n1 {
                break;
            }
            pools.pop();
            pools.pop();
            pools.push((s1 + s2, n1 + n2));
        }
    }
    let mut out = [0; Level::TOP as usize];
    let mut at = 0;
    for (sum, n) in pools {
        // The mean, halves rounded up.
        let mean = i32::try_from((2 * sum + n).div_euclid(2 * n)).unwrap_or(i32::MAX);
        for slot in &mut out[at..at + n as usize] {
            *slot = mean;
        }
        at += n as usize;
    }
    out
}

/// `--level auto`: an AI level that follows one person's results. Where the ladder was
/// measured (see [`rating`]) the person has a rating on the same scale, moved after each game
/// by the Elo rule against the level met, and the AI is the level rated nearest to it, so the
/// person wins about as often as they lose. Elsewhere the AI steps a level up after the person
/// wins and down after they lose. With no past games the person starts rated as the middle
/// level.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Adaptive {
    variant: Variant,
    level: Level,
    /// The person's rating, on boards with measured levels.
    rating: Option<f64>,
}

impl Adaptive {
    /// How far one game moves the rating: the Elo rule's K, large because a ladder step is 50
    /// to 250 points. Chosen with `examples/ladder.rs --auto`: at 64 a level-1 player scored
    /// 36–38% over its first 40 games (the AI came down too slowly), at 128 the level jumped
    /// about between games.
    const K: f64 = 96.0;

    /// The middle level, where a person with no results starts.
    pub const MIDDLE: Level = Level(Level::TOP.div_ceil(2));

    /// The AI for one person on `variant`, after their `past` results there, oldest first:
    /// each the level met and the person's points (1 a win, ½ a draw, 0 a loss).
    pub fn new(variant: Variant, past: impl IntoIterator<Item = (Level, f64)>) -> Adaptive {
        let mut adaptive = Adaptive {
            variant,
            level: Adaptive::MIDDLE,
            rating: rating(variant, Adaptive::MIDDLE).map(f64::from),
        };
        for (level, points) in past {
            adaptive.record(level, points);
        }
        adaptive
    }

    /// The level the person meets next.
    pub fn level(&self) -> Level {
        self.level
    }

    /// The person's rating, where the board's levels were measured.
    pub fn rating(&self) -> Option<i32> {
        self.rating.map(|r| r.round() as i32)
    }

    /// The person scored `points` against `met` (usually [`Adaptive::level`]).
    pub fn record(&mut self, met: Level, points: f64) {
        let (Some(mine), Some(theirs)) = (self.rating, rating(self.variant, met)) else {
            self.level = match points {
                p if p > 0.5 => met.up(),
                p if p < 0.5 => met.down(),
                _ => met,
            };
            return;
        };
        let expected = crate::ai::rating::expected(mine - f64::from(theirs));
        let mine = mine + Adaptive::K * (points - expected);
        self.rating = Some(mine);
        let distance = |l: Level| {
            rating(self.variant, l).map_or(u32::MAX, |r| r.abs_diff(mine.round() as i32))
        };
        self.level = Level::all()
            .min_by_key(|&l| distance(l))
            .unwrap_or(Adaptive::MIDDLE);
    }
}

/// A win `ply` plies from the root scores `WIN - ply`; a loss its negation; a draw 0.
const WIN: i32 = 1 << 24;

/// What a level-`style` player moves on `board`, or `None` once the game is over or when
/// `cancel` is raised.
pub fn choose_cell(
    board: &Board,
    style: Style,
    rng: &mut fastrand::Rng,
    cancel: Option<&AtomicBool>,
) -> Option<Cell> {
    let geom = board.geometry();
    let me = board.to_move();
    let mut search = Search {
        geom,
        misere: board.rules().misere(),
        cancel,
        nodes: 0,
        stopped: false,
    };
    let (mine, theirs) = (board.bits(me), board.bits(me.other()));
    let moves = board.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let margin = i32::try_from(style.temperature * 3).unwrap_or(i32::MAX);
    let mut scored = Vec::with_capacity(moves.len());
    let mut best = -WIN - 1;
    for &cell in &search.ordered(mine, theirs, &moves_of(&moves)) {
        let floor = best.saturating_sub(margin).max(-WIN - 1);
        let score = search.after(mine, theirs, cell, style.depth, floor, WIN + 1, 1);
        if search.stopped {
            return None;
        }
        best = best.max(score);
        scored.push((cell, score));
    }
    // A win or a loss seen is never blurred: only the quickest win is played, and a loss is
    // only close to an equal loss.
    let decisive = |v: i32| v.abs() > WIN / 2;
    let close: Vec<(usize, i32)> = scored
        .into_iter()
        .filter(|&(_, s)| s == best || (!decisive(s) && !decisive(best) && s >= best - margin))
        .collect();
    let pick = soft_pick(&close, best, style.temperature, rng);
    moves.into_iter().find(|c| c.index() == pick)
}

fn moves_of(moves: &[Cell]) -> Vec<usize> {
    moves.iter().map(|c| c.index()).collect()
}

/// One of `close` (cell, score), each with weight `exp((score - best) / temperature)`.
fn soft_pick(
    close: &[(usize, i32)],
    best: i32,
    temperature: u32,
    rng: &mut fastrand::Rng,
) -> usize {
    let weight = |s: i32| {
        if temperature == 0 {
            f64::from(u8::from(s == best))
        } else {
            (f64::from(s - best) / f64::from(temperature)).exp()
        }
    };
    let total: f64 = close.iter().map(|&(_, s)| weight(s)).sum();
    let mut at = rng.f64() * total;
    for &(cell, s) in close {
        at -= weight(s);
        if at <= 0.0 {
            return cell;
        }
    }
    close.last().expect("the best move is close to itself").0
}

/// A depth-limited alpha-beta over bit boards, scores from the side to move.
struct Search<'a> {
    geom: &'a Geometry,
    misere: bool,
    cancel: Option<&'a AtomicBool>,
    nodes: u64,
    stopped: bool,
}

/// The score of a line holding `n` of one side's marks and none of the other's.
const fn line_weight(n: u32) -> i32 {
    if n == 0 { 0 } else { 1 << (2 * n) }
}

impl Search<'_> {
    /// The value for the side with `mine` of marking `cell`, searched `depth` plies in all.
    #[allow(clippy::too_many_arguments)]
    fn after(
        &mut self,
        mine: u64,
        theirs: u64,
        cell: usize,
        depth: u8,
        alpha: i32,
        beta: i32,
        ply: i32,
    ) -> i32 {
        let now = mine | (1 << cell);
        if self.geom.completes(now, cell) {
            let won = WIN - ply;
            return if self.misere { -won } else { won };
        }
        -self.negamax(theirs, now, depth - 1, -beta, -alpha, ply)
    }

    fn negamax(
        &mut self,
        mine: u64,
        theirs: u64,
        depth: u8,
        mut alpha: i32,
        beta: i32,
        ply: i32,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes.is_multiple_of(1024) && self.cancel.is_some_and(|c| c.load(Ordering::Relaxed))
        {
            self.stopped = true;
        }
        let empty = self.geom.full & !(mine | theirs);
        if empty == 0 || self.stopped {
            return 0;
        }
        if depth == 0 {
            return self.eval(mine, theirs);
        }
        let cells = self.candidates(mine | theirs);
        let mut best = -WIN - 1;
        for cell in self.ordered(mine, theirs, &cells) {
            let score = self.after(mine, theirs, cell, depth, alpha, beta, ply + 1);
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// The horizon's score: the lines each side is building (reversed under misère).
    fn eval(&self, mine: u64, theirs: u64) -> i32 {
        let score: i32 = self
            .geom
            .lines
            .iter()
            .map(|&l| {
                let (a, b) = ((l & mine).count_ones(), (l & theirs).count_ones());
                match (a, b) {
                    (_, 0) => line_weight(a),
                    (0, _) => -line_weight(b),
                    _ => 0,
                }
            })
            .sum();
        if self.misere { -score } else { score }
    }

    /// The empty cells worth a look: on boards of 5×5 and up, those next to a mark (all of
    /// them on an empty board).
    fn candidates(&self, taken: u64) -> Vec<usize> {
        let empty = self.geom.full & !taken;
        let size = usize::from(self.geom.size);
        if size < 5 || taken == 0 {
            return crate::rules::classic::geometry::bit_indices(empty).collect();
        }
        let mut near = 0u64;
        for i in crate::rules::classic::geometry::bit_indices(taken) {
            let (r, c) = (i / size, i % size);
            for nr in r.saturating_sub(1)..=(r + 1).min(size - 1) {
                for nc in c.saturating_sub(1)..=(c + 1).min(size - 1) {
                    near |= 1 << (nr * size + nc);
                }
            }
        }
        crate::rules::classic::geometry::bit_indices(near & empty).collect()
    }

    /// `cells`, the most natural first: those on the most promising open lines of either
    /// side (building one's own, blocking the other's), then nearest the centre.
    fn ordered(&self, mine: u64, theirs: u64, cells: &[usize]) -> Vec<usize> {
        let size = i32::from(self.geom.size);
        let natural = |&cell: &usize| {
            let lines = self.geom.through[cell].iter().map(|&l| {
                let (a, b) = ((l & mine).count_ones(), (l & theirs).count_ones());
                let own = if b == 0 { line_weight(a + 1) } else { 0 };
                let block = if a == 0 { line_weight(b + 1) } else { 0 };
                own + block
            });
            let (r, c) = (cell as i32 / size, cell as i32 % size);
            let off = (2 * r - size + 1).abs() + (2 * c - size + 1).abs();
            lines.sum::<i32>() * 4 - off
        };
        let mut out = cells.to_vec();
        out.sort_by_key(|c| std::cmp::Reverse(natural(c)));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::classic::Rules;

    #[test]
    fn levels_are_built_only_on_the_ladder() {
        assert_eq!(Level::new(0), None);
        assert_eq!(Level::new(Level::TOP + 1), None);
        assert_eq!(Level::all().count(), usize::from(Level::TOP));
        assert_eq!(Level::HARD.next(), Level::EASY);
        assert_eq!(Level::EASY.previous(), Level::HARD);
        assert_eq!(Level::HARD.previous().number(), 6);
        assert_eq!(Level::HARD.up(), Level::HARD);
        assert_eq!(Level::EASY.down(), Level::EASY);
        assert!(Level::all().all(|l| l.style().is_some() != l.is_top()));
    }

    #[test]
    fn ratings_climb_with_the_level_pooling_neighbours_measured_the_wrong_way() {
        assert_eq!(
            climbing(&[115, 365, 411, 414, 460, 455, 459]),
            [115, 365, 411, 414, 458, 458, 459]
        );
        assert_eq!(
            climbing(&[287, 497, 530, 563, 552, 577, 552]),
            [287, 497, 530, 558, 558, 565, 565]
        );
        let rising = [1, 2, 3, 4, 5, 6, 7];
        assert_eq!(climbing(&rising), rising);
        for (flags, _) in RATINGS {
            let variant = Variant::from_flags(flags).unwrap();
            let ratings: Vec<i32> = Level::all().filter_map(|l| rating(variant, l)).collect();
            assert_eq!(ratings.len(), Level::TOP as usize, "{flags}");
            assert!(ratings.is_sorted(), "{flags}: {ratings:?}");
        }
    }

    fn classic(size: u8) -> Variant {
        Variant::Classic(Rules::new(size, Rules::default_k(size), false).unwrap())
    }

    #[test]
    fn an_adaptive_ai_climbs_for_a_winner_and_falls_for_a_loser_on_measured_boards() {
        for variant in [classic(3), classic(5), classic(7), Variant::Ultimate] {
            let mut winner = Adaptive::new(variant, []);
            let mut loser = winner;
            assert_eq!(winner.level(), Adaptive::MIDDLE);
            let start = winner.rating().unwrap();
            for _ in 0..40 {
                winner.record(winner.level(), 1.0);
                loser.record(loser.level(), 0.0);
            }
            assert!(winner.rating().unwrap() > start && loser.rating().unwrap() < start);
            let top_rating = rating(variant, Level::HARD).unwrap();
            assert_eq!(
                rating(variant, winner.level()),
                Level::all().filter_map(|l| rating(variant, l)).max()
            );
            assert!(winner.rating().unwrap() > top_rating, "{variant}");
            assert_eq!(loser.level(), Level::EASY, "{variant}");
        }
    }

    #[test]
    fn an_even_result_against_an_equal_level_keeps_the_rating() {
        let mut adaptive = Adaptive::new(classic(5), []);
        let before = adaptive.rating();
        adaptive.record(Adaptive::MIDDLE, 0.5);
        assert_eq!(adaptive.rating(), before);
        assert_eq!(adaptive.level(), Adaptive::MIDDLE);
    }

    #[test]
    fn past_results_are_replayed_in_order() {
        let past = [(Level::HARD, 0.0), (Level::EASY, 1.0), (Level::MEDIUM, 0.5)];
        let mut one_by_one = Adaptive::new(classic(3), []);
        for (level, points) in past {
            one_by_one.record(level, points);
        }
        assert_eq!(Adaptive::new(classic(3), past), one_by_one);
    }

    #[test]
    fn unmeasured_boards_step_one_level_per_decided_game() {
        let misere = Variant::Classic(Rules::new(4, 3, true).unwrap());
        let mut adaptive = Adaptive::new(misere, []);
        assert_eq!(adaptive.rating(), None);
        adaptive.record(Adaptive::MIDDLE, 1.0);
        assert_eq!(adaptive.level().number(), 5);
        adaptive.record(adaptive.level(), 0.5);
        assert_eq!(adaptive.level().number(), 5);
        adaptive.record(adaptive.level(), 0.0);
        adaptive.record(adaptive.level(), 0.0);
        assert_eq!(adaptive.level().number(), 3);
    }
}
