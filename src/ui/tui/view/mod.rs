//! The screen as a pure function of the app state ([`render`]), and a [`Painter`] that writes
//! only what changed since the last frame, queued and flushed once.
//!
//! The classic board, the Ultimate board and Gomoku's are drawn in files of their own; what
//! surrounds a board (status, message, keys, help) is in `chrome`.

mod analysis;
mod chrome;
mod classic;
mod connect_four;
mod explore;
mod frame;
mod gomoku;
pub mod menu;
mod moves;
mod paint;
mod ultimate;

use crate::rules::catalogue::Shaped;
use std::fmt::Write as _;
use std::time::Duration;

use crate::ai::search::{Value, best_of};
use crate::ui::tui::app::App;
use crate::ui::tui::layout::UltimateLayout;
pub use chrome::manual_keys;
use chrome::{
    LESSON_PANEL, draw_help, draw_lesson, draw_lesson_beside, draw_rules, draw_status, key_line,
    keys_help, message_line, review_help, score_line, wrap,
};
pub use classic::hint_label;
use frame::Palette;
pub use frame::{Frame, Style, Tile};
pub use paint::Painter;

/// Where the text around a board goes, from the board's drawing.
struct Placed {
    /// `Tic-tac-toe · round 1`.
    title: String,
    /// The title's row.
    first_row: u16,
    /// The first row below the board: the status line.
    below: u16,
    /// How moves are typed, for the line of keys: `1-9`.
    keys: &'static str,
}

/// The hint's value for `shown`, where a hint is up and values it, and its style: in the
/// value's colour, bold and underlined where it is one of the best.
fn hinted(
    app: &App,
    shown: crate::rules::position::Move,
    palette: Palette,
) -> Option<(Value, Style)> {
    let hint = app.hint()?;
    let &(_, value) = hint.iter().find(|(m, _)| *m == shown)?;
    let mut style = Style::PLAIN.fg(palette.value(value));
    if best_of(hint).iter().any(|&(m, _)| m == shown) {
        style = style.bold().underline();
    }
    Some((value, style))
}

/// The whole screen for the app's state and terminal size; `busy` is how long the AI has
/// been working on the app's current job, if it has one.
pub fn render(app: &App, busy: Option<Duration>, color: bool) -> Frame {
    let (width, height) = app.size();
    let mut frame = Frame::new(width, height);
    let palette = Palette { color };
    if let Some(explorer) = app.explorer() {
        explore::draw(&mut frame, app, explorer, palette, busy);
        return frame;
    }
    if let Some(explorer) = app.mcts_explorer() {
        explore::draw(&mut frame, app, explorer, palette, busy);
        return frame;
    }
    // A lesson goes beside the board it explains where there is room, not over it.
    if let Some(page) = app.lesson() {
        let board_width = width.saturating_sub(LESSON_PANEL);
        if board_width >= UltimateLayout::minimum().0 {
            let mut game = Frame::new(board_width, height);
            draw_game(&mut game, app, busy, palette, false);
            frame.blit(&game, 0, 0);
            draw_lesson_beside(&mut frame, page, board_width);
            return frame;
        }
    }
    // The moves beside the board where the screen is wide enough; not in the review, which
    // goes through them itself.
    let (board_width, _) = app.board_area();
    if board_width < width {
        let left = app.board_left();
        let mut game = Frame::new(board_width, height);
        let title = draw_game(&mut game, app, busy, palette, true);
        frame.blit(&game, left, 0);
        // The list's title on the game's: beside the board, not in the screen's corner.
        if app.analysis().is_some() {
            let top = title.unwrap_or(1);
            analysis::draw_lines_beside(&mut frame, app, left + board_width, top, palette);
        } else {
            moves::draw_moves(&mut frame, app, left + board_width, title.unwrap_or(1));
        }
        return frame;
    }
    // The analysis board's lines under it, where they are not beside it.
    let below = app.lines_below();
    if below > 0 {
        let mut game = Frame::new(width, height.saturating_sub(below));
        draw_game(&mut game, app, busy, palette, true);
        frame.blit(&game, 0, 0);
        analysis::draw_lines_below(&mut frame, app, height.saturating_sub(below), palette);
        return frame;
    }
    draw_game(&mut frame, app, busy, palette, true);
    frame
}

