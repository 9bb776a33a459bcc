//! Gomoku's engine: every level plays the alpha-beta search ([`crate::ai::five`]). `hard`
//! searches its whole budget, level 6 a quarter of it, level 5 an eighth; levels 1 to 4 a
//! sixteenth no deeper than a few plies, and the lower ones now and then play one of the
//! best-scored points instead where neither side has a five to make ([`SHALLOW`]).
//!
//! `hard` plays the search's move. Its value is a proven win where the search found a
//! victory by fours, or a forced win after which every reply on the board leaves one (checked
//! here with the threats); a proven loss where the opponent has two fives to make; else the
//! search's score as an estimated win rate ([`rate_of`]). Hints, analyses and reviews value a
//! move by the search of the position after it, read the other way.
//!
//! On the board the proof search takes (8×8 with five to seven in a row, not exactly), `hard`,
//! hints, analyses and reviews also ask it, on the same stones set on a classic board, for
//! half of the budget: where it proves a value (a win, a draw, a loss, or a bound: at least or
//! at most a draw) that value and its move stand, and the alpha-beta search answers the rest
//! within the other half.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::engines::{Engine, Work};
use crate::ai::five::{Five, Thought};
use crate::ai::levels::Level;
use crate::ai::search::{Meter, POSITION_WORK, Searcher, Value};
use crate::ai::threats::{Threats, cell_of, side};
use crate::rules::classic::Cell;
use crate::rules::gomoku::Gomoku;

/// The deepest `hard` searches, in plies.
const MAX_DEPTH: u32 = 40;
/// The score of the alpha-beta search that reads as even odds moved by about a quarter:
/// the scale of the logistic curve from scores to estimated win rates.
const RATE_SCALE: f64 = 600.0;

/// The estimated win rate, in thousandths from 1 to 999, of a score of the alpha-beta search.
fn rate_of(score: i32) -> Value {
    let rate = 1.0 / (1.0 + (-f64::from(score) / RATE_SCALE).exp());
    Value::WinRate((rate * 1000.0).round().clamp(1.0, 999.0) as u16)
}

/// Fours a victory is looked for with, at most.
const FOURS: u32 = 12;
/// Positions one search for a victory by fours may look at per millisecond of `--think`
/// (with the default second: 40,000), and at least.
const POSITIONS_PER_MS: u32 = 40;
const MIN_POSITIONS: u32 = 2_000;

/// The fewest points a hint values however short its budget: as many as an analysis shows
/// lines.
const HINT_LEAST: usize = super::lines::MOST_LINES;

/// The plies to the five if `x`, a threat of `side`'s, is proven to win: after it the other
/// side has no five to make, and every reply, anywhere on the board, leaves `side` a victory
/// by fours (all found within the `budget` of positions, which they use up). The count is
/// the slowest reply's: `x`, the reply and that victory. `None` where one reply is not shown
/// lost in time.
fn proven_threat(threats: &mut Threats, x: usize, side: usize, budget: &mut u32) -> Option<u32> {
    let other = 1 - side;
    threats.place(x, side);
    let replies = threats.empty_points();
    let mut longest = None;
    if threats.fives(other).is_empty() && !replies.is_empty() {
        longest = Some(0);
        for r in replies {
            threats.place(r, other);
            let line = threats.shortest_vcf(side, FOURS, budget);
            threats.remove(r, other);
            let Some(line) = line else {
                longest = None;
                break;
            };
            longest = longest.max(Some(line.len() as u32));
        }
    }
    threats.remove(x, side);
    longest.map(|plies| plies + 2)
}

/// The most threats [`proven_winning_threat`] tries to prove, each within a quarter of its
/// budget.
const PROOFS_TRIED: u32 = 8;

