//! What the history says: `tictactoe stats` (won, drawn and lost per opponent and per rules,
//! and streaks, as text or JSON) and `tictactoe history` (the games, numbered, oldest first).

use std::io::{self, Write};

use serde::Serialize;

use crate::ai::levels::{Adaptive, Level};
use crate::ai::player::Player;
use crate::game::{Tally, Verdict};
use crate::rules::classic::Mark;
use crate::rules::position::{Outcome, Variant};
use crate::store::history::Entry;

/// Results against one opponent, or under one set of rules.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Row {
    /// `level 7 AI`, `remote player`; or `3×3, 3 in a row`, `Ultimate`.
    pub name: String,
    #[serde(flatten)]
    pub tally: Tally,
}

/// A run of equal results.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Run {
    pub result: Verdict,
    pub games: u32,
}

/// The streaks of the person's games, in the order they were played.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Streaks {
    /// The run the last games make, if any.
    pub current: Option<Run>,
    /// The most wins in a row.
    pub best_wins: u32,
    /// The most games in a row without a loss.
    pub best_unbeaten: u32,
}

/// The statistics of a history. Only the games [`Game::counts`](crate::game::Game::counts)
/// counts are won, drawn or lost: one person against an AI or over the network, from the
/// empty board, finished or (against an AI) abandoned.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Stats {
    /// The games that count: `total`'s won, drawn and lost added up.
    pub games: u32,
    /// Every game in the history, those that count and those that do not.
    pub kept: usize,
    pub total: Tally,
    pub opponents: Vec<Row>,
    pub rules: Vec<Row>,
    pub streaks: Streaks,
    /// The person's rating on each board where the levels were measured and they played an
    /// AI, as `--level auto` follows it.
    pub ratings: Vec<Rating>,
}

/// The person's rating on one board: where it stands, and where it stood after each game
/// against an AI there, oldest first (the first entry is the start, level 4's rating).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Rating {
    /// `3×3, 3 in a row`, `Ultimate`.
    pub rules: String,
    pub rating: i32,
    pub history: Vec<i32>,
}

impl Rating {
    /// The rating on `variant` after the counted `results` against AI levels, oldest first;
    /// `None` where the board's levels were not measured.
    pub fn of(variant: Variant, results: &[(Level, Verdict)]) -> Option<Rating> {
        let mut adaptive = Adaptive::new(variant, []);
        let mut history = vec![adaptive.rating()?];
        for &(level, verdict) in results {
            adaptive.record(level, verdict.points());
            history.extend(adaptive.rating());
        }
        Some(Rating {
            rules: variant.to_string(),
            rating: *history.last()?,
            history,
        })
    }
}

/// The ratings of every board where the person played an AI, in the order first played.
fn ratings(entries: &[Entry]) -> Vec<Rating> {
    let mut boards: Vec<(Variant, Vec<(Level, Verdict)>)> = Vec::new();
    for entry in entries {
        let Some((Some(level), verdict)) = entry.counted().map(|(o, v)| (o.level(), v)) else {
            continue;
        };
        let variant = entry.game.variant();
        match boards.iter_mut().find(|(v, _)| *v == variant) {
            Some((_, results)) => results.push((level, verdict)),
            None => boards.push((variant, vec![(level, verdict)])),
        }
    }
    boards
        .iter()
        .filter_map(|(variant, results)| Rating::of(*variant, results))
        .collect()
}

/// A rating's history as a line of block characters, lowest to highest (at most the last
/// `width` values); with `ascii`, as the digits 0 to 9.
pub fn sparkline(values: &[i32], width: usize, ascii: bool) -> String {
    const BLOCKS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    let values = &values[values.len().saturating_sub(width)..];
    let (Some(&low), Some(&high)) = (values.iter().min(), values.iter().max()) else {
        return String::new();
    };
    let steps = if ascii { 10 } else { BLOCKS.len() };
    values
        .iter()
        .map(|&v| {
            let span = i64::from(high - low).max(1);
            let at = (i64::from(v - low) * (steps as i64 - 1) + span / 2) / span;
            let at = at as usize;
            if ascii {
                char::from(b'0' + at as u8)
            } else {
                BLOCKS[at]
            }
        })
        .collect()
}