/// The game's title with where it stands: in the review, a move looked back at, hints on
/// in a network game, its watchers.
fn decorate(title: &mut String, app: &App) {
    if app.review().is_some() {
        title.push_str(" · review");
    }
    match app.looking_back() {
        Some((0, _)) => title.push_str(" · the start"),
        Some((n, total)) => {
            let _ = write!(title, " · move {n} of {total}");
        }
        None => {}
    }
    if app.net_hints_on() {
        title.push_str(" · hints on");
    }
    match app.watching() {
        (_, true) => title.push_str(" · watching"),
        (0, false) => {}
        (n, false) => {
            let _ = write!(title, " · {n} watching");
        }
    }
}

/// The game on `frame`: the board, the text around it, and what is open over it (the
/// lesson where `lesson` says so, the rules, the keys); the row of its title, where one fits.
fn draw_game(
    frame: &mut Frame,
    app: &App,
    busy: Option<Duration>,
    palette: Palette,
    lesson: bool,
) -> Option<u16> {
    let width = frame.width();
    let shown = app.shown_position();
    let placed = match shown.shaped() {
        Shaped::Cells(board) => classic::draw(frame, app, board, palette),
        Shaped::Boards(board) => ultimate::draw(frame, app, board, palette),
        Shaped::Points(board) => gomoku::draw(frame, app, board, palette),
        Shaped::Columns(board) => connect_four::draw(frame, app, board, palette),
    };
    let placed = placed?;
    if let Some(board) = app.analysis() {
        return Some(analysis::draw_around(frame, app, board, &placed));
    }
    let Placed {
        mut title,
        first_row,
        below,
        keys,
    } = placed;
    decorate(&mut title, app);
    frame.centred(first_row, &title, Style::PLAIN.bold());
    // The host's news of refused connections, above the title: never over the message line.
    if let Some(notice) = app.net_notice().filter(|_| first_row > 0) {
        frame.centred(first_row - 1, notice, Style::PLAIN.dim());
    }
    draw_status(frame, below, app, palette);
    let message = message_line(app, busy);
    // A host's join line is wrapped, not cut: a friend needs all of it; so is news of a lost
    // connection (how to leave, whether the game is kept), and any message wider than the
    // screen (a long name, a watcher's `Waiting for …` on a narrow terminal).
    let rows = if app.message_wraps() || message.chars().count() > usize::from(width) {
        wrap(&message, width)
    } else {
        vec![message]
    };
    for (i, row) in (below + 1..).zip(&rows) {
        frame.centred(i, row, Style::PLAIN.bold());
    }
    let below = below + u16::try_from(rows.len().saturating_sub(1)).unwrap_or(0);
    frame.centred(below + 2, &score_line(app, width), Style::PLAIN);
    frame.centred(below + 3, &key_line(app, keys, width), Style::PLAIN.dim());
    if let Some(page) = app.lesson() {
        if lesson {
            draw_lesson(frame, page);
        }
    } else if app.rules_open() {
        draw_rules(frame, app.game().variant());
    } else if app.help_open() {
        let (lines, short) = if app.review().is_some() {
            review_help(app.archived())
        } else {
            keys_help(&shown, app.hints_off().is_none())
        };
        draw_help(frame, &lines, &short);
    }
    Some(first_row)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::player::Player;
    use crate::ai::search::{Searcher, Value};
    use crate::game::Session;
    use crate::rules::classic::Rules;
    use crate::rules::position::Move;
    use crate::ui::tui::app::Event;
    use crate::ui::tui::input::Action;
    use crate::ui::tui::layout::Layout;
    use crate::ui::tui::worker::Reply;
    use crossterm::style::Color;

    fn app(moves: &[u8]) -> App {
        let session = Session::new(Rules::CLASSIC, Player::Human, Player::Human);
        let mut app = App::new(session, (60, 22));
        for &d in moves {
            app.update(Action::Digit(d));
        }
        app
    }

    #[test]
    fn long_lines_wrap_at_spaces_and_a_long_word_where_the_line_ends() {
        assert_eq!(
            wrap("Join with: tictactoe join abc", 80),
            ["Join with: tictactoe join abc"]
        );
        assert_eq!(
            wrap("Join with: tictactoe join abc", 14),
            ["Join with:", "tictactoe join", "abc"]
        );
        let ticket = "a".repeat(30);
        assert_eq!(
            wrap(&format!("join {ticket}"), 12),
            ["join", "aaaaaaaaaaaa", "aaaaaaaaaaaa", "aaaaaa"]
        );
    }

    #[test]
    #[rustfmt::skip]
    fn first_frame_shows_the_numbered_board() {
        let frame = render(&app(&[]), None, true);
        let expected = [
            "",
            "                   Tic-tac-toe · round 1",
            "",
            "                 ┌───────┬───────┬───────┐",
            "                 │       │       │       │",
            "                 │   7   │   8   │   9   │",
            "                 │       │       │       │",
            "                 ├───────┼───────┼───────┤",
            "                 │       │       │       │",
            "                 │   4   │[  5  ]│   6   │",
            "                 │       │       │       │",
            "                 ├───────┼───────┼───────┤",
            "                 │       │       │       │",
            "                 │   1   │   2   │   3   │",
            "                 │       │       │       │",
            "                 └───────┴───────┴───────┘",
            "",
            "                ▸ X: Player 1   O: Player 2",
            "                    X to move (Player 1)",
            "          Score: Player 1 0 · Player 2 0 · draws 0",
            " 1-9 play · u undo · h hint · n new round · ? keys · q quit",
            "",
        ];
        assert_eq!(frame.to_text(), expected.join("\n"));
    }

    #[test]
    #[rustfmt::skip]
    fn marks_are_drawn_large_and_the_last_move_is_marked() {
        let frame = render(&app(&[7, 5]), None, true);
        let text = frame.to_text();
        let rows: Vec<&str> = text.lines().skip(3).take(9).collect();
        assert_eq!(rows, [
            "                 ┌───────┬───────┬───────┐",
            "                 │  ╲ ╱  │       │       │",
            "                 │   ╳   │   8   │   9   │",
            "                 │  ╱ ╲  │       │       │",
            "                 ├───────┼───────┼───────┤",
            "                 │       │• ╭─╮  │       │",
            "                 │   4   │[ │ │ ]│   6   │",
            "                 │       │  ╰─╯  │       │",
            "                 ├───────┼───────┼───────┤",
        ]);
    }

    #[test]
    fn a_message_wider_than_the_screen_is_wrapped_not_cut() {
        let mut session = Session::new(Rules::CLASSIC, Player::Human, Player::Human);
        session.rename(crate::game::Side::A, "Someone with a long name");
        let app = App::new(session, (30, 16));
        assert!(app.message().chars().count() > 30, "{}", app.message());
        let text = render(&app, None, false).to_text();
        let joined = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(joined.contains(app.message()), "{text}");
    }

    #[test]
    fn the_status_line_names_an_ai_by_its_level_and_measured_rating() {
        let level = crate::ai::levels::Level::new(4).unwrap();
        let rating = crate::ai::levels::rating(Rules::CLASSIC.into(), level).unwrap();
        let session = Session::new(Rules::CLASSIC, Player::Human, Player::Ai(level));
        let frame = render(&App::new(session, (60, 22)), None, false);
        let text = frame.to_text();
        assert!(
            text.contains(&format!("X: you   O: level 4 AI (≈ {rating})")),
            "{text}"
        );
        let wide = Rules::new(6, 4, false).unwrap();
        let session = Session::new(wide, Player::Human, Player::Ai(level));
        let text = render(&App::new(session, (80, 40)), None, false).to_text();
        assert!(
            text.contains("O: level 4 AI\n") || text.contains("O: level 4 AI "),
            "{text}"
        );
        assert!(
            !text.contains('≈'),
            "no rating where none was measured: {text}"
        );
    }

    /// Asserts every character of `text` has an ASCII stand-in of its own (`?` only for `?`).
    fn drawable_in_ascii(text: &str) {
        for ch in text.chars() {
            assert!(
                ch == '?' || paint::ascii(ch) != '?',
                "{ch:?} has no ASCII stand-in:\n{text}"
            );
        }
    }

    #[test]
    fn every_character_of_the_game_screens_has_an_ascii_stand_in() {
        let level = crate::ai::levels::Level::new(4).unwrap();
        for (variant, size) in [
            (
                crate::rules::position::Variant::from(Rules::CLASSIC),
                (60, 22),
            ),
            (Rules::new(7, 5, true).unwrap().into(), (80, 40)),
            (crate::rules::position::Variant::Ultimate, (80, 40)),
            (crate::rules::position::Variant::Ultimate, (30, 14)),
        ] {
            let mut app = App::new(
                Session::new(variant, Player::Human, Player::Ai(level)),
                size,
            );
            drawable_in_ascii(&render(&app, None, true).to_text());
            drawable_in_ascii(&render(&app, Some(Duration::from_millis(300)), true).to_text());
            app.update(Action::Help);
            drawable_in_ascii(&render(&app, None, true).to_text());
        }
    }

    #[test]
    fn the_winning_line_is_highlighted() {
        let frame = render(&app(&[7, 1, 8, 2, 9]), None, false);
        let layout = Layout::new((60, 22), 3);
        let board = *app(&[]).game().position().classic().unwrap();
        for (d, highlighted) in [(7, true), (8, true), (9, true), (1, false), (5, false)] {
            let (x, y) = layout.cell_origin(board.numpad(d).unwrap());
            let tile = frame.tile(x + 3, y + 1);
            assert_eq!(tile.style.reverse, highlighted, "cell {d}: {tile:?}");
        }
        assert!(frame.to_text().contains("O: Player 2"));
        assert!(frame.to_text().contains("X (Player 1) wins."));
    }

    #[test]
    fn monochrome_uses_no_colour_but_keeps_the_marking() {
        let frame = render(&app(&[7, 5]), None, false);
        assert!(frame.tiles.iter().all(|t| t.style.fg.is_none()));
        let layout = Layout::new((60, 22), 3);
        let five = app(&[])
            .game()
            .position()
            .classic()
            .unwrap()
            .numpad(5)
            .unwrap();
        let (x, y) = layout.cell_origin(five);
        assert_eq!(frame.tile(x, y).ch, '•');
        assert!(frame.tile(x + 2, y + 1).style.bold, "the last mark is bold");
    }

    #[test]
    fn hint_shows_values_and_best_moves_stand_out() {
        // After X takes the centre, O draws only in a corner; an edge loses.
        let mut a = app(&[5]);
        a.update(Action::Hint);
        let board = *a.game().position().classic().unwrap();
        let analysis = Searcher::new().analyze(&board);
        let analysis = analysis
            .into_iter()
            .map(|(c, v)| (Move::Cell(c), v))
            .collect();
        a.handle(Event::Answer(Reply::Hint(analysis)));
        let frame = render(&a, None, true);
        let layout = Layout::new((60, 22), 3);
        let label = |d: u8| {
            let (x, y) = layout.cell_origin(board.numpad(d).unwrap());
            let s: String = (0..7).map(|dx| frame.tile(x + dx, y + 1).ch).collect();
            let first = (0..7).find(|&dx| frame.tile(x + dx, y + 1).ch.is_alphanumeric());
            let style = frame.tile(x + first.expect("a label"), y + 1).style;
            (s.trim().to_string(), style)
        };
        for corner in [7, 9, 1, 3] {
            let (text, style) = label(corner);
            assert_eq!(text, "D");
            assert!(style.bold && style.underline, "best move stands out");
            assert_eq!(style.fg, Some(Color::Yellow));
        }
        let plies = |d: u8| match a
            .hint()
            .unwrap()
            .iter()
            .find(|(m, _)| *m == Move::Cell(board.numpad(d).unwrap()))
        {
            Some((_, Value::Loss(n))) => *n,
            other => panic!("{other:?}"),
        };
        assert!(a.message().contains("in plies"), "{}", a.message());
        for edge in [8, 4, 6, 2] {
            let (text, style) = label(edge);
            assert_eq!(
                text,
                format!("L{}", plies(edge)),
                "the label counts plies, as the legend says"
            );
            assert!(!style.bold);
            assert_eq!(style.fg, Some(Color::Red));
        }
    }

    #[test]
    fn a_gomoku_hint_shows_each_points_value_and_the_best_stands_out() {
        use crate::rules::classic::Squares;
        use crate::rules::position::Variant;
        use crate::ui::tui::layout::GridLayout;
        let session = Session::new(Variant::GOMOKU, Player::Human, Player::Human);
        let mut a = App::new(session, (80, 30));
        // `h` is a column here; typed twice, it asks for the hint.
        a.update(Action::Hint);
        a.update(Action::Hint);
        let board = *a.game().position().gomoku().unwrap();
        let at = |row, col| board.square(row, col).unwrap();
        let values = vec![
            (Move::Cell(at(7, 7)), Value::WinRate(660)),
            (Move::Cell(at(6, 6)), Value::WinRate(540)),
            (Move::Cell(at(0, 0)), Value::Loss(4)),
        ];
        a.handle(Event::Answer(Reply::Hint(values)));
        let frame = render(&a, None, true);
        let layout = GridLayout::new((80, 30), 15);
        assert!(layout.fits);
        let tile = |row, col| {
            let (x, y) = layout.origin(row, col);
            frame.tile(x, y)
        };
        assert_eq!(tile(7, 7).ch, '6');
        assert!(
            tile(7, 7).style.bold && tile(7, 7).style.underline,
            "the best"
        );
        assert_eq!(tile(6, 6).ch, '5');
        assert!(!tile(6, 6).style.underline);
        assert_eq!(tile(0, 0).ch, 'L');
        assert_eq!(tile(0, 0).style.fg, Some(Color::Red));
        assert!(
            a.message().contains("best h8 (66%)"),
            "the best move's value in words: {}",
            a.message()
        );
    }

    #[test]
    fn in_renju_black_sees_its_forbidden_points_crossed_and_white_does_not() {
        use crate::rules::position::Variant;
        use crate::ui::tui::layout::GridLayout;
        let mut session = Session::new(Variant::RENJU, Player::Human, Player::Human);
        // X on f8 g8 h6 h7: h8 is a double three.
        for name in ["f8", "a1", "g8", "a2", "h6", "a3", "h7", "a4"] {
            let cell = session.game().position().parse_move(name).unwrap();
            session.play(cell).unwrap();
        }
        let a = App::new(session, (80, 30));
        let layout = GridLayout::new((80, 30), 15);
        let h8 = layout.origin(7, 7);
        let e8 = layout.origin(7, 4);
        let frame = frame_of(&a);
        assert_eq!(frame.tile(h8.0, h8.1).ch, '×', "h8 is forbidden to black");
        assert_eq!(frame.tile(e8.0, e8.1).ch, '·', "e8 is not");
        let mut a = a;
        a.update(Action::Letter('e'));
        a.update(Action::Digit(8));
        let frame = frame_of(&a);
        assert_eq!(
            frame.tile(h8.0, h8.1).ch,
            '+',
            "white may play h8, the centre"
        );
    }

    #[test]
    fn gomoku_stones_are_black_and_white_circles_named_by_their_marks() {
        use crate::rules::classic::Squares;
        use crate::rules::position::Variant;
        use crate::ui::tui::layout::GridLayout;
        let session = Session::new(Variant::GOMOKU, Player::Human, Player::Human);
        let mut a = App::new(session, (80, 30));
        for key in [Action::Letter('g'), Action::Digit(8)] {
            a.update(key);
        }
        a.update(Action::Hint);
        a.update(Action::Digit(7));
        let board = *a.game().position().gomoku().unwrap();
        let layout = GridLayout::new((80, 30), 15);
        let at = |row, col| {
            assert!(board.square(row, col).is_some());
            let (x, y) = layout.origin(row, col);
            frame_of(&a).tile(x, y).ch
        };
        assert_eq!((at(7, 6), at(6, 7)), ('●', '○'), "g8 black, h7 white");
        let text = frame_of(&a).to_text();
        assert!(
            text.contains("● X: Player 1") && text.contains("○ O: Player 2"),
            "{text}"
        );
    }

    #[test]
    fn once_a_gomoku_game_is_over_the_key_line_offers_n_alone_for_the_new_round() {
        use crate::rules::position::Variant;
        use crate::ui::tui::input::Action;
        let session = Session::new(Variant::GOMOKU, Player::Human, Player::Human);
        let mut app = App::new(session, (100, 40));
        app.update(Action::Resign);
        app.update(Action::Yes);
        let text = frame_of(&app).to_text();
        assert!(
            text.contains("n new round") && !text.contains("n n new round"),
            "{text}"
        );
    }

    #[test]
    fn under_each_question_the_key_line_says_what_y_does() {
        use crate::ui::tui::input::Action;
        for (key, said) in [
            (Action::Resign, "y resign · any other key keeps playing"),
            (Action::Quit, "y leave · any other key keeps playing"),
        ] {
            let session = Session::new(Rules::CLASSIC, Player::Human, Player::HARD);
            let mut app = App::new(session, (80, 24));
            app.update(Action::Digit(5));
            app.update(key);
            assert!(app.question().is_some(), "{said}: {}", app.message());
            let text = frame_of(&app).to_text();
            assert!(text.contains(said), "{text}");
        }
    }

    #[test]
    fn where_h_is_a_column_the_key_line_says_h_twice_for_the_hint() {
        use crate::rules::position::Variant;
        for (variant, twice) in [
            (Variant::Ultimate, "h h hint"),
            (Variant::GOMOKU, "h h hint"),
            (Variant::from(Rules::CLASSIC), "· h hint"),
        ] {
            let session = Session::new(variant, Player::Human, Player::Human);
            let text = frame_of(&App::new(session, (100, 40))).to_text();
            assert!(text.contains(twice), "{variant}: {text}");
        }
        let gomoku = Session::new(Variant::GOMOKU, Player::Human, Player::Human);
        let text = frame_of(&App::new(gomoku, (100, 40))).to_text();
        assert!(text.contains("n n new round"), "{text}");
    }

    #[test]
    fn the_ultimate_lesson_stands_beside_the_whole_board_and_its_last_page_says_play() {
        use crate::rules::position::Variant;
        let session = Session::new(Variant::Ultimate, Player::Human, Player::Human);
        let mut a = App::new(session, (80, 24));
        a.start_lesson();
        let text = frame_of(&a).to_text();
        let lines: Vec<&str> = text.lines().collect();
        assert!(text.contains("Lesson 1 of 3"), "{text}");
        // Every row of the grid is whole: the nine row labels and both heavy edges.
        for row in '1'..='9' {
            let line = lines
                .iter()
                .find(|l| l.trim_start().starts_with(row) && l.contains('┃'))
                .unwrap_or_else(|| panic!("row {row} of the grid:\n{text}"));
            assert_eq!(line.matches('┃').count(), 4, "{line}");
        }
        assert!(text.contains("any key: next"));
        a.update(Action::Digit(1));
        a.update(Action::Digit(1));
        let text = frame_of(&a).to_text();
        assert!(
            text.contains("Lesson 3 of 3") && text.contains("any key: play"),
            "{text}"
        );
        assert!(!text.contains("any key: next"), "{text}");
    }

    fn frame_of(app: &App) -> Frame {
        render(app, None, false)
    }

    #[test]
    fn the_keys_over_a_small_screen_leave_no_cut_words_beside_the_box() {
        let mut a = app(&[]);
        a.handle(Event::Resize {
            columns: 40,
            rows: 15,
        });
        a.update(Action::Help);
        let text = frame_of(&a).to_text();
        for line in text.lines().filter(|l| l.contains('│')) {
            let (before, after) = (
                line.split('│').next().unwrap_or(""),
                line.rsplit('│').next().unwrap_or(""),
            );
            assert!(
                before.trim().is_empty() && after.trim().is_empty(),
                "words beside the box: {line:?}\n{text}"
            );
        }
    }

    #[test]
    fn a_small_terminal_asks_for_more_room() {
        let mut a = app(&[]);
        a.handle(Event::Resize {
            columns: 20,
            rows: 8,
        });
        let text = render(&a, None, true).to_text();
        let (w, h) = Layout::minimum(3);
        assert_eq!(text.trim(), format!("Need at least {w}×{h}"));
        a.handle(Event::Resize {
            columns: 80,
            rows: 8,
        });
        let text = render(&a, None, true).to_text();
        assert_eq!(
            text.split('\n').count(),
            8,
            "one line, on a full-height screen"
        );
        assert_eq!(
            text.trim(),
            format!("Terminal too small: please enlarge it to at least {w}×{h}")
        );
        a.handle(Event::Resize {
            columns: 40,
            rows: 14,
        });
        assert!(
            render(&a, None, true).to_text().contains("[ 5 ]"),
            "compact board"
        );
    }

    #[test]
    fn painter_sends_only_what_changed() {
        let mut painter = Painter::default();
        let mut out = Vec::new();
        painter
            .paint(&mut out, render(&app(&[]), None, true))
            .unwrap();
        let first = out.len();
        out.clear();
        painter
            .paint(&mut out, render(&app(&[]), None, true))
            .unwrap();
        let unchanged = out.len();
        out.clear();
        painter
            .paint(&mut out, render(&app(&[5]), None, true))
            .unwrap();
        assert!(
            unchanged < 16,
            "an unchanged frame sends almost nothing: {unchanged}"
        );
        assert!(
            out.len() < first / 2,
            "a move sends less than half a frame: {} vs {first}",
            out.len()
        );
    }

    #[test]
    fn the_thinking_line_shows_a_spinner_and_the_seconds() {
        let a = app(&[]);
        let line = |ms| message_line(&a, Some(Duration::from_millis(ms)));
        assert_eq!(line(0), "X to move (Player 1) ◐");
        assert_eq!(line(250), "X to move (Player 1) ◓");
        assert_eq!(line(2500), "X to move (Player 1) ◐ 2.5 s");
        assert_eq!(message_line(&a, None), "X to move (Player 1)");
    }
}
#[cfg(test)]
mod sizes {
    use super::*;
    use crate::ai::player::Player;
    use crate::game::Session;
    use crate::rules::classic::Rules;
    use crate::rules::position::Variant;
    use crate::ui::tui::input::Action;

