//! The start screen drawn from the menu's state: the rows with their values, the join
//! screen and the statistics.

use super::frame::{Frame, Palette, Style};
use crate::ai::levels::Level;
use crate::rules::classic::Rules;
use crate::ui::tui::menu::{Choices, Menu, Row, Screen};

/// The width of the rows' block: digit, label, value.
const BLOCK: u16 = 44;

/// The keys of the rows screen, widest first; the first that fits is shown.
const KEYS: [&str; 4] = [
    "1-9 0 ↑↓ choose · ←→ change · Enter start · ? rules · s settings · q quit",
    "↑↓ choose · ←→ change · Enter · ? rules · s settings · q quit",
    "↑↓ ←→ Enter · ? rules · s settings · q quit",
    "↑↓ ←→ Enter · ? · s · q quit",
];

/// The whole start screen for the menu's state.
pub fn render(menu: &Menu, color: bool) -> Frame {
    let (width, height) = menu.size;
    let mut frame = Frame::new(width, height);
    let palette = Palette { color };
    match &menu.screen {
        Screen::Rows => rows(&mut frame, menu, palette),
        Screen::Joining { code } => joining(&mut frame, menu, code.as_deref()),
        Screen::Statistics(lines) => statistics(&mut frame, "Your statistics", lines),
        Screen::Rules => {
            let lines = crate::report::rules::rules(menu.choices.variant());
            statistics(&mut frame, "Rules", &lines);
        }
        Screen::Ladder => statistics(&mut frame, "Ladder", &ladder(menu)),
        Screen::Games => games(&mut frame, menu),
        Screen::OpenFile(path) => open_file(&mut frame, menu, path),
        Screen::Settings => settings(&mut frame, menu),
    }
    frame
}

/// The first row of a block of `lines` centred in the frame's height.
fn top(frame: &Frame, lines: u16) -> u16 {
    frame.height().saturating_sub(lines) / 2
}

fn rows(frame: &mut Frame, menu: &Menu, palette: Palette) {
    let count = u16::try_from(Row::ALL.len()).unwrap_or(10);
    // On a screen too short for the line under the title, the rows start right below it.
    let short = frame.height() < count + 4;
    let title = top(frame, count + 5);
    let first = title + 2 - u16::from(short);
    frame.centred(
        title,
        "Tic-tac-toe",
        Style::PLAIN.bold().fg(palette.accent()),
    );
    if let Some(rating) = menu.rating().filter(|_| !short) {
        let line = format!("Your rating on {}: {}", rating.rules, rating.rating);
        frame.centred(title + 1, &line, Style::PLAIN.dim());
    }
    // Narrower than the block: one space less each side of the label, values without arrows.
    let compact = frame.width() < BLOCK;
    let left = frame.width().saturating_sub(BLOCK) / 2;
    for (y, row) in (first..).zip(Row::ALL) {
        let value = menu.choices.value(row).unwrap_or_default();
        let digit = row.digit().map_or(' ', |d| char::from(b'0' + d));
        let line = if compact {
            let value = value.trim_start_matches("◂ ").trim_end_matches(" ▸");
            format!("{digit} {:<19} {value}", menu.choices.label(row))
        } else {
            format!(" {digit}  {:<20}{value}", menu.choices.label(row))
        };
        let line = format!("{line:<width$}", width = usize::from(BLOCK));
        let style = match (row == menu.row(), menu.choices.inactive(row)) {
            (true, _) => Style::PLAIN.reverse(),
            (false, true) => Style::PLAIN.dim(),
            (false, false) => Style::PLAIN,
        };
        frame.text(left, y, &line, style);
    }
    if let Some(line) = menu.continue_line() {
        let y = first + count;
        if y + 2 < frame.height() {
            frame.centred(y, &line, Style::PLAIN.bold());
        }
    }
    // A message wider than the screen (a warning with its file) is wrapped, the keys pushed
    // down below it; the keys on the last row when the screen is short, never below it.
    let mut lines = if menu.message.is_empty() {
        Vec::new()
    } else {
        super::chrome::wrap(&menu.message, frame.width())
    };
    let keys_row = (first + count + 1 + line_count(&lines)).min(frame.height().saturating_sub(1));
    // The message's lines where they hide no row (its first line always: it is the news).
    let room = keys_row.saturating_sub(first + count).max(1);
    lines.truncate(usize::from(room));
    let free = keys_row.saturating_sub(1) >= first + count;
    if lines.is_empty() && menu.row() == Row::PlayAi && free {
        // The note on the opponent only where it hides no row.
        let notes = play_notes(&menu.choices);
        let note = fitting(&[notes[0].as_str(), notes[1].as_str()], frame.width());
        lines.push(note.to_string());
    }
    let start = keys_row.saturating_sub(line_count(&lines));
    for (y, line) in (start..).zip(&lines) {
        frame.centred(y, line, Style::PLAIN);
    }
    frame.centred(keys_row, fitting(&KEYS, frame.width()), Style::PLAIN.dim());
}