/// A threat of the side to move's that no reply stops, proven as [`proven_threat`] proves one,
/// and its value; looked for where the side has no victory by fours (the search finds those)
/// and the other side no five. Candidates go best-scored first; the searches of fours that
/// tell a threat from a quiet move share `positions`, and the first [`PROOFS_TRIED`] threats
/// found are tried, each proof within a quarter of it and all within twice `positions`.
fn proven_winning_threat(board: &Gomoku, positions: u32) -> Option<(Cell, Value)> {
    let mut threats = Threats::new(board);
    let me = side(board.to_move());
    let other = 1 - me;
    if !threats.fives(other).is_empty() || !threats.fives(me).is_empty() {
        return None;
    }
    if threats.vcf(me, FOURS, &mut { positions }).is_some() {
        return None;
    }
    // What is left for telling threats apart, and for the proofs.
    let (mut left, mut proving) = (positions, positions.saturating_mul(2));
    let mut proofs = PROOFS_TRIED;
    for x in ranked(&threats, me) {
        threats.place(x, me);
        let threat = threats.fives(other).is_empty() && threats.vcf(me, FOURS, &mut left).is_some();
        threats.remove(x, me);
        if threat {
            let mut share = (positions / 4).min(proving);
            let given = share;
            let proof = proven_threat(&mut threats, x, me, &mut share);
            if let Some(plies) = proof {
                return Some((threats.cell(x), Value::Win(plies)));
            }
            proving -= given - share;
            proofs -= 1;
        }
        if left == 0 || proving == 0 || proofs == 0 {
            break;
        }
    }
    None
}

/// Gomoku's engine: its random numbers, the alpha-beta search of `hard` (made at its first
/// use, with its table), and the proof search for the board it takes.
pub(super) struct Threat {
    rng: fastrand::Rng,
    prover: Searcher,
    five: Option<Five>,
    meter: Meter,
    /// The alpha-beta search's table, in MiB, and its threads.
    table_mb: usize,
    threads: usize,
    cancel: Option<Arc<AtomicBool>>,
    /// How long a move whose best choice is still changing may think, where more than the
    /// budget.
    most: Option<Duration>,
    /// What the alpha-beta search did since [`Engine::fresh`], and the proof search's work
    /// then.
    worked: Work,
    prover_at: u64,
}

/// The alpha-beta search's table when none is asked for, in MiB.
pub(super) const TABLE_MB: usize = 64;

impl Threat {
    /// The engine whose random choices follow from `seed`, its searches budgeted by `meter`.
    pub(super) fn new(seed: Option<u64>, meter: Meter) -> Threat {
        let mut prover = Searcher::new();
        prover.set_meter(meter);
        Threat {
            rng: seed.map_or_else(fastrand::Rng::new, fastrand::Rng::with_seed),
            prover,
            five: None,
            meter,
            table_mb: TABLE_MB,
            threads: 1,
            cancel: None,
            most: None,
            worked: Work::default(),
            prover_at: 0,
        }
    }

    /// The alpha-beta search's table of at most `mb` MiB, searched on `threads` threads.
    pub(super) fn size_search(&mut self, mb: usize, threads: usize) {
        self.table_mb = mb;
        self.threads = threads;
        self.five = None;
    }

    /// Lets `hard` think up to `most` on a move whose best choice is still changing after its
    /// budget (`None`: the budget is all).
    pub(super) fn set_most(&mut self, most: Option<Duration>) {
        self.most = most;
    }

    /// How long `hard` may think on a move whose best choice is still changing.
    pub(super) fn most(&self) -> Option<Duration> {
        self.most
    }

    /// Whether the search was told to stop.
    fn cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
    }

    /// `thought`, its nodes and depth added to the work done.
    fn noted(&mut self, thought: Option<Thought>) -> Option<Thought> {
        if let Some(t) = &thought {
            self.worked.add(Work {
                nodes: t.nodes,
                depth: Some(t.depth),
            });
        }
        thought
    }

    /// The alpha-beta search, made at its first use.
    fn five(&mut self) -> &mut Five {
        let (mb, meter, threads) = (self.table_mb, self.meter, self.threads);
        let cancel = self.cancel.clone();
        self.five.get_or_insert_with(|| {
            let mut five = Five::new(mb, meter);
            five.set_threads(threads);
            five.set_cancel(cancel);
            five
        })
    }
}

