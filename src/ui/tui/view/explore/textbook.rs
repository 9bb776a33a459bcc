//! The textbook searches in the explorer: the value and best line above, each move's value,
//! window and marks, the path the search is on with its windows in step mode, and every
//! algorithm's totals side by side below.

use super::{LEFT, Shown, TOP, draw_squares, replay_state};
use crate::explain::{self, Algorithm, Bound, ExplainError, Explanation, Hit, Node, StepKind};
use crate::rules::position::Position;
use crate::ui::tui::app::{Explore, Textbook, step_words};
use crate::ui::tui::view::frame::{Frame, Palette, Style};
use crate::ui::tui::worker::EXPLORER_NODES;

impl Shown for Textbook {
    const MIN: (u16, u16) = (64, 20);
    const LIST_AT: u16 = 3;
    /// The totals and the foot.
    const BELOW: u16 = 8;
    const LIST_HEADING: &'static str = "  move  value  window      marks";

    fn keys_line(_: &Explore<Textbook>) -> &'static str {
        "↑ ↓ Enter or digit: into · Bksp back · a algorithm · s step · t close · ? keys"
    }

    /// The algorithm, the root's value and best line, and how much of the tree is recorded.
    fn heading(explore: &Explore<Textbook>) -> (String, String, Option<String>) {
        let algorithm = explore.algorithm();
        let mut title = format!("Search explorer · {}", algorithm.title());
        if explore.nested() > 0 {
            title.push_str(" · searched again below a recorded tree");
        }
        let line = match explore.result() {
            None => format!("Searching with {}…", algorithm.name()),
            Some(Err(e)) => e.to_string(),
            Some(Ok(x)) => {
                let pv = if x.pv.is_empty() {
                    "none (the game is over)".to_string()
                } else {
                    x.pv.join(" ")
                };
                format!(
                    "Value: {} ({}) · best line: {pv}",
                    signed(x.value),
                    x.verdict()
                )
            }
        };
        let note = explore.explanation().and_then(|x| x.depth).map(|depth| {
            format!(
                "Recorded to depth {depth} of a tree of over {EXPLORER_NODES} nodes: Enter at \
                 its edge searches on"
            )
        });
        (title, line, note)
    }

    fn text_x(board_width: u16) -> u16 {
        LEFT + board_width + 4
    }

    /// The side to move and the node's value, then the window it was entered with.
    fn node_lines(
        _: &Explore<Textbook>,
        at: &str,
        _: &Position,
        node: Option<&Node>,
    ) -> Vec<(String, Style)> {
        let Some(node) = node else {
            return vec![(format!("At {at}"), Style::PLAIN.bold())];
        };
        let summary = format!("At {at}: {} to move, {}", node.to_move, value_text(node));
        let mut lines = vec![(summary, Style::PLAIN.bold())];
        if let Some(w) = node.window {
            lines.push((format!("window on entry {w}"), Style::PLAIN));
        }
        lines
    }

    /// `▸ 2     0     (0, +∞)     cut-off`: the best moves bold, the pruned dim.
    fn child_row(node: &Node, child: &Node, chosen: bool) -> (String, Style) {
        let pointer = if chosen { "▸ " } else { "  " };
        let value = child
            .value
            .map_or_else(|| "—".to_string(), |_| value_short(child));
        let window = child.window.map_or_else(String::new, |w| w.to_string());
        let line = format!(
            "{pointer}{:<6}{value:<7}{window:<12}{}",
            child.mv.as_deref().unwrap_or(""),
            marks(child)
        );
        let style = if child.pruned {
            Style::PLAIN.dim()
        } else if child.value == node.value {
            Style::PLAIN.bold()
        } else {
            Style::PLAIN
        };
        (line, style)
    }

    fn empty_note(node: &Node, _: bool) -> String {
        if node.leaf {
            "The game is over here.".into()
        } else if node.table_hit.is_some() {
            "The table gave this value: nothing searched below. Enter searches from here.".into()
        } else {
            format!(
                "{} nodes searched below, not recorded. Enter searches again from here.",
                node.hidden
            )
        }
    }

    fn step_view(frame: &mut Frame, explore: &Explore<Textbook>, palette: Palette) {
        step_view(frame, explore, palette);
    }

    fn below(frame: &mut Frame, explore: &Explore<Textbook>) {
        totals(frame, explore, frame.height() - 7);
    }
}