impl Stats {
    pub fn of(entries: &[Entry]) -> Stats {
        let mut stats = Stats {
            games: 0,
            kept: entries.len(),
            total: Tally::default(),
            opponents: Vec::new(),
            rules: Vec::new(),
            streaks: Streaks::default(),
            ratings: ratings(entries),
        };
        let (mut wins, mut unbeaten) = (0, 0);
        for entry in entries {
            let Some((opponent, verdict)) = entry.counted() else {
                continue;
            };
            stats.total.add(verdict);
            add(&mut stats.opponents, opponent_name(opponent), verdict);
            add(&mut stats.rules, entry.game.variant().to_string(), verdict);
            let streaks = &mut stats.streaks;
            streaks.current = match streaks.current {
                Some(run) if run.result == verdict => Some(Run {
                    games: run.games.saturating_add(1),
                    ..run
                }),
                _ => Some(Run {
                    result: verdict,
                    games: 1,
                }),
            };
            wins = if verdict == Verdict::Won { wins + 1 } else { 0 };
            unbeaten = if verdict == Verdict::Lost {
                0
            } else {
                unbeaten + 1
            };
            streaks.best_wins = streaks.best_wins.max(wins);
            streaks.best_unbeaten = streaks.best_unbeaten.max(unbeaten);
        }
        stats.opponents.sort_by_key(|row| opponent_rank(&row.name));
        stats.games = stats.total.games();
        stats
    }
}

/// Counts `verdict` in the row called `name`, added at the end if new.
fn add(rows: &mut Vec<Row>, name: String, verdict: Verdict) {
    let at = rows
        .iter()
        .position(|row| row.name == name)
        .unwrap_or_else(|| {
            rows.push(Row {
                name,
                tally: Tally::default(),
            });
            rows.len() - 1
        });
    rows[at].tally.add(verdict);
}

/// `level 7 AI`, or `remote player`.
fn opponent_name(player: Player) -> String {
    match player {
        Player::Remote => "remote player".to_string(),
        ai => format!("{ai} AI"),
    }
}

/// Opponents from the easiest AI up, then remote players.
fn opponent_rank(name: &str) -> usize {
    crate::ai::levels::Level::all()
        .map(Player::Ai)
        .chain([Player::Remote])
        .position(|p| opponent_name(p) == name)
        .unwrap_or(usize::MAX)
}