/// How many rows `lines` take, at least one.
fn line_count(lines: &[String]) -> u16 {
    u16::try_from(lines.len()).unwrap_or(u16::MAX).max(1)
}

/// What the Play row's opponent is, said under the rows while that row is chosen: its
/// level, where it cannot be beaten, and its rating (the `≈` number beside its name in a
/// game); the longest first, then shorter ones for narrow screens.
fn play_notes(choices: &Choices) -> [String; 2] {
    if choices.adapts() {
        return [
            "auto: the AI's level follows your results, game after game".into(),
            "auto: its level follows your results".into(),
        ];
    }
    let Some(level) = choices.level().level() else {
        return [String::new(), String::new()];
    };
    let variant = choices.variant();
    let n = level.number();
    let what = match (level.is_top(), variant.rules()) {
        (true, Some(rules)) if rules == Rules::CLASSIC => ": unbeatable here, a draw at best",
        (true, Some(_)) => ": perfect where proven",
        (true, _) => ", the strongest",
        (false, _) if level == Level::EASY => ", a beginner",
        (false, _) => "",
    };
    let rating = crate::ai::levels::rating(variant, level)
        .map_or_else(String::new, |r| format!(" · rating ≈ {r}"));
    [
        format!("Level {n} of {}{what}{rating}", Level::TOP),
        format!("Level {n} of {}{what}", Level::TOP),
    ]
}

/// The first of `lines`, widest first, that fits `width` columns; else the last.
fn fitting<'a>(lines: &[&'a str], width: u16) -> &'a str {
    lines
        .iter()
        .find(|k| k.chars().count() <= usize::from(width))
        .or(lines.last())
        .copied()
        .unwrap_or_default()
}

fn joining(frame: &mut Frame, menu: &Menu, code: Option<&str>) {
    let top = top(frame, 7);
    frame.centred(top, "Join a network game", Style::PLAIN.bold());
    let left = frame.width().saturating_sub(BLOCK) / 2;
    let address = &menu.choices.address;
    let (address, code) = match code {
        None => (format!("{address}_"), String::new()),
        Some(code) => (address.clone(), format!("{code}_")),
    };
    frame.text(left, top + 2, &format!("Address: {address}"), Style::PLAIN);
    frame.text(left, top + 3, &format!("Code:    {code}"), Style::PLAIN);
    frame.centred(top + 5, &menu.message, Style::PLAIN);
    frame.centred(top + 6, "Enter next · Esc back", Style::PLAIN.dim());
}