/// Step mode: the step, the path the search is on (each node's window and best so far), the
/// current node's moves, and the counts so far.
fn step_view(frame: &mut Frame, explore: &Explore<Textbook>, palette: Palette) {
    let (Some(replay), Some(stepping)) = (explore.stepping(), explore.steps()) else {
        return;
    };
    let (Some((step, node)), Some(tree)) = (explore.step(), explore.explanation()) else {
        return;
    };
    let from = explain::node_at(&tree.tree, &stepping.from).expect("the replay's root");
    let mut path = stepping.from.clone();
    path.extend_from_slice(&step.path);
    let moves = explore.moves_to(&path);
    let position = explore.position_after(&moves);
    let board = position
        .classic()
        .expect("the explorer explains classic boards");
    let last = moves.last().and_then(|m| board.parse_cell(m).ok());
    let board_width = draw_squares(frame, board, last, palette);
    let x = LEFT + board_width + 4;
    let state = replay_state(replay);
    let head = format!(
        "Step {} of {} · {state}",
        replay.at + 1,
        stepping.steps.len()
    );
    frame.text(x, TOP, &head, Style::PLAIN.bold());
    let words = step_words(step, node, &moves);
    let accent = Style::PLAIN.bold().fg(palette.accent());
    frame.text(
        x,
        TOP + 1,
        &words,
        if step.kind == StepKind::Cut {
            accent.reverse()
        } else {
            accent
        },
    );
    let (visited, cutoffs, hits) = so_far(from, &stepping.steps[..=replay.at]);
    let counts = format!("so far: {visited} visited · {cutoffs} cut-offs · {hits} table hits");
    frame.text(x, TOP + 2, &counts, Style::PLAIN);
    let bottom = frame.height() - 8;
    let lines = path_lines(from, step, &explore.moves_to(&stepping.from));
    let room = usize::from(bottom - (TOP + 4));
    let skip = lines.len().saturating_sub(room.saturating_sub(1));
    let mut y = TOP + 4;
    for (i, line) in lines.iter().enumerate().skip(skip) {
        let style = if i + 1 == lines.len() {
            Style::PLAIN.reverse()
        } else {
            Style::PLAIN
        };
        frame.text(x, y, line, style);
        y += 1;
    }
    if y < bottom && !node.children.is_empty() {
        let done = explain::done_children(node, step, step.path.len());
        frame.text(x, y, &children_line(node, done), Style::PLAIN.dim());
    }
}

/// One line per node on the step's path: its move, who moves, the window as it has narrowed
/// and the best value backed up so far.
fn path_lines(from: &Node, step: &explain::Step, before: &[String]) -> Vec<String> {
    let mut lines = Vec::new();
    let mut node = from;
    for depth in 0..=step.path.len() {
        let done = explain::done_children(node, step, depth);
        let (best, window) = explain::progress(node, done);
        let name = match &node.mv {
            Some(mv) if depth > 0 => mv.clone(),
            _ if before.is_empty() => "start".to_string(),
            _ => before.join(" "),
        };
        let indent = " ".repeat((depth * 2).min(16));
        let window = window.map_or_else(String::new, |w| format!("  window {w}"));
        let best = best.map_or_else(|| "…".to_string(), signed);
        lines.push(format!(
            "{indent}{name}  {} to move{window}  best {best}",
            node.to_move
        ));
        if let Some(&i) = step.path.get(depth) {
            node = &node.children[i];
        }
    }
    lines
}

/// The current node's moves: backed up (with value), pruned, or still to come.
fn children_line(node: &Node, done: usize) -> String {
    let searched = node.children.iter().filter(|c| !c.pruned).count();
    let parts: Vec<String> = node
        .children
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let name = c.mv.as_deref().unwrap_or("");
            if c.pruned && done == searched {
                format!("{name} pruned")
            } else if i < done {
                format!("{name}={}", value_short(c))
            } else {
                format!("{name} …")
            }
        })
        .collect();
    format!("moves: {}", parts.join("  "))
}

/// Nodes visited (with those below unrecorded nodes), cut-offs and table hits in `steps`.
fn so_far(from: &Node, steps: &[explain::Step]) -> (u64, u64, u64) {
    let (mut visited, mut cutoffs, mut hits) = (0, 0, 0);
    for step in steps {
        let Some(node) = explain::node_at(from, &step.path) else {
            continue;
        };
        match step.kind {
            StepKind::Enter => visited += 1,
            StepKind::Cut => cutoffs += 1,
            StepKind::Leave => {
                if node.children.is_empty() {
                    visited += node.hidden;
                }
                hits += u64::from(node.table_hit.is_some());
            }
        }
    }
    (visited, cutoffs, hits)
}

/// One of the totals of a search.
type Count = fn(&Explanation) -> u64;