impl Threat {
    /// The proof search, to size its table and its threads.
    pub(super) fn prover(&mut self) -> &mut Searcher {
        &mut self.prover
    }
}

/// What the proof search settles: a proven value or bound.
fn settled(value: Value) -> bool {
    value.is_proven() || value.is_bound()
}

/// The proof search's share of a budget: half.
fn proof_share(think: Option<Duration>) -> Duration {
    think.unwrap_or(Duration::from_secs(1)) / 2
}

/// The positions a search for a victory by fours may look at within `think`.
fn budget(think: Option<Duration>) -> u32 {
    let ms = think.map_or(1_000, |t| t.as_millis().min(u128::from(u32::MAX)) as u32);
    ms.saturating_mul(POSITIONS_PER_MS).max(MIN_POSITIONS)
}

/// The candidates for the side to move, best-scored first (ties in board order).
fn ranked(threats: &Threats, me: usize) -> Vec<usize> {
    let mut points = threats.candidates();
    points.sort_by_key(|&p| std::cmp::Reverse(threats.score(p, me)));
    points
}

/// How a level below `hard` plays: as `hard` does ([`Threat::hard`]) within `1 / share` of
/// the time where `depth` is [`MAX_DEPTH`]; else the alpha-beta search alone, no deeper than
/// `depth` plies, within that share; and where neither side has a five to make it plays,
/// `stray` times in a hundred, one of its `choices` best-scored points instead, as a learner
/// plays what looks good without reading it out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shallow {
    depth: u32,
    share: u32,
    stray: u32,
    choices: usize,
}

const fn shallow(depth: u32, share: u32, stray: u32, choices: usize) -> Shallow {
    Shallow {
        depth,
        share,
        stray,
        choices,
    }
}

/// Levels 1 to 6, weakest first (their steps measured in `docs/ai.md`'s Gomoku ladder).
const SHALLOW: [Shallow; 6] = [
    shallow(1, 16, 60, 8),
    shallow(1, 16, 30, 5),
    shallow(2, 16, 15, 3),
    shallow(3, 16, 0, 1),
    shallow(MAX_DEPTH, 8, 0, 1),
    shallow(MAX_DEPTH, 4, 0, 1),
];

impl Threat {
    /// The proof search's move and value for `board`, where it takes the board and settles
    /// the value within `budget`.
    fn proven(&mut self, board: &Gomoku, budget: Duration) -> Option<(Cell, Value)> {
        let classic = board.as_classic()?;
        let thought = self.prover.think(&classic, Some(budget))?;
        settled(thought.value).then_some((thought.cell, thought.value))
    }

    /// `hard`'s move and its value: what the proof search settles on the board it takes,
    /// within half the budget, else the alpha-beta search's choice within the rest (all of
    /// it elsewhere). `None` once the game is over or when cancelled.
    fn hard(&mut self, board: &Gomoku, think: Option<Duration>) -> Option<(Cell, Value)> {
        let mut time = think.unwrap_or(Duration::from_secs(1));
        if board.as_classic().is_some() && !board.is_over() {
            if let Some(found) = self.proven(board, proof_share(think)) {
                return Some(found);
            }
            if self.prover.cancelled() {
                return None;
            }
            time -= proof_share(think);
        }
        // A threat that wins, proven, is played at once; on the clock, what the look took
        // comes off the search's time (as work, its budget of positions is its own).
        let start = std::time::Instant::now();
        if let Some(found) = proven_winning_threat(board, budget(think)) {
            return Some(found);
        }
        if self.meter == Meter::Clock {
            time = time.saturating_sub(start.elapsed());
        }
        let most = self.most.map_or(time, |most| most.max(time));
        let thought = self.five().think_within(board, time, most, MAX_DEPTH);
        let thought = self.noted(thought)?;
        let value = Threat::proved(board, &thought, think);
        Some((cell_of(board.size(), thought.best), value))
    }