/// Typing a game file's path to open.
fn open_file(frame: &mut Frame, menu: &Menu, path: &str) {
    let top = top(frame, 7);
    frame.centred(top, "Open a game file", Style::PLAIN.bold());
    let left = frame.width().saturating_sub(BLOCK) / 2;
    let room = usize::from(frame.width().saturating_sub(left + 7));
    let chars: Vec<char> = path.chars().collect();
    let shown: String = chars[chars.len().saturating_sub(room.saturating_sub(1))..]
        .iter()
        .collect();
    frame.text(left, top + 2, &format!("File: {shown}_"), Style::PLAIN);
    frame.centred(
        top + 3,
        "a game file, .psq, move string or record",
        Style::PLAIN.dim(),
    );
    frame.centred(top + 5, &menu.message, Style::PLAIN);
    frame.centred(top + 6, "Enter opens · Esc back", Style::PLAIN.dim());
}

/// The keys of *Your games*, widest first; the first that fits is shown.
const GAMES_KEYS: [&str; 3] = [
    "↑↓ choose · Enter open · r rules · o opponent · f a file · s stats · l ladder · Esc back",
    "↑↓ Enter open · r o filter · f file · s stats · l ladder · Esc",
    "↑↓ Enter · r o · f · s l · Esc",
];