/// Every algorithm's totals side by side, the chosen one highlighted.
fn totals(frame: &mut Frame, explore: &Explore<Textbook>, y: u16) {
    let x = frame.width().saturating_sub(12 + 10 * 5) / 2;
    frame.text(x, y, "totals", Style::PLAIN.dim());
    let rows: [(&str, Count); 4] = [
        ("visited", |e| e.totals.visited),
        ("cut-offs", |e| e.totals.cutoffs),
        ("pruned", |e| e.totals.pruned),
        ("table hits", |e| e.totals.table_hits),
    ];
    for (col, algorithm) in Algorithm::ALL.into_iter().enumerate() {
        let cx = x + 12 + 10 * col as u16;
        let chosen = algorithm == explore.algorithm();
        let style = if chosen {
            Style::PLAIN.bold().reverse()
        } else {
            Style::PLAIN.dim()
        };
        frame.text(cx, y, &format!("{:>9}", algorithm.name()), style);
        for (row, (label, value)) in rows.iter().enumerate() {
            let y = y + 1 + row as u16;
            if col == 0 {
                frame.text(x, y, label, Style::PLAIN);
            }
            let text = match explore.result_of(algorithm) {
                None => "…".to_string(),
                Some(Ok(e)) => value(e).to_string(),
                Some(Err(ExplainError::TooLong)) => "too long".to_string(),
                Some(Err(_)) => "—".to_string(),
            };
            let style = if chosen {
                Style::PLAIN.bold()
            } else {
                Style::PLAIN
            };
            frame.text(cx, y, &format!("{text:>9}"), style);
        }
    }
}

/// A value as signed text: `+1`, `0`, `-1`.
fn signed(value: i32) -> String {
    if value > 0 {
        format!("+{value}")
    } else {
        value.to_string()
    }
}

/// A node's value with its bound: `0`, `≥ 0`, `≤ -1`.
fn value_short(node: &Node) -> String {
    let Some(v) = node.value else {
        return "—".into();
    };
    match node.bound {
        Some(Bound::Lower) => format!("≥{}", signed(v)),
        Some(Bound::Upper) => format!("≤{}", signed(v)),
        _ => signed(v),
    }
}

/// A node's value in words, for the line above its moves.
fn value_text(node: &Node) -> String {
    let Some(v) = node.value else {
        return "pruned: never searched".into();
    };
    let bound = match node.bound {
        Some(Bound::Lower) => " (a lower bound: β cut it off)",
        Some(Bound::Upper) => " (an upper bound: nothing reached α)",
        _ => "",
    };
    format!("value {}{bound}", signed(v))
}

/// A child's marks: pruned, a table hit, a cut-off, the end of the game, nodes not recorded.
fn marks(node: &Node) -> String {
    let mut marks = Vec::new();
    if node.pruned {
        marks.push("pruned".to_string());
    }
    match node.table_hit {
        Some(Hit::Same) => marks.push("table hit".into()),
        Some(Hit::Symmetric) => marks.push("table hit (symmetric)".into()),
        None => {}
    }
    if node.cutoff {
        marks.push(format!("cut-off, {} pruned", node.pruned_moves));
    }
    if node.leaf {
        marks.push("game over".into());
    }
    if node.children.is_empty() && node.hidden > 0 {
        marks.push(format!("{} below", node.hidden));
    }
    marks.join(", ")
}

#[cfg(test)]
mod tests {
    use crate::ai::player::Player;
    use crate::game::Session;
    use crate::rules::classic::Rules;
    use crate::ui::tui::app::App;
    use crate::ui::tui::app::answer_searches;
    use crate::ui::tui::input::Action;
    use crate::ui::tui::view::render;

    /// Two humans after `digits`, the explorer open and its searches answered.
    fn exploring(digits: &[u8], size: (u16, u16)) -> App {
        let session = Session::new(Rules::CLASSIC, Player::Human, Player::Human);
        let mut app = App::new(session, size);
        for &d in digits {
            app.update(Action::Digit(d));
        }
        app.update(Action::Explore);
        answer_searches(&mut app);
        app
    }

