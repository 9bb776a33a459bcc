//! *Your games* on the start screen: the history's games, newest first, filtered by rules and
//! by opponent, and the one to open on the board. Pure state: keys in, what to do out.

use chrono::{DateTime, FixedOffset, Local, Offset, TimeZone};

use crate::report::stats;
use crate::store::history::Entry;

/// The games of the history as the list shows them, with the highlighted one and the
/// filters.
#[derive(Clone, Debug, Default)]
pub struct GameList {
    /// Every game, oldest first (so game `i` is number `i + 1`, as `tictactoe history`
    /// numbers them).
    entries: Vec<Entry>,
    /// The highlighted row among the shown games.
    pub at: usize,
    /// Only games under these rules (`3×3, 3 in a row`), if set.
    pub rules: Option<String>,
    /// Only games against this opponent (`level 7 AI`, `two players`), if set.
    pub opponent: Option<String>,
}

/// What a key on the list asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    Stay,
    /// Open the game numbered so (from 1) on the board.
    Open(usize),
    /// Back to the rows.
    Back,
}

/// A key of the list, as the start screen reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListKey {
    Up,
    Down,
    /// Home: the newest game shown; End: the oldest.
    First,
    Last,
    /// Page up and page down: this many rows up or down.
    PageUp(usize),
    PageDown(usize),
    Enter,
    Back,
    /// `r`: the next rules filter.
    Rules,
    /// `o`: the next opponent filter.
    Opponent,
}

impl GameList {
    /// The list of `entries`, oldest first as the history keeps them.
    pub fn new(entries: Vec<Entry>) -> GameList {
        GameList {
            entries,
            ..GameList::default()
        }
    }

    /// The games shown, newest first: each with its number in the history and its columns
    /// (when, rules, opponent, result).
    pub fn shown(&self) -> Vec<(usize, [String; 4])> {
        self.entries
            .iter()
            .enumerate()
            .rev()
            .map(|(i, entry)| {
                let mut columns = stats::columns(entry);
                // A time that does not read as one stays as the history has it.
                if let Some(local) = when(&entry.time, local_offset(&entry.time)) {
                    columns[0] = local;
                }
                (i + 1, columns)
            })
            .filter(|(_, [_, rules, opponent, _])| {
                self.rules
                    .as_ref()
                    .is_none_or(|r| rules.trim_end_matches(", set up") == r)
                    && self.opponent.as_ref().is_none_or(|o| o == opponent)
            })
            .collect()
    }

    /// The game numbered `number` (from 1).
    pub fn entry(&self, number: usize) -> Option<&Entry> {
        self.entries.get(number.checked_sub(1)?)
    }

    /// Acts on one key.
    pub fn key(&mut self, key: ListKey) -> Choice {
        let shown = self.shown();
        let last = shown.len().saturating_sub(1);
        match key {
            ListKey::Up => self.at = self.at.saturating_sub(1),
            ListKey::Down => self.at = (self.at + 1).min(last),
            ListKey::First => self.at = 0,
            ListKey::Last => self.at = last,
            ListKey::PageUp(rows) => self.at = self.at.saturating_sub(rows),
            ListKey::PageDown(rows) => self.at = (self.at + rows).min(last),
            ListKey::Enter => {
                if let Some((number, _)) = shown.get(self.at) {
                    return Choice::Open(*number);
                }
            }
            ListKey::Back => return Choice::Back,
            ListKey::Rules => {
                let all = self.values(1);
                self.rules = next(&all, self.rules.take());
                self.at = 0;
            }
            ListKey::Opponent => {
                let all = self.values(2);
                self.opponent = next(&all, self.opponent.take());
                self.at = 0;
            }
        }
        Choice::Stay
    }

    /// The distinct values of column `i` over every game, in the order first met (the rules
    /// without `, set up`).
    fn values(&self, i: usize) -> Vec<String> {
        let mut values: Vec<String> = Vec::new();
        for entry in &self.entries {
            let column = stats::columns(entry)[i].clone();
            let value = column.trim_end_matches(", set up").to_string();
            if !values.contains(&value) {
                values.push(value);
            }
        }
        values
    }
}

/// The offset from UTC of the local zone at the moment `time` (as the history writes it,
/// `2026-11-25T10:00:00Z`); `None` where no local zone is set (no `TZ`, no `/etc/localtime`).
fn local_offset(time: &str) -> Option<FixedOffset> {
    let zone_set = std::env::var_os("TZ").is_some_and(|tz| !tz.is_empty())
        || !cfg!(unix)
        || std::path::Path::new("/etc/localtime").exists();
    let utc = DateTime::parse_from_rfc3339(time).ok()?.naive_utc();
    zone_set.then(|| Local.offset_from_utc_datetime(&utc).fix())
}

/// `time` as the list shows it: in the zone `offset` (`2026-11-25 11:00`), or in UTC and saying
/// so where there is none (`2026-11-25 10:00 UTC`); `None` if `time` is not a date and time.
fn when(time: &str, offset: Option<FixedOffset>) -> Option<String> {
    let at = DateTime::parse_from_rfc3339(time).ok()?;
    Some(match offset {
        Some(offset) => at
            .with_timezone(&offset)
            .format("%Y-%m-%d %H:%M")
            .to_string(),
        None => at.to_utc().format("%Y-%m-%d %H:%M UTC").to_string(),
    })
}