    /// The value of playing `cell` in `board`: the proof search's where it settles one; a win
    /// where it makes five; else the reply's value to the other side, read the other way.
    fn value_after(&mut self, board: &Gomoku, cell: Cell, think: Option<Duration>) -> Value {
        if let Some(classic) = board.as_classic() {
            let value = self
                .prover
                .move_value(&classic, cell, Some(proof_share(think)));
            if settled(value) {
                return value;
            }
        }
        let mut after = *board;
        if after.play(cell).is_err() {
            // A point black may not play under renju: playing it loses.
            return Value::Loss(1);
        }
        if after.is_over() {
            return Value::Win(1);
        }
        if after.is_full() {
            return Value::Draw;
        }
        let time = think.unwrap_or(Duration::from_secs(1));
        let reply = self.five().think(&after, time, MAX_DEPTH);
        let Some(reply) = self.noted(reply) else {
            return Value::WinRate(500);
        };
        match Threat::proved(&after, &reply, think) {
            Value::Win(n) => Value::Loss(n + 1),
            Value::Loss(n) => Value::Win(n + 1),
            Value::WinRate(r) => Value::WinRate(1000 - r),
            other => other,
        }
    }

    /// A search's result as a value for the side to move in `board`: a victory by fours it
    /// found, or a forced win it found that every reply leaves a victory by fours, is a proven
    /// win; a loss at once (two fives to block) is proven; any other score an estimated win
    /// rate (see [`rate_of`]).
    fn proved(board: &Gomoku, thought: &Thought, think: Option<Duration>) -> Value {
        if let Some(line) = &thought.proof {
            return Value::Win(line.len() as u32);
        }
        let Some(plies) = thought.mate() else {
            return rate_of(thought.score);
        };
        let mut threats = Threats::new(board);
        let me = side(board.to_move());
        match plies {
            n if n > 0 => {
                if let Some(n) = proven_threat(&mut threats, thought.best, me, &mut budget(think)) {
                    return Value::Win(n);
                }
            }
            -2 if threats.fives(me).is_empty() && threats.fives(1 - me).len() > 1 => {
                return Value::Loss(2);
            }
            _ => {}
        }
        rate_of(thought.score)
    }

    /// Levels 1 to 6 ([`SHALLOW`]): `hard` or the search's move within their share and
    /// depth, or now and then one of the best-scored points where neither side has a five to
    /// make.
    fn below_top(
        &mut self,
        board: &Gomoku,
        level: Level,
        think: Option<Duration>,
    ) -> Option<(Cell, Value)> {
        let how = SHALLOW[usize::from(level.number()).clamp(1, SHALLOW.len()) - 1];
        if board.is_over() {
            return None;
        }
        let time = think.unwrap_or(Duration::from_secs(1)) / how.share;
        if how.depth == MAX_DEPTH {
            return self.hard(board, Some(time));
        }
        let threats = Threats::new(board);
        let me = side(board.to_move());
        let quiet = threats.fives(me).is_empty() && threats.fives(1 - me).is_empty();
        if quiet && how.stray > 0 && self.rng.u32(..100) < how.stray {
            let ranked = ranked(&threats, me);
            if !ranked.is_empty() {
                let p = ranked[self.rng.usize(..how.choices.clamp(1, ranked.len()))];
                return Some((threats.cell(p), Value::Estimate(0)));
            }
        }
        let thought = self.five().think(board, time, how.depth);
        let thought = self.noted(thought)?;
        Some((cell_of(board.size(), thought.best), Value::Estimate(0)))
    }
}