    #[test]
    #[rustfmt::skip]
    fn the_explorer_draws_the_board_the_moves_and_every_algorithms_totals() {
        let app = exploring(&[5, 1], (80, 24));
        let text = render(&app, None, false).to_text();
        let rows: Vec<&str> = text.lines().collect();
        assert_eq!(rows[0].trim(), "Search explorer · minimax");
        assert_eq!(rows[1].trim(), "Value: 0 (draw) · best line: 2 8 4 6 3 7 9");
        assert_eq!(&rows[4..10], [
            "   7 │ 8 │ 9     At the start: X to move, value 0",
            "  ───┼───┼───",
            "   4 │ X │ 6",
            "  ───┼───┼───      move  value  window      marks",
            "   O │ 2 │ 3     ▸ 2     0",
            "                   3     0",
        ]);
        assert_eq!(&rows[17..22], [
            "         totals        minimax alphabeta   ordered     table  symmetry",
            "         visited          6812       703       222       174        91",
            "         cut-offs            0       227        92        77        37",
            "         pruned              0       399       202       185        95",
            "         table hits          0         0         0        15        12",
        ]);
    }

    #[test]
    fn pruned_moves_bounds_and_windows_are_shown_under_alpha_beta() {
        let mut app = exploring(&[5, 1], (80, 24));
        app.update(Action::Analyse);
        app.update(Action::Digit(9));
        let text = render(&app, None, false).to_text();
        for line in [
            "At 9: O to move, value 0 (an upper bound: nothing reached α)",
            "window on entry (0, +∞)",
            "▸ 3     ≤0     (0, 1)",
            "  4     —                  pruned",
        ] {
            assert!(text.contains(line), "{line:?} missing:\n{text}");
        }
    }

    #[test]
    fn step_mode_shows_the_path_with_its_windows_and_the_counts_so_far() {
        let mut app = exploring(&[5, 1], (80, 24));
        app.update(Action::Analyse);
        app.update(Action::Digit(9));
        app.update(Action::Step);
        for _ in 0..7 {
            app.update(Action::Move(crate::ui::tui::input::Direction::Right));
        }
        let text = render(&app, None, false).to_text();
        for line in [
            "Step 8 of 180 · paused",
            "9 2 3 4 7: the game is over, value 1",
            "so far: 6 visited · 0 cut-offs · 0 table hits",
            "9  O to move  window (0, +∞)  best …",
            "      4  X to move  window (1, +∞)  best +1",
        ] {
            assert!(text.contains(line), "{line:?} missing:\n{text}");
        }
    }

    #[test]
    fn a_tree_too_big_says_how_deep_it_is_recorded_and_the_help_names_the_keys() {
        let mut app = exploring(&[], (80, 24));
        let text = render(&app, None, false).to_text();
        assert!(
            text.contains("Recorded to depth 4 of a tree of over 20000 nodes"),
            "{text}"
        );
        assert!(text.contains("visited        549946"), "{text}");
        app.update(Action::Help);
        let text = render(&app, None, false).to_text();
        assert!(
            text.contains("s            step mode: replay the search"),
            "{text}"
        );
    }
}

#[cfg(test)]
mod bigger {
    use crate::ai::player::Player;
    use crate::game::Session;
    use crate::rules::classic::{Board, Rules};
    use crate::ui::tui::app::App;
    use crate::ui::tui::app::answer_searches;
    use crate::ui::tui::input::Action;
    use crate::ui::tui::view::render;

    #[test]
    #[rustfmt::skip]
    fn a_bigger_board_is_drawn_compact_and_explored_with_arrows_and_enter() {
        let rules = Rules::new(4, 4, false).unwrap();
        let mut session = Session::new(rules, Player::Human, Player::Human);
        let board = Board::new(rules);
        for name in ["a1", "b2", "c3", "d4", "a2", "b1", "c1", "a3", "b3"] {
            session.play(board.parse_cell(name).unwrap()).unwrap();
        }
        let mut app = App::new(session, (80, 24));
        app.update(Action::Explore);
        answer_searches(&mut app);
        let text = render(&app, None, false).to_text();
        let rows: Vec<&str> = text.lines().collect();
        assert_eq!(&rows[4..9], [
            "  · · · O    At the start: O to move, value 0",
            "  O X X ·",
            "  X O · ·",
            "  X O X ·      move  value  window      marks",
            "             ▸ d1    0",
        ]);
        let d1 = frame_tile(&app, 8, 7);
        assert!(d1.style.reverse, "the chosen move's cell stands out");
        app.update(Action::Digit(5));
        assert_eq!(app.message(), "On this board: ↑ ↓ choose a move, Enter goes into it");
        app.update(Action::Move(crate::ui::tui::input::Direction::Down));
        app.update(Action::Activate);
        assert_eq!(app.message(), "At c2");
        let text = render(&app, None, false).to_text();
        assert!(text.contains("At c2: X to move, value 0"), "{text}");
    }

    fn frame_tile(app: &App, x: u16, y: u16) -> crate::ui::tui::view::Tile {
        render(app, None, false).tile(x, y)
    }
}
