//! A screen's keys as data: each [`Binding`] names its keys, says what they do, and gives the
//! screen its command. The screen looks a key up in its own map to act on it, and its help
//! (the `?` box, the small box, the manual's key list) is written from the same map, so what
//! the help says is what the keys do.

use crate::ui::tui::input::Action;

/// The width of the keys' column in the help, before what they do.
const KEYS_WIDTH: usize = 13;

/// One line (or a few) of a screen's keys.
pub struct Binding<C> {
    /// The keys, as the help names them: `u`, `q Esc Ctrl-C`.
    pub keys: &'static str,
    /// What they do: the first line beside the keys, the others below it.
    pub does: &'static [&'static str],
    /// The keys and their words in the small box, where it has a line for them.
    pub short: Option<(&'static str, &'static str)>,
    /// The actions that give the command; none for a line that only tells (how cells are
    /// typed, what values mean).
    pub on: &'static [Action],
    pub command: Option<C>,
}

impl<C: Copy> Binding<C> {
    /// A line that only tells, giving no command.
    pub const fn note(keys: &'static str, does: &'static [&'static str]) -> Binding<C> {
        Binding {
            keys,
            does,
            short: None,
            on: &[],
            command: None,
        }
    }

    /// Keys `on` that give `command` and that another line of the help tells of (the arrows
    /// beside the digits that go into a move, say), or none does.
    pub const fn hidden(on: &'static [Action], command: C) -> Binding<C> {
        Binding {
            keys: "",
            does: &[],
            short: None,
            on,
            command: Some(command),
        }
    }

    /// Keys `on` that give `command`.
    pub const fn command(
        keys: &'static str,
        does: &'static [&'static str],
        on: &'static [Action],
        command: C,
    ) -> Binding<C> {
        Binding {
            keys,
            does,
            short: None,
            on,
            command: Some(command),
        }
    }

    /// The same, with a line in the small box.
    pub const fn short(self, keys: &'static str, does: &'static str) -> Binding<C> {
        Binding {
            short: Some((keys, does)),
            ..self
        }
    }
}

/// The command `action` gives on a screen whose keys are `map`, if any.
pub fn command<'a, C: Copy + 'a>(
    map: impl IntoIterator<Item = &'a Binding<C>>,
    action: &Action,
) -> Option<C> {
    map.into_iter()
        .find(|b| b.on.contains(action))
        .and_then(|b| b.command)
}

/// The help's lines for `map`: the keys in a column, what they do beside them.
pub fn lines<'a, C: 'a>(map: impl IntoIterator<Item = &'a Binding<C>>) -> Vec<String> {
    let mut lines = Vec::new();
    for binding in map.into_iter().filter(|b| !b.keys.is_empty()) {
        let mut does = binding.does.iter();
        let first = does.next().copied().unwrap_or_default();
        lines.push(
            format!("{:<w$}{first}", binding.keys, w = KEYS_WIDTH)
                .trim_end()
                .to_string(),
        );
        lines.extend(does.map(|more| format!("{:<w$}{more}", "", w = KEYS_WIDTH)));
    }
    lines
}

/// The small box's lines for `map`, the keys in a column `width` wide.
pub fn short_lines<'a, C: 'a>(
    map: impl IntoIterator<Item = &'a Binding<C>>,
    width: usize,
) -> Vec<String> {
    map.into_iter()
        .filter_map(|b| b.short)
        .map(|(keys, does)| format!("{keys:<width$}{does}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Debug, PartialEq)]
    enum Thing {
        Undo,
    }

    const MAP: [Binding<Thing>; 2] = [
        Binding::note("1-9", &["play that cell:", "7 8 9 is the top row"]),
        Binding::command("u", &["undo"], &[Action::Undo], Thing::Undo).short("u", "undo"),
    ];

    #[test]
    fn a_key_gives_the_command_of_the_binding_that_lists_it_and_a_note_gives_none() {
        assert_eq!(command(&MAP, &Action::Undo), Some(Thing::Undo));
        assert_eq!(command(&MAP, &Action::Digit(5)), None);
    }

    #[test]
    fn the_help_puts_the_keys_in_a_column_and_more_lines_under_the_first() {
        assert_eq!(
            lines(&MAP),
            [
                "1-9          play that cell:",
                "             7 8 9 is the top row",
                "u            undo"
            ]
        );
        assert_eq!(short_lines(&MAP, 8), ["u       undo"]);
    }
}