    /// The sizes the README promises, each with the smallest game it promises there.
    fn promised() -> Vec<(Variant, (u16, u16))> {
        let classic = Variant::Classic(Rules::CLASSIC);
        vec![
            (classic, (30, 14)),
            (classic, (40, 15)),
            (classic, (60, 24)),
            (Variant::Classic(Rules::new(5, 4, false).unwrap()), (60, 24)),
            (Variant::Ultimate, (41, 21)),
            (Variant::Ultimate, (80, 24)),
            (Variant::GOMOKU, (80, 24)),
        ]
    }

    #[test]
    fn the_keys_line_keeps_help_and_quit_at_every_promised_size() {
        for (variant, size) in promised() {
            for players in [
                (Player::Human, Player::HARD),
                (Player::Human, Player::Human),
            ] {
                let app = App::new(Session::new(variant, players.0, players.1), size);
                let text = render(&app, None, false).to_text();
                let keys = text.lines().rfind(|l| !l.trim().is_empty()).unwrap();
                assert!(
                    keys.contains("? keys") && keys.contains("q quit") && !keys.contains('…'),
                    "{variant} at {size:?}:\n{text}"
                );
                assert!(!text.contains('…'), "nothing cut at {size:?}:\n{text}");
            }
        }
    }

    #[test]
    fn with_hints_off_the_help_offers_no_hint_and_still_undo() {
        for variant in [Variant::default(), Variant::Ultimate, Variant::GOMOKU] {
            let mut app = App::new(Session::new(variant, Player::Human, Player::HARD), (80, 24));
            app.set_hints(false);
            app.update(Action::Help);
            let text = render(&app, None, false).to_text();
            assert!(!text.contains("hint"), "{variant:?}:\n{text}");
            assert!(text.contains("undo"), "{variant:?}:\n{text}");
            app.set_hints(true);
            let text = render(&app, None, false).to_text();
            assert!(text.contains("hint"), "{variant:?}:\n{text}");
        }
    }

    #[test]
    fn the_help_is_shown_whole_at_every_promised_size() {
        for (variant, size) in promised() {
            let mut app = App::new(Session::new(variant, Player::Human, Player::HARD), size);
            app.update(Action::Help);
            let text = render(&app, None, false).to_text();
            let (full, short) = keys_help(&variant.start(), true);
            let shown = if text.contains(full[0].as_str()) {
                full
            } else {
                short
            };
            for line in shown {
                assert!(
                    text.contains(line.as_str()),
                    "{line:?} at {size:?}:\n{text}"
                );
            }
            assert!(text.contains("key closes"), "{text}");
        }
    }
}
