//! The game's moves beside the board, on a screen wide enough for them: numbered a pair to a
//! line, X's then O's, in the rule set's notation (`5` on 3×3, `c3`, `h8`, `53` in Ultimate),
//! the last ones where they do not all fit, and the move on screen marked (the last, or the
//! one looked back at with `[`).

use super::frame::{Frame, Style};
use crate::ui::tui::app::App;
#[cfg(test)]
use crate::ui::tui::layout::MOVES_FROM;

/// Columns of a move's notation in the list (`t20` is the widest).
const MOVE_WIDTH: usize = 4;

/// The list from column `left`, its title on row `top` (the game's title row).
pub(super) fn draw_moves(frame: &mut Frame, app: &App, left: u16, top: u16) {
    let history = app.game().history();
    // The move on screen, from 1; 0 for none (the start).
    let marked = app.looking_back().map_or(history.len(), |(n, _)| n);
    let lines: Vec<String> = history
        .chunks(2)
        .enumerate()
        .map(|(i, pair)| {
            let names: Vec<String> = pair
                .iter()
                .map(|mv| format!("{:<MOVE_WIDTH$}", mv.to_string()))
                .collect();
            format!("{:>3}. {}", i + 1, names.join(" "))
                .trim_end()
                .to_string()
        })
        .collect();
    let room = usize::from(frame.height().saturating_sub(top + 3)).max(1);
    // The last lines, or as far back as the marked move's line.
    let marked_line = marked.saturating_sub(1) / 2;
    let end = lines.len().min((marked_line + 1).max(room));
    let first = end.saturating_sub(room);
    frame.text(left + 1, top, "Moves", Style::PLAIN.bold());
    if lines.is_empty() {
        frame.text(left + 1, top + 2, "none yet", Style::PLAIN.dim());
        return;
    }
    for (row, i) in (top + 2..).zip(first..end) {
        frame.text(left + 1, row, &lines[i], Style::PLAIN);
        if marked > 0 && i == marked_line {
            let column = 5 + (marked - 1) % 2 * (MOVE_WIDTH + 1);
            let name = history[marked - 1].to_string();
            let x = left + 1 + u16::try_from(column).unwrap_or(0);
            frame.text(x, row, &name, Style::PLAIN.reverse());
        }
    }
    if first > 0 {
        frame.text(
            left + 1,
            top + 1,
            &format!("… {first} lines above"),
            Style::PLAIN.dim(),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::player::Player;
    use crate::game::Session;
    use crate::rules::classic::Rules;
    use crate::ui::tui::input::Action;
    use crate::ui::tui::view::render;

    fn screen(width: u16, moves: &[u8], back: usize) -> String {
        screen_of((width, 24), moves, back)
    }

    fn screen_of(size: (u16, u16), moves: &[u8], back: usize) -> String {
        let session = Session::new(Rules::CLASSIC, Player::Human, Player::Human);
        let mut app = App::new(session, size);
        for &d in moves {
            app.update(Action::Digit(d));
        }
        for _ in 0..back {
            app.update(Action::Earlier);
        }
        render(&app, None, false).to_text()
    }

    #[test]
    fn from_a_hundred_and_two_columns_the_moves_are_listed_beside_the_board_in_pairs() {
        let wide = screen(MOVES_FROM, &[5, 1, 9], 0);
        assert!(wide.contains("Moves"), "{wide}");
        assert!(wide.contains("  1. 5    1"), "{wide}");
        assert!(wide.contains("  2. 9"), "{wide}");
        let narrow = screen(MOVES_FROM - 1, &[5, 1, 9], 0);
        assert!(!narrow.contains("Moves"), "{narrow}");
        assert!(screen(MOVES_FROM, &[], 0).contains("none yet"));
    }

    /// Where `text` is on `screen`: its row and column.
    fn find(screen: &str, text: &str) -> (usize, usize) {
        screen
            .lines()
            .enumerate()
            .find_map(|(row, line)| {
                let byte = line.find(text)?;
                Some((row, line[..byte].chars().count()))
            })
            .unwrap_or_else(|| panic!("{text:?} not on:\n{screen}"))
    }

    #[test]
    fn on_a_wide_tall_screen_the_list_stands_beside_the_board_on_the_titles_row() {
        for size in [(MOVES_FROM, 24), (200, 60), (300, 80)] {
            let text = screen_of(size, &[5, 1, 9], 0);
            let (title_row, _) = find(&text, "round 1");
            let (list_row, list_column) = find(&text, "Moves");
            assert_eq!(list_row, title_row, "{size:?}:\n{text}");
            // The board's right edge: its top right corner.
            let (_, corner) = find(&text, "┐");
            assert!(
                list_column > corner && list_column - corner <= 30,
                "{size:?}: the board ends at column {corner}, the list starts at {list_column}"
            );
        }
    }

    #[test]
    fn the_list_marks_the_move_looked_back_at_and_the_title_says_which() {
        let session = Session::new(Rules::CLASSIC, Player::Human, Player::Human);
        let mut app = App::new(session, (MOVES_FROM, 24));
        for d in [5, 1, 9] {
            app.update(Action::Digit(d));
        }
        app.update(Action::Earlier);
        let frame = render(&app, None, false);
        let text = frame.to_text();
        assert!(text.contains("move 2 of 3"), "{text}");
        // O's 1, the second move, is marked: reversed where the list shows it.
        let (row, line) = text
            .lines()
            .enumerate()
            .find(|(_, l)| l.contains("  1. 5    1"))
            .unwrap();
        let chars: Vec<char> = line.chars().collect();
        let column = chars.iter().rposition(|&c| c == '1').unwrap();
        let tile = frame.tile(column as u16, row as u16);
        assert!(tile.style.reverse, "{tile:?}");
    }
}