/// The filter after `now`: none, then each value in turn, then none again.
fn next(all: &[String], now: Option<String>) -> Option<String> {
    match now {
        None => all.first().cloned(),
        Some(now) => {
            let at = all.iter().position(|v| *v == now)?;
            all.get(at + 1).cloned()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::player::Player;
    use crate::game::record::Record;
    use crate::game::{Game, GameEnd};
    use crate::rules::position::Variant;

    fn entry(variant: Variant, o: Player, moves: &[&str]) -> Entry {
        let record = Record::parse(variant, moves).unwrap();
        let mut game = Game::new(variant, Player::Human, o);
        for &mv in record.moves() {
            game.play(mv).unwrap();
        }
        let end = if game.is_over() {
            GameEnd::Finished
        } else {
            GameEnd::Abandoned
        };
        Entry {
            time: "2026-11-25T10:00:00Z".into(),
            game,
            end,
        }
    }

    fn list() -> GameList {
        let classic = Variant::default();
        GameList::new(vec![
            entry(classic, Player::EASY, &["7", "1", "8", "2", "9"]),
            entry(Variant::Ultimate, Player::HARD, &["55", "51"]),
            entry(classic, Player::HARD, &["5", "1"]),
        ])
    }

    #[test]
    fn games_are_listed_newest_first_with_their_history_numbers() {
        let numbers: Vec<usize> = list().shown().iter().map(|(n, _)| *n).collect();
        assert_eq!(numbers, [3, 2, 1]);
        let mut list = list();
        assert_eq!(list.key(ListKey::Enter), Choice::Open(3));
        list.key(ListKey::Down);
        list.key(ListKey::Down);
        list.key(ListKey::Down);
        assert_eq!(
            list.key(ListKey::Enter),
            Choice::Open(1),
            "the oldest, last"
        );
        assert_eq!(list.entry(1).unwrap().game.history().len(), 5);
    }

    #[test]
    fn filters_cycle_through_the_rules_and_opponents_met_and_back_to_all() {
        let mut list = list();
        list.key(ListKey::Rules);
        assert_eq!(list.rules.as_deref(), Some("3×3, 3 in a row"));
        assert_eq!(list.shown().len(), 2);
        list.key(ListKey::Opponent);
        assert_eq!(list.opponent.as_deref(), Some("level 1 AI"));
        let numbers: Vec<usize> = list.shown().iter().map(|(n, _)| *n).collect();
        assert_eq!(numbers, [1]);
        list.key(ListKey::Rules);
        list.key(ListKey::Rules);
        assert_eq!(list.rules, None, "after the last rules, all again");
        list.key(ListKey::Opponent);
        list.key(ListKey::Opponent);
        assert_eq!(list.opponent, None);
        assert_eq!(list.shown().len(), 3);
    }

    #[test]
    fn the_rules_filter_keeps_misere_apart_from_the_normal_game() {
        let misere = Variant::Classic(crate::rules::classic::Rules::new(3, 3, true).unwrap());
        let mut list = GameList::new(vec![
            entry(Variant::default(), Player::EASY, &["5", "1"]),
            entry(misere, Player::EASY, &["5", "1"]),
        ]);
        list.key(ListKey::Rules);
        assert_eq!(list.rules.as_deref(), Some("3×3, 3 in a row"));
        let numbers: Vec<usize> = list.shown().iter().map(|(n, _)| *n).collect();
        assert_eq!(numbers, [1], "the misère game is not a normal one");
        list.key(ListKey::Rules);
        let numbers: Vec<usize> = list.shown().iter().map(|(n, _)| *n).collect();
        assert_eq!(numbers, [2]);
    }

    #[test]
    fn home_end_and_the_page_keys_move_through_the_list() {
        let mut list = list();
        list.key(ListKey::Last);
        assert_eq!(list.key(ListKey::Enter), Choice::Open(1), "End: the oldest");
        list.key(ListKey::First);
        assert_eq!(
            list.key(ListKey::Enter),
            Choice::Open(3),
            "Home: the newest"
        );
        list.key(ListKey::PageDown(2));
        assert_eq!(list.at, 2);
        list.key(ListKey::PageDown(2));
        assert_eq!(list.at, 2, "no further than the last");
        list.key(ListKey::PageUp(5));
        assert_eq!(list.at, 0, "no further than the first");
    }

    #[test]
    fn times_are_shown_in_the_local_zone_or_in_utc_saying_so() {
        let time = "2026-11-25T23:30:00Z";
        let tokyo = FixedOffset::east_opt(9 * 3600);
        assert_eq!(when(time, tokyo).as_deref(), Some("2026-11-26 08:30"));
        assert_eq!(when(time, None).as_deref(), Some("2026-11-25 23:30 UTC"));
        assert_eq!(when("yesterday", tokyo), None);
    }

    #[test]
    fn an_empty_list_opens_nothing() {
        let mut list = GameList::new(Vec::new());
        list.key(ListKey::Down);
        assert_eq!(list.key(ListKey::Enter), Choice::Stay);
        assert_eq!(list.key(ListKey::Back), Choice::Back);
    }
}