/// `found`, or under renju where it is a point black may not play, the best-scored point
/// black may play instead: no engine plays a forbidden point, whichever search found it.
fn lawful(board: &Gomoku, found: Option<(Cell, Value)>) -> Option<(Cell, Value)> {
    let (cell, value) = found?;
    if board.foul(cell).is_none() {
        return Some((cell, value));
    }
    let threats = Threats::new(board);
    let forbidden = board.forbidden();
    let instead = ranked(&threats, side(board.to_move()))
        .into_iter()
        .map(|p| threats.cell(p))
        .find(|c| !forbidden.contains(c))
        .or_else(|| board.legal_moves().first().copied())?;
    Some((instead, Value::Estimate(0)))
}

impl Engine<Gomoku> for Threat {
    fn choose(&mut self, level: Level, board: &Gomoku, think: Option<Duration>) -> Option<Cell> {
        let found = match level.style() {
            None => self.hard(board, think),
            Some(_) => self.below_top(board, level, think),
        };
        lawful(board, found).map(|(c, _)| c)
    }

    fn best(&mut self, board: &Gomoku, think: Option<Duration>) -> Option<(Cell, Value)> {
        let found = self.hard(board, think);
        lawful(board, found)
    }

    fn value_of(&mut self, board: &Gomoku, cell: Cell, think: Option<Duration>) -> Option<Value> {
        let value = self.value_after(board, cell, think);
        (!self.cancelled()).then_some(value)
    }

    /// The points near the stones, each valued by [`Threat::value_after`] within an equal
    /// share of the budget; the rest of the board is not worth a look. They go best-scored
    /// first, and a search has a floor of work the share cannot lower, so on a crowded board
    /// and a short budget the time can run out first: then the points not yet valued are left
    /// out, once [`HINT_LEAST`] are in (timed by the clock only: a budget of work values
    /// every point, the same way on every machine).
    fn hint(&mut self, board: &Gomoku, think: Option<Duration>) -> Vec<(Cell, Value)> {
        if board.is_over() {
            return Vec::new();
        }
        let threats = Threats::new(board);
        let mut points = ranked(&threats, side(board.to_move()));
        let forbidden = board.forbidden();
        points.retain(|&p| !forbidden.contains(&cell_of(board.size(), p)));
        let time = think.unwrap_or(Duration::from_secs(1));
        let share = Some(time / points.len().max(1) as u32);
        let started = Instant::now();
        let mut moves: Vec<(Cell, Value)> = Vec::with_capacity(points.len());
        for p in points {
            let late = self.meter == Meter::Clock && started.elapsed() >= time;
            if late && moves.len() >= HINT_LEAST {
                break;
            }
            let cell = cell_of(board.size(), p);
            moves.push((cell, self.value_after(board, cell, share)));
            if self.cancelled() {
                return Vec::new();
            }
        }
        moves.sort_by_key(|&(c, _)| c.reading_key());
        moves
    }

    /// The alpha-beta search forgets its table, killers and history: they hold what
    /// searches of other positions found.
    fn fresh(&mut self) {
        if let Some(five) = &mut self.five {
            five.forget();
        }
        self.worked = Work::default();
        self.prover_at = self.prover.work();
    }

    fn work(&self) -> Work {
        let mut work = self.worked;
        work.nodes += self.prover.work().saturating_sub(self.prover_at) / POSITION_WORK;
        work
    }

