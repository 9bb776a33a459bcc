//! What the history says: `tictactoe stats` (won, drawn and lost per opponent and per rules,
//! and streaks, as text or JSON) and `tictactoe history` (the games, numbered, oldest first).

use std::io::{self, Write};

use serde::Serialize;

use crate::board::Mark;
use crate::game::{Tally, Verdict};
use crate::history::Entry;
use crate::player::Player;
use crate::position::Outcome;

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

/// The statistics of a history. Only games one person played (against an AI or over the
/// network) count as won, drawn or lost.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Stats {
    /// Every game in the history.
    pub games: usize,
    pub total: Tally,
    pub opponents: Vec<Row>,
    pub rules: Vec<Row>,
    pub streaks: Streaks,
}

impl Stats {
    pub fn of(entries: &[Entry]) -> Stats {
        let mut stats = Stats {
            games: entries.len(),
            total: Tally::default(),
            opponents: Vec::new(),
            rules: Vec::new(),
            streaks: Streaks::default(),
        };
        let (mut wins, mut unbeaten) = (0, 0);
        for entry in entries {
            let (Some(opponent), Some(verdict)) = (entry.opponent(), entry.game.verdict()) else {
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
    crate::levels::Level::all()
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
pub fn run(json: bool, entries: &[Entry], out: &mut dyn Write) -> io::Result<()> {
    let stats = Stats::of(entries);
    if json {
        write_json(out, &stats)
    } else {
        write_text(out, &stats)
    }
}

/// `tictactoe stats` as text.
pub fn write_text(out: &mut dyn Write, stats: &Stats) -> io::Result<()> {
    if stats.total.games() == 0 {
        writeln!(
            out,
            "No games against an AI or over the network in the history yet ({} in all).",
            stats.games
        )?;
        return Ok(());
    }
    let t = stats.total;
    writeln!(
        out,
        "{} against an AI or over the network: won {}, drawn {}, lost {}.",
        plural(t.games(), "game"),
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
    let rows: Vec<[String; 4]> = entries.iter().map(row).collect();
    let number = entries.len().to_string().len().max(1);
    let widths: Vec<usize> = (0..3)
        .map(|i| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0))
        .collect();
    let (rules, opponent) = (widths[1].max(5), widths[2].max(8));
    writeln!(
        out,
        "{:>number$}  {:16}  {:rules$}  {:opponent$}  {:6}  Moves",
        "#", "Ended (UTC)", "Rules", "Opponent", "Result"
    )?;
    for (i, (row, entry)) in rows.iter().zip(entries).enumerate() {
        let [when, r, o, result] = row;
        let pad = |text: &str, width: usize| width.saturating_sub(text.chars().count());
        writeln!(
            out,
            "{:>number$}  {when:16}  {r}{:p1$}  {o}{:p2$}  {result:6}  {:>5}",
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

/// The text columns of one game: when, rules, opponent, result.
fn row(entry: &Entry) -> [String; 4] {
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
        (None, Outcome::InProgress) => String::new(),
    };
    [when, game.variant().to_string(), opponent, result]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::position::Variant;
    use crate::record::Record;

    fn entry(x: Player, o: Player, moves: &[&str]) -> Entry {
        let record = Record::parse(Variant::default(), moves).unwrap();
        let mut game = Game::new(Variant::default(), x, o);
        for &mv in record.moves() {
            game.play(mv).unwrap();
        }
        Entry {
            time: "2025-03-01T18:04:05Z".into(),
            game,
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
        assert_eq!(stats.games, 6);
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