/// *Your games*: the filters, then the games newest first, scrolled to the highlighted one.
fn games(frame: &mut Frame, menu: &Menu) {
    let list = &menu.games;
    let shown = list.shown();
    frame.centred(0, "Your games", Style::PLAIN.bold());
    let filter = format!(
        "{} · {}",
        list.rules.as_deref().unwrap_or("all rules"),
        list.opponent.as_deref().unwrap_or("all opponents")
    );
    frame.centred(1, &filter, Style::PLAIN.dim());
    let room = usize::from(frame.height().saturating_sub(5));
    if shown.is_empty() {
        let none = if list.rules.is_none() && list.opponent.is_none() {
            "No games kept yet: play one, and it is here."
        } else {
            "No games match: r and o change the filters."
        };
        frame.centred(3, none, Style::PLAIN);
    }
    let first = list.at.saturating_sub(room.saturating_sub(1));
    let number = shown
        .iter()
        .map(|(n, _)| n.to_string().len())
        .max()
        .unwrap_or(1);
    let shown = narrowed(
        &shown,
        usize::from(frame.width()).saturating_sub(number + 2),
    );
    let widths: Vec<usize> = (0..4)
        .map(|i| {
            shown
                .iter()
                .map(|(_, c)| c[i].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for (y, (i, (n, [when, rules, opponent, result]))) in
        (3..).zip(shown.iter().enumerate().skip(first).take(room))
    {
        let line = format!(
            "{n:>number$}  {when}  {rules:<w1$}  {opponent:<w2$}  {result}",
            w1 = widths[1],
            w2 = widths[2],
        );
        let line: String = line.chars().take(usize::from(frame.width())).collect();
        let style = if i == list.at {
            Style::PLAIN.reverse()
        } else {
            Style::PLAIN
        };
        frame.text(0, y, &line, style);
    }
    let bottom = frame.height().saturating_sub(1);
    frame.centred(bottom.saturating_sub(1), &menu.message, Style::PLAIN);
    frame.centred(
        bottom,
        fitting(&GAMES_KEYS, frame.width()),
        Style::PLAIN.dim(),
    );
}

/// The games' columns made to fit `width` (what the numbers leave): the date loses its year,
/// then its time, then the rules are cut, so the opponent and the result stay in sight.
fn narrowed(shown: &[(usize, [String; 4])], width: usize) -> Vec<(usize, [String; 4])> {
    let widest = |rows: &[(usize, [String; 4])]| {
        (0..4)
            .map(|i| {
                rows.iter()
                    .map(|(_, c)| c[i].chars().count())
                    .max()
                    .unwrap_or(0)
            })
            .sum::<usize>()
            + 6
    };
    let mut rows = shown.to_vec();
    for step in 0..3 {
        if widest(&rows) <= width {
            break;
        }
        for (_, columns) in &mut rows {
            let when = &mut columns[0];
            *when = match step {
                // 2026-11-25 10:00 → 11-25 10:00 → 11-25
                0 => when.chars().skip(5).collect(),
                1 => when.chars().take(5).collect(),
                _ => when.clone(),
            };
        }
        if step == 2 {
            let over = widest(&rows).saturating_sub(width);
            let rules = rows
                .iter()
                .map(|(_, c)| c[1].chars().count())
                .max()
                .unwrap_or(0);
            let keep = rules.saturating_sub(over).max(4);
            for (_, columns) in &mut rows {
                columns[1] = crate::text::cut(&columns[1], keep);
            }
        }
    }
    rows
}

/// The settings page: a row per setting, the highlighted one reversed.
fn settings(frame: &mut Frame, menu: &Menu) {
    use crate::ui::tui::settings_page::ROWS;
    let page = &menu.settings;
    let count = u16::try_from(ROWS.len()).unwrap_or(5);
    let top = top(frame, count + 4);
    frame.centred(top, "Settings", Style::PLAIN.bold());
    let left = frame.width().saturating_sub(BLOCK) / 2;
    for (y, (i, label)) in (top + 2..).zip(ROWS.iter().enumerate()) {
        let line = format!(" {label:<22}{}", page.value(i));
        let line = format!("{line:<width$}", width = usize::from(BLOCK));
        let style = if i == page.row {
            Style::PLAIN.reverse()
        } else {
            Style::PLAIN
        };
        frame.text(left, y, &line, style);
    }
    frame.centred(
        top + count + 3,
        "↑↓ choose · ←→ change · Enter saves · Esc cancels",
        Style::PLAIN.dim(),
    );
}

/// A page of text under a title: the statistics, the rules, the ladder. A line wider than
/// the screen is wrapped at its spaces, its continuation indented as it is, never cut.
fn statistics(frame: &mut Frame, title: &str, lines: &[String]) {
    let room = frame.width().saturating_sub(2);
    let lines: Vec<String> = lines
        .iter()
        .flat_map(|line| {
            if line.chars().count() <= usize::from(room) {
                return vec![line.clone()];
            }
            let indent = line.chars().take_while(|c| *c == ' ').count();
            let width = room.saturating_sub(u16::try_from(indent).unwrap_or(0));
            super::chrome::wrap(line.trim_start(), width)
                .into_iter()
                .map(|part| format!("{}{part}", " ".repeat(indent)))
                .collect()
        })
        .collect();
    let shown = u16::try_from(lines.len())
        .unwrap_or(u16::MAX)
        .min(frame.height().saturating_sub(4));
    let top = top(frame, shown + 4);
    frame.centred(top, title, Style::PLAIN.bold());
    let widest = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let left = frame
        .width()
        .saturating_sub(u16::try_from(widest).unwrap_or(u16::MAX))
        / 2;
    for (y, line) in (top + 2..).zip(lines.iter().take(usize::from(shown))) {
        frame.text(left, y, line, Style::PLAIN);
    }
    frame.centred(top + shown + 3, "Any key goes back", Style::PLAIN.dim());
}

/// The ladder's lines on the chosen game: each level's measured rating and the person's,
/// strongest first.
fn ladder(menu: &Menu) -> Vec<String> {
    let variant = menu.choices.variant();
    // Each row with its rating and its place among equal ratings: the higher level first,
    // then you.
    let mut rungs: Vec<(i32, u8, String)> = crate::ai::levels::Level::all()
        .filter_map(|level| {
            let rating = crate::ai::levels::rating(variant, level)?;
            let name = level.to_string();
            Some((rating, level.number(), format!("{name:<10} {rating:>5}")))
        })
        .collect();
    if rungs.is_empty() {
        return vec![format!(
            "The levels were measured on 3×3, 5×5, 7×7 and Ultimate, not on {variant}."
        )];
    }
    match menu.rating() {
        Some(r) => rungs.push((r.rating, 0, format!("{:<10} {:>5}  ◂ you", "you", r.rating))),
        None => rungs.push((
            i32::MIN,
            0,
            "you: no games against the AI here yet".to_string(),
        )),
    }
    rungs.sort_by_key(|&(rating, level, _)| std::cmp::Reverse((rating, level)));
    let mut lines = vec![
        format!("{variant}: rating (random play is 0)"),
        String::new(),
    ];
    lines.extend(rungs.into_iter().map(|(_, _, line)| line));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::tui::menu::Choices;

    /// The host row, with its choice where the build plays online.
    const HOST_WIDE: &str = if cfg!(feature = "online") {
        "         3  Host a network game ◂ local ▸"
    } else {
        "         3  Host a network game"
    };
    const HOST_NARROW: &str = if cfg!(feature = "online") {
        "3 Host a network game local"
    } else {
        "3 Host a network game"
    };

    #[test]
    fn the_ladder_lists_levels_strongest_first_with_you_aligned_among_them() {
        let mut menu = Menu::new(Choices::default(), (80, 24));
        menu.ratings = vec![crate::report::stats::Rating {
            rules: crate::rules::position::Variant::default().to_string(),
            rating: 420,
            history: vec![414, 420],
        }];
        let lines = ladder(&menu);
        let rows: Vec<&str> = lines[2..].iter().map(String::as_str).collect();
        let names: Vec<&str> = rows.iter().map(|r| r[..10].trim_end()).collect();
        assert_eq!(
            names,
            [
                "level 7", "level 6", "level 5", "you", "level 4", "level 3", "level 2", "level 1"
            ]
        );
        assert!(
            rows.iter()
                .all(|r| r[10..16].trim().parse::<i32>().is_ok() && r.as_bytes()[10] == b' '),
            "every rating right-aligned in one column: {rows:#?}"
        );
    }

    #[test]
    fn every_character_of_every_start_screen_page_has_an_ascii_stand_in() {
        let mut menu = Menu::new(Choices::default(), (80, 24));
        menu.ratings = vec![crate::report::stats::Rating {
            rules: "3×3, 3 in a row".into(),
            rating: 446,
            history: vec![414, 446],
        }];
        for screen in [
            Screen::Rows,
            Screen::Joining { code: None },
            Screen::Statistics(vec!["Your rating on 3×3: 446 ▁▂▃▄▅▆▇█".into()]),
            Screen::Rules,
            Screen::Games,
            Screen::Ladder,
            Screen::Settings,
        ] {
            menu.screen = screen;
            for size in [(80, 24), (30, 14)] {
                menu.size = size;
                let text = render(&menu, true).to_text();
                for ch in text.chars() {
                    assert!(
                        ch == '?' || super::super::paint::ascii(ch) != '?',
                        "{ch:?} has no ASCII stand-in:\n{text}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_message_wider_than_the_screen_is_wrapped_above_the_keys_and_hides_no_row() {
        let mut menu = Menu::new(Choices::default(), (60, 24));
        menu.message = format!("Warning: {} is damaged; using the defaults", "x".repeat(50));
        let text = render(&menu, false).to_text();
        let lines: Vec<&str> = text.lines().collect();
        let keys = lines.iter().rposition(|l| l.contains("q quit")).unwrap();
        assert!(lines[keys - 2].contains("Warning: xxxxx"), "{text}");
        assert!(
            lines[keys - 1].contains("is damaged; using the defaults"),
            "{text}"
        );
        assert!(text.contains("0  Quit"), "{text}");
        assert_eq!(text.matches('x').count(), 50, "{text}");
    }

    fn picture(width: u16, height: u16) -> String {
        let menu = Menu::new(Choices::default(), (width, height));
        render(&menu, false).to_text()
    }

    #[rustfmt::skip]
    #[test]
    fn the_rows_at_60_by_24() {
        assert_eq!(picture(60, 24).trim_matches('\n'), [
            "                        Tic-tac-toe",
            "",
            "         1  Play the AI         ◂ hard ▸",
            "         2  Two players here",
            HOST_WIDE,
            "         4  Join a network game",
            "         5  Game                ◂ classic ▸",
            "         6  Board size          ◂ 3×3 ▸",
            "         7  In a row            ◂ 3 ▸",
            "         8  Misère              off",
            "            Clock               ◂ off ▸",
            "         9  Your games",
            "            Analysis board",
            "         0  Quit",
            "",
            "Level 7 of 7: unbeatable here, a draw at best · rating ≈ 459",
            "        ↑↓ ←→ Enter · ? rules · s settings · q quit",
        ].join("\n"));
    }

    #[test]
    fn your_games_at_forty_columns_shorten_the_date_and_rules_and_keep_opponent_and_result() {
        let rows = vec![(
            12,
            [
                "2026-11-25 10:00".to_string(),
                "15×15, five in a row, swap2".to_string(),
                "level 7 AI".to_string(),
                "lost".to_string(),
            ],
        )];
        let width = 40 - 4;
        let narrow = narrowed(&rows, width);
        let [when, rules, opponent, result] = &narrow[0].1;
        assert_eq!(when, "11-25");
        assert!(rules.ends_with('…'), "{rules}");
        assert_eq!((opponent.as_str(), result.as_str()), ("level 7 AI", "lost"));
        let used: usize = narrow[0].1.iter().map(|c| c.chars().count()).sum::<usize>() + 6;
        assert!(used <= width, "{narrow:?}");
        assert_eq!(narrowed(&rows, 80), rows, "room enough: as it was");
    }

    #[test]
    fn a_page_line_wider_than_the_screen_is_wrapped_not_cut() {
        let mut frame = Frame::new(30, 14);
        let long = "Your results over every game kept, as the history has them".to_string();
        statistics(&mut frame, "Stats", &[long]);
        let text = frame.to_text();
        let words: Vec<&str> = text.split_whitespace().collect();
        let said = "Your results over every game kept, as the history has them";
        let said: Vec<&str> = said.split_whitespace().collect();
        assert!(
            words.windows(said.len()).any(|w| w == said.as_slice()),
            "every word, in order: {text}"
        );
    }

    #[test]
    fn the_play_row_says_what_its_level_is_and_what_the_number_beside_it_is() {
        let notes = |level: &str, game: &str| {
            let choices = Choices {
                level: level.into(),
                game: game.into(),
                ..Choices::default()
            };
            play_notes(&choices)[0].clone()
        };
        assert_eq!(
            notes("1", "classic"),
            "Level 1 of 7, a beginner · rating ≈ 115"
        );
        assert_eq!(notes("4", "classic"), "Level 4 of 7 · rating ≈ 414");
        assert_eq!(
            notes("hard", "gomoku"),
            "Level 7 of 7, the strongest · rating ≈ 1510"
        );
        assert_eq!(
            notes("auto", "classic"),
            "auto: the AI's level follows your results, game after game"
        );
        let mut menu = Menu::new(Choices::default(), (80, 24));
        menu.update(&crate::ui::tui::menu::Key::Down);
        let text = render(&menu, false).to_text();
        assert!(
            !text.contains("Level 7 of 7"),
            "only on the Play row: {text}"
        );
    }

    #[rustfmt::skip]
    #[test]
    fn the_rows_fit_30_by_14() {
        assert_eq!(picture(30, 14).trim_matches('\n'), [
            "         Tic-tac-toe",
            "1 Play the AI         hard",
            "2 Two players here",
            HOST_NARROW,
            "4 Join a network game",
            "5 Game                classic",
            "6 Board size          3×3",
            "7 In a row            3",
            "8 Misère              off",
            "  Clock               off",
            "9 Your games",
            "  Analysis board",
            "0 Quit",
            " ↑↓ ←→ Enter · ? · s · q quit",
        ].join("\n"));
    }
}
