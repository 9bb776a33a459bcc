//! Everything around the board: the status and message lines, the line of keys, the help
//! overlay and the message for a terminal too small for the board.

use std::time::Duration;

use super::frame::{Frame, Palette, Style};
use crate::ai::player::Player;
use crate::game::clock;
use crate::rules::catalogue::Shape;
use crate::rules::classic::Mark;
use crate::rules::position::{self, Position};
use crate::ui::keypad::names_column;
use crate::ui::tui::app::{App, keys, review_keys};
use crate::ui::tui::keymap;

/// Frames of the spinner shown while the AI works.
const SPINNER: [char; 4] = ['◐', '◓', '◑', '◒'];

/// The message line: the app's message and, while the AI has been working on something for
/// `busy`, a spinner and, after the first second, the seconds.
pub(super) fn message_line(app: &App, busy: Option<Duration>) -> String {
    let message = app.message();
    match busy {
        None => message.to_string(),
        Some(busy) => {
            let frame = SPINNER[(busy.as_millis() / 200) as usize % SPINNER.len()];
            if busy >= Duration::from_secs(1) {
                format!("{message} {frame} {:.1} s", busy.as_secs_f32())
            } else {
                format!("{message} {frame}")
            }
        }
    }
}

/// `text` in lines of at most `width` characters, broken at spaces; a word longer than a line
/// (a ticket on a narrow terminal) is broken where the line ends.
pub(super) fn wrap(text: &str, width: u16) -> Vec<String> {
    if text.contains('\n') {
        return text
            .split('\n')
            .flat_map(|part| wrap(part, width))
            .collect();
    }
    let width = usize::from(width.max(1));
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let (len, word_len) = (line.chars().count(), word.chars().count());
        if !line.is_empty() && len + 1 + word_len <= width {
            line.push(' ');
            line.push_str(word);
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        let chars: Vec<char> = word.chars().collect();
        let mut pieces = chars.chunks(width).map(|c| c.iter().collect::<String>());
        line = pieces.next_back().unwrap_or_default();
        lines.extend(pieces);
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// The line of keys under the board, for what can be done now, as many as fit in `width`;
/// `keys` says how moves are typed (`1-9`). Where the line is too wide the keys before `?
/// keys` go first, the nearest first; `? keys` and `q quit` always stay.
pub(super) fn key_line(app: &App, keys: &str, width: u16) -> String {
    let fits = |line: &str| line.chars().count() <= usize::from(width);
    if let Some(leave) = app.confirming() {
        let long = format!("{} · any other key keeps playing", leave.answer());
        return if fits(&long) {
            long
        } else {
            format!("{} · other keys stay", leave.answer())
        };
    }
    let mut parts = key_parts(app, keys);
    loop {
        let line = parts.join(" · ");
        if fits(&line) || parts.len() <= 2 {
            return line;
        }
        parts.remove(parts.len() - 3);
    }
}

/// The keys that do something now, most needed first, ending with `? keys` and `q quit`.
fn key_parts(app: &App, keys: &str) -> Vec<String> {
    let humans = app.session().has_human();
    let parts: &[&str] = if app.watching().1 && app.review().is_none() {
        &["[ ] look back", "? keys", "q quit"]
    } else if app.is_network() && app.review().is_none() {
        if app.game().is_over() {
            &["n rematch", "r review", "? keys", "q quit"]
        } else {
            &["play", "h hint", "t explore", "? keys", "q quit"]
        }
    } else if app.review().is_some() && app.archived() {
        &[
            "← → step",
            "p play on",
            "w save",
            "7 first",
            "1 last",
            "t explore",
            "q Esc back",
        ]
    } else if app.review().is_some() {
        &[
            "← → step",
            "7 first",
            "1 last",
            "t explore",
            "w save",
            "r or Esc leave",
            "q quit",
        ]
    } else if app.game().is_over() {
        &[
            "n new round",
            "r review",
            "t explore",
            "w save",
            "? keys",
            "q quit",
        ]
    } else if humans {
        &[
            "play",
            "u undo",
            "h hint",
            "n new round",
            "t explore",
            "? keys",
            "q quit",
        ]
    } else {
        &["Space pause", "h hint", "n new round", "? keys", "q quit"]
    };
    // Hints off: neither `h` nor, during a game, `t` is offered. Where the board has a
    // column h (or n, q, t…), `h` is that column first: typed twice it is the key.
    let off = app.hints_off().is_some();
    let clocked = app.session().clock().is_some();
    let side = app.game().position().grid_side();
    // Once the game is over no coordinate is typed: a letter is its key at once.
    let typing = !app.game().is_over() || app.review().is_some();
    parts
        .iter()
        .filter(|&&p| !(off && p == "h hint" || p == "t explore" && !app.explorer_allowed()))
        // A game on a clock takes no undo.
        .filter(|&&p| !(clocked && p == "u undo"))
        .map(|&p| match p.split_once(' ') {
            _ if p == "play" => format!("{keys} play"),
            Some((key, what))
                if typing && key.len() == 1 && key.chars().all(|c| names_column(side, c)) =>
            {
                format!("{key} {key} {what}")
            }
            _ => p.to_string(),
        })
        .collect()
}

/// The score line, shortened to fit `width`: without the all-time score, then without
/// `Score: `, then without the spaces around `·`.
pub(super) fn score_line(app: &App, width: u16) -> String {
    let line = app.session().score_line();
    let fits = |line: &str| line.chars().count() <= usize::from(width);
    if fits(&line) {
        return line;
    }
    let current = line.split(" (all time").next().unwrap_or(&line).to_string();
    if fits(&current) {
        return current;
    }
    let bare = current.trim_start_matches("Score: ");
    if fits(bare) {
        bare.to_string()
    } else {
        bare.replace(" · ", "·")
    }
}

/// The players' line: whose turn it is, each mark's player in its colour (an AI with its
/// measured rating), and the result.
pub(super) fn draw_status(frame: &mut Frame, y: u16, app: &App, palette: Palette) {
    // The marker is beside whoever acts: in a swap opening, the player placing stones of
    // either colour or choosing one, by the colour they hold until the choice.
    let position = app.game().position();
    let turn = app.game().turn().map(|_| position.mark_of(position.seat()));
    let now = std::time::Instant::now();
    let clock_of = |mark: Mark| {
        let left = app.session().clock()?.left(position.seat_of(mark), now);
        Some((clock::shown(left), clock::is_short(left)))
    };
    let part = |mark: Mark, rated: bool| {
        let marker = if turn == Some(mark) { "▸ " } else { "" };
        let variant = app.game().variant();
        let rating = (app.game().player(mark).level())
            .and_then(|level| crate::ai::levels::rating(variant, level))
            .filter(|_| rated)
            .map_or_else(String::new, |r| format!(" (≈ {r})"));
        // How an online player is connected, beside their name (the first detail to go).
        let path = (app.game().player(mark) == Player::Remote)
            .then(|| app.net_path())
            .flatten()
            .filter(|_| rated)
            .map_or_else(String::new, |p| format!(" ({p})"));
        // Stones on points beside the marks they are, as the board draws them.
        let stone = if variant.shape() == Shape::Points {
            format!("{} ", super::gomoku::stone(mark))
        } else {
            String::new()
        };
        format!(
            "{marker}{stone}{mark}: {}{rating}{path}{}",
            app.session().name_of(mark),
            clock_of(mark).map_or_else(String::new, |(c, _)| format!(" {c}"))
        )
    };
    let state = match app.game().outcome() {
        _ if app.paused() => "  (paused)".to_string(),
        position::Outcome::Won(winner) => format!("   {winner} wins"),
        position::Outcome::Draw => "   draw".to_string(),
        position::Outcome::InProgress => String::new(),
    };
    // The ratings go first where the line would not fit.
    let lines = [true, false].map(|rated| {
        let (x_part, o_part) = (part(Mark::X, rated), part(Mark::O, rated));
        let line = format!("{x_part}   {o_part}{state}");
        (x_part, o_part, line)
    });
    let width = usize::from(frame.width());
    let fits = |line: &String| line.chars().count() <= width;
    let [rated, bare] = lines;
    let (x_part, o_part, line) = if fits(&rated.2) { rated } else { bare };
    frame.centred(y, &line, Style::PLAIN);
    // Colour the two marks' names where they landed.
    let start = (frame.width().saturating_sub(line.chars().count() as u16)) / 2;
    let o_start = start + x_part.chars().count() as u16 + 3;
    let style_x = Style::PLAIN.fg(palette.mark(Mark::X)).bold();
    let style_o = Style::PLAIN.fg(palette.mark(Mark::O)).bold();
    if fits(&line) {
        frame.text(start, y, &x_part, style_x);
        frame.text(o_start, y, &o_part, style_o);
        // A clock in its last ten seconds stands out.
        for (mark, part_start, part) in [(Mark::X, start, &x_part), (Mark::O, o_start, &o_part)] {
            if let Some((shown, true)) = clock_of(mark) {
                let at = part_start + (part.chars().count() - shown.chars().count()) as u16;
                frame.text(at, y, &shown, Style::PLAIN.reverse().bold());
            }
        }
    }
}

/// The help's last line, and the small box's.
const HELP_END: &str = "         ? the rules · any other key closes";
const SHORT_END: &str = "  any key closes this";

/// The width of the keys' column in the small box.
const SHORT_KEYS: usize = 8;

/// The keys of `position`'s game ([`keys::game_keys`]), full and in a small box; without the
/// hint where `hints` are off.
pub(super) fn keys_help(position: &Position, hints: bool) -> (Vec<String>, Vec<String>) {
    let mut full = keymap::lines(keys::game_keys(position, hints));
    full.push(HELP_END.into());
    let mut short = keymap::short_lines(keys::game_keys(position, hints), SHORT_KEYS);
    short.push(SHORT_END.into());
    (full, short)
}

/// The analysis board's keys on `position`'s board, full and in a small box.
pub(super) fn analysis_help(position: &Position) -> (Vec<String>, Vec<String>) {
    let mut full = keymap::lines(keys::analysis_keys(position));
    full.push(HELP_END.into());
    let mut short = keymap::short_lines(keys::analysis_keys(position), SHORT_KEYS);
    short.push(SHORT_END.into());
    (full, short)
}

/// The review's keys ([`review_keys`]), full and in a small box: of the game just played, or
/// of one of the history (`archived`).
pub(super) fn review_help(archived: bool) -> (Vec<String>, Vec<String>) {
    let mut full = keymap::lines(review_keys(archived));
    full.push(HELP_END.into());
    let mut short = keymap::short_lines(review_keys(archived), SHORT_KEYS);
    short.push(SHORT_END.into());
    (full, short)
}

/// The keys of each kind of board as the help overlay lists them, without its closing line,
/// for the manual: a title, then the lines. One source, so the manual cannot drift from `?`.
pub fn manual_keys() -> [(&'static str, Vec<String>); 3] {
    keys::every_board().map(|(title, map)| (title, keymap::lines(map)))
}

/// Draws `help` in a box, or `short` where the box would not fit the frame.
pub(super) fn draw_help<S: AsRef<str>>(frame: &mut Frame, help: &[S], short: &[S]) {
    let help: Vec<&str> = help.iter().map(AsRef::as_ref).collect();
    let short: Vec<&str> = short.iter().map(AsRef::as_ref).collect();
    let (w, h) = help_box(&help);
    let fits = w <= frame.width() && h <= frame.height();
    draw_box(frame, if fits { &help } else { &short });
}

/// The size of the box around `help`: a border and a space each side.
fn help_box(help: &[&str]) -> (u16, u16) {
    let inner = help.iter().map(|l| l.chars().count()).max().unwrap_or(0) as u16 + 2;
    (inner + 2, help.len() as u16 + 2)
}

/// The rules of the game in a box over the screen, cut to fit it: `?` twice.
pub(super) fn draw_rules(frame: &mut Frame, variant: crate::rules::position::Variant) {
    let lines = crate::report::rules::rules(variant);
    let room = usize::from(frame.height().saturating_sub(2));
    let mut shown: Vec<&str> = lines
        .iter()
        .map(String::as_str)
        .take(room.saturating_sub(1))
        .collect();
    shown.push("          any key closes");
    draw_titled(frame, " Rules ", &shown);
}

/// The page `page` of the first Ultimate game's lesson, in a box over the screen.
pub(super) fn draw_lesson(frame: &mut Frame, page: usize) {
    let Some((title, lines)) = crate::report::rules::ULTIMATE_LESSON.get(page) else {
        return;
    };
    let mut shown: Vec<&str> = vec![title, ""];
    shown.extend(lines.iter().filter(|l| !l.is_empty()));
    shown.extend(["", lesson_keys(page)]);
    draw_titled(frame, " Ultimate ", &shown);
}

/// The columns of a lesson beside the board: a box with its text wrapped to fit.
pub(super) const LESSON_PANEL: u16 = 38;

/// Lesson `page` in a box [`LESSON_PANEL`] wide from column `left`, its text wrapped to fit,
/// beside the board it explains instead of over it.
pub(super) fn draw_lesson_beside(frame: &mut Frame, page: usize, left: u16) {
    let Some((title, lines)) = crate::report::rules::ULTIMATE_LESSON.get(page) else {
        return;
    };
    let inner = LESSON_PANEL - 5;
    let text = lines.iter().filter(|l| !l.is_empty()).copied();
    let mut shown = wrap(title, inner);
    shown.push(String::new());
    shown.extend(wrap(&text.collect::<Vec<_>>().join(" "), inner));
    shown.extend([String::new(), lesson_keys(page).to_string()]);
    let shown: Vec<&str> = shown.iter().map(String::as_str).collect();
    let h = u16::try_from(shown.len())
        .unwrap_or(u16::MAX)
        .saturating_add(2);
    let top = frame.height().saturating_sub(h) / 2;
    draw_titled_at(
        frame,
        " Ultimate ",
        &shown,
        (left, top),
        (LESSON_PANEL - 1, h),
    );
}

/// What a key does on lesson `page`: the next page, or on the last one the game.
fn lesson_keys(page: usize) -> &'static str {
    if page + 1 >= crate::report::rules::ULTIMATE_LESSON.len() {
        "any key: play · Esc skips"
    } else {
        "any key: next · Esc skips"
    }
}

fn draw_box(frame: &mut Frame, help: &[&str]) {
    draw_titled(frame, " Keys ", help);
}

fn draw_titled(frame: &mut Frame, title: &str, help: &[&str]) {
    let (w, h) = help_box(help);
    let left = frame.width().saturating_sub(w) / 2;
    let top = frame.height().saturating_sub(h) / 2;
    // Over the game, the rows the box spans are cleared from edge to edge: no cut-off words
    // either side of it.
    for y in top..top.saturating_add(h) {
        frame.text(0, y, &" ".repeat(usize::from(frame.width())), Style::PLAIN);
    }
    draw_titled_at(frame, title, help, (left, top), (w, h));
}

/// A box of size (`w`, `h`) at (`left`, `top`) with `title` on its top border and `help`
/// inside.
fn draw_titled_at(
    frame: &mut Frame,
    title: &str,
    help: &[&str],
    (left, top): (u16, u16),
    (w, h): (u16, u16),
) {
    let style = Style::PLAIN.bold();
    for dy in 0..h {
        for dx in 0..w {
            let ch = match (dy, dx) {
                (0, 0) => '┌',
                (0, x) if x == w - 1 => '┐',
                (y, 0) if y == h - 1 => '└',
                (y, x) if y == h - 1 && x == w - 1 => '┘',
                (0, _) => '─',
                (y, _) if y == h - 1 => '─',
                (_, 0) => '│',
                (_, x) if x == w - 1 => '│',
                _ => ' ',
            };
            frame.put(left + dx, top + dy, ch, style);
        }
    }
    frame.text(left + 2, top, title, style);
    for (i, line) in help.iter().enumerate() {
        frame.text(left + 2, top + 1 + i as u16, line, Style::PLAIN);
    }
}