    /// The threats' searches are bounded by positions looked at, and short; the proof search
    /// stops at once.
    fn set_cancel(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.prover.set_cancel(flag.clone());
        if let Some(five) = &mut self.five {
            five.set_cancel(flag.clone());
        }
        self.cancel = flag;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::threats::random_positions;

    /// The points of the best-scored candidates tried as threats, in [`winning_threat`].
    const THREATS_TRIED: usize = 12;
    /// The tests' oracle: a move for `side`, as if to move, that makes a threat no reply
    /// answers. After it `side` has a victory by fours, and still has one after each reply
    /// that could stop it (a point where the other side makes a four, blocking or
    /// counter-attacking, or where `side` would). The replies are those only, so this is a
    /// strong guess, not a proof (a victory by threats of three with one threat, such as two
    /// open threes made at once). Each search for a victory looks at `positions` at most.
    fn winning_threat(threats: &mut Threats, side: usize, positions: u32) -> Option<usize> {
        let other = 1 - side;
        if !threats.fives(other).is_empty() {
            return None;
        }
        for x in ranked(threats, side).into_iter().take(THREATS_TRIED) {
            threats.place(x, side);
            let wins = threats.vcf(side, FOURS, &mut { positions }).is_some() && {
                let mut replies = threats.fours(side);
                replies.extend(threats.fours(other));
                replies.extend(threats.fives(side));
                replies.sort_unstable();
                replies.dedup();
                replies.into_iter().all(|r| {
                    threats.place(r, other);
                    let still = threats.fives(other).is_empty()
                        && threats.vcf(side, FOURS, &mut { positions }).is_some();
                    threats.remove(r, other);
                    still
                })
            };
            threats.remove(x, side);
            if wins {
                return Some(x);
            }
        }
        None
    }

    /// `hard`'s move and value in `board`, searched by work for 50 ms (so the test replays).
    fn hard(board: &Gomoku) -> (Cell, Value) {
        let mut engine = Threat::new(Some(0), Meter::Work);
        Engine::best(&mut engine, board, Some(Duration::from_millis(50))).unwrap()
    }

    #[test]
    fn every_level_below_hard_makes_a_five_it_has_and_blocks_the_only_five_against_it() {
        let (mut wins, mut blocks) = (0, 0);
        for board in random_positions(200, 7) {
            let threats = Threats::new(&board);
            let me = side(board.to_move());
            let (mine, theirs) = (threats.fives(me), threats.fives(1 - me));
            let expected = match (mine.is_empty(), theirs.len()) {
                (false, _) => {
                    wins += 1;
                    mine
                }
                (true, 1) => {
                    blocks += 1;
                    theirs
                }
                _ => continue,
            };
            for n in 1..Level::TOP {
                let level = Level::new(n).unwrap();
                // Several seeds, so the levels that stray get their chance to.
                for seed in 0..4 {
                    let mut engine = Threat::new(Some(seed), Meter::Work);
                    let cell = engine
                        .choose(level, &board, Some(Duration::from_millis(16)))
                        .unwrap();
                    assert!(
                        expected.contains(&cell.index()),
                        "{level} played {cell} in\n{board}"
                    );
                }
            }
        }
        assert!(wins >= 10 && blocks >= 10, "{wins} fives, {blocks} blocks");
    }

    /// Whether `side` has a victory by fours in `board` as if it were to move.
    fn has_vcf(board: &Gomoku, side: usize) -> bool {
        Threats::new(board).vcf(side, FOURS, &mut 200_000).is_some()
    }

    #[test]
    fn hard_plays_into_every_victory_by_fours_the_search_finds() {
        let mut found = 0;
        for board in random_positions(60, 21) {
            let me = side(board.to_move());
            if !has_vcf(&board, me) {
                continue;
            }
            found += 1;
            let (c, value) = hard(&board);
            assert!(matches!(value, Value::Win(_)), "{board}: {value:?}");
            let mut after = board;
            after.play(c).unwrap();
            // It made five, or two fours, or a four whose forced block leaves it a victory
            // by fours.
            let mut threats = Threats::new(&after);
            if after.is_over() {
                assert_eq!(after.winner(), Some(board.to_move()), "{board}: {c}");
                continue;
            }
            match threats.fives(me)[..] {
                [] => panic!("{board}: {c} makes neither five nor four"),
                [_, _, ..] => {}
                [block] => {
                    threats.place(block, 1 - me);
                    let rest = threats.vcf(me, FOURS, &mut 200_000);
                    assert!(rest.is_some(), "{board}: {c}, then {block}, lets it go");
                }
            }
        }
        assert!(found >= 10, "{found} positions with a victory by fours");
    }

    fn position(moves: &[&str]) -> Gomoku {
        let mut board = Gomoku::new();
        for m in moves {
            board.play(board.parse_cell(m).unwrap()).unwrap();
        }
        board
    }

    #[test]
    fn two_open_threes_made_at_once_are_a_winning_threat_and_hard_leaves_the_opponent_none() {
        // X: f8 g8 along row 8 and h6 h7 up column h; h8 makes two open threes at once.
        let moves = ["f8", "a1", "g8", "o1", "h6", "a15", "h7", "o15"];
        let x_to_move = position(&moves);
        let mut threats = Threats::new(&x_to_move);
        assert!(
            threats.vcf(0, FOURS, &mut 100_000).is_none(),
            "no victory by fours"
        );
        let fork = winning_threat(&mut threats, 0, 10_000).expect("a winning threat");
        assert_eq!(threats.cell(fork).to_string(), "h8");
        let o_to_move = position(&[&moves[..], &["b14"]].concat());
        let (c, value) = hard(&o_to_move);
        let mut after = o_to_move;
        after.play(c).unwrap();
        let threats = &mut Threats::new(&after);
        assert!(
            winning_threat(threats, 0, 10_000).is_none(),
            "{c} leaves h8's fork"
        );
        assert!(!matches!(value, Value::Loss(_)), "{value:?}");
    }

    #[test]
    fn a_hint_out_of_time_values_the_best_scored_points_first_and_a_budget_of_work_values_all() {
        let mut cut = 0;
        for board in random_positions(3, 41) {
            let threats = Threats::new(&board);
            let ranked: Vec<Cell> = ranked(&threats, side(board.to_move()))
                .into_iter()
                .map(|p| threats.cell(p))
                .collect();
            let cells = |meter| {
                let mut engine = Threat::new(Some(0), meter);
                let hint = Engine::hint(&mut engine, &board, Some(Duration::from_millis(1)));
                let mut cells: Vec<Cell> = hint.into_iter().map(|(c, _)| c).collect();
                cells.sort_by_key(|c| ranked.iter().position(|r| r == c));
                cells
            };
            let mut all = ranked.clone();
            all.sort_by_key(|c| c.index());
            let mut worked = cells(Meter::Work);
            worked.sort_by_key(|c| c.index());
            assert_eq!(worked, all, "{board}");
            let timed = cells(Meter::Clock);
            assert!(timed.len() >= HINT_LEAST, "{board}: {timed:?}");
            assert_eq!(timed[..], ranked[..timed.len()], "{board}");
            cut += usize::from(timed.len() < ranked.len());
        }
        assert!(cut > 0, "1 ms valued every point of every board");
    }

    #[test]
    fn hard_stops_the_opponents_victory_by_fours_wherever_one_point_does() {
        let mut defended = 0;
        for board in random_positions(120, 33) {
            let (me, them) = (side(board.to_move()), 1 - side(board.to_move()));
            let threats = Threats::new(&board);
            if has_vcf(&board, me) || !threats.fives(them).is_empty() || !has_vcf(&board, them) {
                continue;
            }
            let stops = |c: Cell| {
                let mut after = board;
                after.play(c).is_ok() && !has_vcf(&after, them)
            };
            if !board.legal_moves().into_iter().any(stops) {
                continue;
            }
            defended += 1;
            let (c, value) = hard(&board);
            assert!(stops(c), "{board}: {c} lets a victory by fours through");
            assert!(!matches!(value, Value::Loss(_)), "{board}: {value:?}");
        }
        assert!(defended >= 5, "{defended} positions to defend");
    }
}