/// `3 wins`, `1 draw`, `2 losses`.
fn games(n: u32, verdict: Verdict) -> String {
    let (one, many) = match verdict {
        Verdict::Won => ("win", "wins"),
        Verdict::Drawn => ("draw", "draws"),
        Verdict::Lost => ("loss", "losses"),
    };
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `tictactoe stats`: the statistics of `entries`, as text or (`json`) one JSON object.
/// With `ascii`, the ratings' sparklines are drawn in digits.
pub fn run(json: bool, ascii: bool, entries: &[Entry], out: &mut dyn Write) -> io::Result<()> {
    let stats = Stats::of(entries);
    if json {
        write_json(out, &stats)
    } else {
        write_text(out, &stats, ascii)
    }
}

/// `tictactoe stats` as text.
pub fn write_text(out: &mut dyn Write, stats: &Stats, ascii: bool) -> io::Result<()> {
    let others = stats.kept - stats.games as usize;
    let others = match others {
        0 => String::new(),
        1 => " (1 more game kept that does not count: between two people, set up at a position, or a network game left unfinished)".to_string(),
        n => format!(
            " ({n} more games kept that do not count: between two people, set up at a position, or a network game left unfinished)"
        ),
    };
    if stats.games == 0 {
        writeln!(out, "No games that count in the history yet{others}.")?;
        return Ok(());
    }
    let t = stats.total;
    writeln!(
        out,
        "{} against an AI or over the network: won {}, drawn {}, lost {}{others}.",
        plural(stats.games, "game"),
        t.won,
        t.drawn,
        t.lost
    )?;
    for (title, rows) in [("Opponent", &stats.opponents), ("Rules", &stats.rules)] {
        let width = rows
            .iter()
            .map(|r| r.name.chars().count())
            .chain([title.len()])
            .max()
            .unwrap_or(0);
        writeln!(out)?;
        writeln!(out, "{title:width$}   Won  Drawn  Lost")?;
        for row in rows {
            let (name, t) = (&row.name, row.tally);
            let pad = width - name.chars().count();
            writeln!(
                out,
                "{name}{:pad$}  {:>4}  {:>5}  {:>4}",
                "", t.won, t.drawn, t.lost
            )?;
        }
    }
    write_ratings(out, &stats.ratings, ascii)?;
    writeln!(out)?;
    let streaks = stats.streaks;
    if let Some(run) = streaks.current {
        writeln!(out, "Current streak: {}.", games(run.games, run.result))?;
    }
    writeln!(
        out,
        "Best: {} in a row, {} without a loss.",
        games(streaks.best_wins, Verdict::Won),
        plural(streaks.best_unbeaten, "game")
    )
}

/// The most ratings a sparkline shows: the last ones.
const SPARKLINE_WIDTH: usize = 40;

/// The ratings, one line a board: `Your rating on 3×3, 3 in a row: 446 (from 414 over 4
/// games) ▄▅▆▅▇`, the sparkline saying when it shows only the last games.
fn write_ratings(out: &mut dyn Write, ratings: &[Rating], ascii: bool) -> io::Result<()> {
    if ratings.is_empty() {
        return Ok(());
    }
    writeln!(out)?;
    for rating in ratings {
        let start = rating.history.first().copied().unwrap_or(rating.rating);
        let last = if rating.history.len() > SPARKLINE_WIDTH {
            format!(" (the last {SPARKLINE_WIDTH})")
        } else {
            String::new()
        };
        writeln!(
            out,
            "Your rating on {}: {} (from {start} over {}) {}{last}",
            rating.rules,
            rating.rating,
            plural(rating.history.len() as u32 - 1, "game"),
            sparkline(&rating.history, SPARKLINE_WIDTH, ascii)
        )?;
    }
    Ok(())
}

fn plural(n: u32, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

/// `tictactoe stats --json`: one JSON object.
pub fn write_json(out: &mut dyn Write, stats: &Stats) -> io::Result<()> {
    serde_json::to_writer(&mut *out, stats)?;
    writeln!(out)
}

/// `tictactoe history`: one line per game, numbered from 1, oldest first: when it ended,
/// the rules, the opponent, the result and the number of moves.
pub fn write_list(out: &mut dyn Write, entries: &[Entry]) -> io::Result<()> {
    if entries.is_empty() {
        return writeln!(out, "No games in the history yet.");
    }
    let rows: Vec<[String; 4]> = entries.iter().map(columns).collect();
    let number = entries.len().to_string().len().max(1);
    let widths: Vec<usize> = (0..4)
        .map(|i| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0))
        .collect();
    let (rules, opponent, results) = (widths[1].max(5), widths[2].max(8), widths[3].max(6));
    writeln!(
        out,
        "{:>number$}  {:16}  {:rules$}  {:opponent$}  {:results$}  Moves",
        "#", "Ended (UTC)", "Rules", "Opponent", "Result"
    )?;
    for (i, (row, entry)) in rows.iter().zip(entries).enumerate() {
        let [when, r, o, result] = row;
        let pad = |text: &str, width: usize| width.saturating_sub(text.chars().count());
        writeln!(
            out,
            "{:>number$}  {when:16}  {r}{:p1$}  {o}{:p2$}  {result:results$}  {:>5}",
            i + 1,
            "",
            "",
            entry.game.history().len(),
            p1 = pad(r, rules),
            p2 = pad(o, opponent),
        )?;
    }
    Ok(())
}

/// The text columns of one game as `tictactoe history` lists it: when, rules (`, set up`
/// after them for a game set up at a position), opponent, result.
pub fn columns(entry: &Entry) -> [String; 4] {
    let game = &entry.game;
    let when: String = entry
        .time
        .chars()
        .take(16)
        .collect::<String>()
        .replace('T', " ");
    let (x, o) = (game.player(Mark::X), game.player(Mark::O));
    let opponent = match entry.opponent() {
        Some(p) => opponent_name(p),
        None if x.is_human() => "two players".to_string(),
        None => format!("{x} AI v {o} AI"),
    };
    let result = match (game.verdict(), game.outcome()) {
        (Some(Verdict::Won), _) => "won".to_string(),
        (Some(Verdict::Drawn), _) | (None, Outcome::Draw) => "drawn".to_string(),
        (Some(Verdict::Lost), _) => "lost".to_string(),
        (None, Outcome::Won(mark)) => format!("{mark} won"),
        (None, Outcome::InProgress) if entry.counted().is_some() => "left, lost".to_string(),
        (None, Outcome::InProgress) => "left".to_string(),
    };
    let mut rules = game.variant().to_string();
    if game.setup() > 0 {
        rules.push_str(", set up");
    }
    [when, rules, opponent, result]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::record::Record;
    use crate::game::{Game, GameEnd};

    fn entry(x: Player, o: Player, moves: &[&str]) -> Entry {
        let record = Record::parse(Variant::default(), moves).unwrap();
        let mut game = Game::new(Variant::default(), x, o);
        for &mv in record.moves() {
            game.play(mv).unwrap();
        }
        Entry {
            time: "2025-03-01T18:04:05Z".into(),
            game,
            end: crate::game::GameEnd::Finished,
        }
    }

    const X_WINS: &[&str] = &["7", "1", "8", "2", "9"];
    const DRAW: &[&str] = &["5", "1", "9", "7", "4", "6", "3", "2", "8"];

    #[test]
    fn results_count_per_opponent_with_streaks() {
        use Player::Human;
        const EASY: Player = Player::EASY;
        const HARD: Player = Player::HARD;
        let entries = [
            entry(Human, EASY, X_WINS),
            entry(Human, EASY, X_WINS),
            entry(HARD, Human, X_WINS),
            entry(Human, HARD, DRAW),
            entry(Human, Human, X_WINS),
            entry(HARD, Human, DRAW),
        ];
        let stats = Stats::of(&entries);
        assert_eq!((stats.games, stats.kept), (5, 6));
        let tally = |won, drawn, lost| Tally { won, drawn, lost };
        assert_eq!(stats.total, tally(2, 2, 1));
        assert_eq!(
            stats.opponents,
            [
                Row {
                    name: "level 1 AI".into(),
                    tally: tally(2, 0, 0)
                },
                Row {
                    name: "level 7 AI".into(),
                    tally: tally(0, 2, 1)
                },
            ]
        );
        assert_eq!(stats.rules[0].name, "3×3, 3 in a row");
        let current = Some(Run {
            result: Verdict::Drawn,
            games: 2,
        });
        assert_eq!(
            stats.streaks,
            Streaks {
                current,
                best_wins: 2,
                best_unbeaten: 2
            }
        );
    }

    /// A game of `moves` set up at its first `setup` moves, ended as `end`.
    fn kept(x: Player, o: Player, moves: &[&str], setup: usize, end: GameEnd) -> Entry {
        let record = Record::parse(Variant::default(), moves).unwrap();
        let opening = Record::new(Variant::default(), record.moves()[..setup].to_vec()).unwrap();
        let mut game = Game::from_record(&opening, x, o);
        for &mv in &record.moves()[setup..] {
            game.play(mv).unwrap();
        }
        Entry {
            time: "2025-03-01T18:04:05Z".into(),
            game,
            end,
        }
    }

    #[test]
    fn text_and_json_count_the_same_games_and_say_how_many_do_not_count() {
        use Player::Human;
        let entries = [
            entry(Human, Player::EASY, X_WINS),
            entry(Human, Human, X_WINS),
            kept(
                Player::HARD,
                Human,
                &["5", "1", "9", "7", "3", "4"],
                5,
                GameEnd::Finished,
            ),
            kept(Human, Player::EASY, &["5", "1"], 0, GameEnd::Abandoned),
            kept(Human, Player::Remote, &["5", "1"], 0, GameEnd::Abandoned),
        ];
        let stats = Stats::of(&entries);
        assert_eq!((stats.games, stats.kept), (2, 5));
        assert_eq!(
            stats.total,
            Tally {
                won: 1,
                drawn: 0,
                lost: 1
            },
            "the left game against level 1 is lost"
        );
        let mut text = Vec::new();
        write_text(&mut text, &stats, true).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(
            text.starts_with("2 games against an AI or over the network: won 1, drawn 0, lost 1 (3 more games kept that do not count"),
            "{text}"
        );
        let mut json = Vec::new();
        write_json(&mut json, &stats).unwrap();
        let json: serde_json::Value = serde_json::from_slice(&json).unwrap();
        assert_eq!(
            (json["games"].as_u64(), json["kept"].as_u64()),
            (Some(2), Some(5))
        );
    }

    #[test]
    fn the_rating_moves_with_each_counted_game_against_an_ai() {
        let entries = [
            entry(Player::Human, Player::Ai(Level::new(4).unwrap()), X_WINS),
            entry(Player::Human, Player::Human, X_WINS),
            kept(
                Player::Human,
                Player::HARD,
                &["5", "1"],
                0,
                GameEnd::Abandoned,
            ),
        ];
        let stats = Stats::of(&entries);
        let [rating] = &stats.ratings[..] else {
            panic!("{:?}", stats.ratings);
        };
        let start = crate::ai::levels::rating(Variant::default(), Adaptive::MIDDLE).unwrap();
        assert_eq!(
            rating.history.len(),
            3,
            "the start and two games: {rating:?}"
        );
        assert_eq!(rating.history[0], start);
        assert!(rating.history[1] > start, "a win against level 4");
        assert!(
            rating.history[2] < rating.history[1],
            "a game left against level 7"
        );
        assert_eq!(rating.rating, rating.history[2]);
    }

    #[test]
    fn a_sparkline_of_more_ratings_than_it_shows_says_it_shows_the_last_ones() {
        let rating = |n: i32| Rating {
            rules: "3×3, 3 in a row".into(),
            rating: 400 + n,
            history: (0..n).map(|i| 400 + i).collect(),
        };
        let mut text = Vec::new();
        write_ratings(&mut text, &[rating(41), rating(40)], true).unwrap();
        let text = String::from_utf8(text).unwrap();
        let lines: Vec<&str> = text.lines().filter(|l| !l.is_empty()).collect();
        assert!(lines[0].ends_with(" (the last 40)"), "{}", lines[0]);
        assert!(!lines[1].contains("the last"), "{}", lines[1]);
    }

    #[test]
    fn sparklines_run_from_the_lowest_value_to_the_highest() {
        assert_eq!(sparkline(&[400, 450, 500], 40, false), "▁▅█");
        assert_eq!(sparkline(&[400, 450, 500], 40, true), "059");
        assert_eq!(sparkline(&[7, 7], 40, true), "00");
        assert_eq!(
            sparkline(&[1, 2, 3, 4], 2, true),
            "09",
            "only the last values"
        );
        assert_eq!(sparkline(&[], 40, false), "");
    }

    #[test]
    fn the_list_numbers_games_oldest_first() {
        let entries = [
            entry(Player::Human, Player::HARD, DRAW),
            entry(Player::Human, Player::Human, X_WINS),
        ];
        let mut out = Vec::new();
        write_list(&mut out, &entries).unwrap();
        let text = String::from_utf8(out).unwrap();
        #[rustfmt::skip]
        assert_eq!(text, "\
#  Ended (UTC)       Rules            Opponent     Result  Moves
1  2025-03-01 18:04  3×3, 3 in a row  level 7 AI   drawn       9
2  2025-03-01 18:04  3×3, 3 in a row  two players  X won       5
");
    }
}
