//! The search explorer's screen: the board of the node looked at beside its moves (or, in
//! step mode, the path the search is on with its windows), the totals of every algorithm side
//! by side, the message line and the keys.

use std::time::Duration;

use super::chrome::message_line;
use super::frame::too_small;
use super::frame::{Frame, Palette, Style};
use crate::explain::{self, Algorithm, Bound, ExplainError, Explanation, Hit, Node, StepKind};
use crate::rules::classic::{Cell, Squares};
use crate::ui::tui::app::{App, Explore, Replay, SPEEDS, Textbook, step_words};
use crate::ui::tui::worker::EXPLORER_NODES;

/// The least screen the explorer draws on.
const MIN: (u16, u16) = (64, 20);

/// The board's left edge.
const LEFT: u16 = 2;

/// The first row below the heading.
const TOP: u16 = 4;

/// Help row that both explorers show: backing up.
pub(super) const HELP_BACK: &str = "Bksp Esc ←   back up the tree";

/// Help row: running step mode.
pub(super) const HELP_RUN: &str = "Space        step mode: run or pause";

/// Help row: step mode's speed.
pub(super) const HELP_SPEED: &str = "+ -          step mode: faster, slower";

/// Help row: closing the explorer.
pub(super) const HELP_CLOSE: &str = "t            close the explorer";

/// Help row: quitting.
pub(super) const HELP_QUIT: &str = "q Ctrl-C     quit";

/// The help's last row.
pub(super) const HELP_END: &str = "         any key closes this help";

/// The explorer's keys, for the help overlay.
pub(super) const EXPLORE_HELP: [&str; 14] = [
    "1-9 Enter →  go into a move (↑ ↓ choose one)",
    HELP_BACK,
    "a            the next algorithm (totals below),",
    "             after symmetry the Monte Carlo tree",
    "s            step mode: replay the search",
    HELP_RUN,
    "→ ←          step mode: one step on or back",
    "1 7          step mode: to the end, to the start",
    HELP_SPEED,
    HELP_CLOSE,
    "values       +1 X wins, 0 draw, -1 O wins;",
    "             ≥ ≤ a bound after a cut-off",
    HELP_QUIT,
    HELP_END,
];

/// The explorer's keys in a box that fits 64×20.
pub(super) const EXPLORE_SHORT_HELP: [&str; 7] =
    short_help("1-9 Enter  into a move", "a          next algorithm");

/// An explorer's keys in a box that fits its least screen: how to go into a move and the
/// explorer's own key among the keys both share.
pub(super) const fn short_help(into: &'static str, own: &'static str) -> [&'static str; 7] {
    [
        into,
        "Bksp Esc   back up",
        own,
        "s          step mode",
        "t          close",
        "q          quit",
        "  any key closes this",
    ]
}

/// The keys line of step mode, the same in both explorers.
const STEP_KEY_LINE: &str =
    "Space run/pause · → ← step · 1 end · + - speed · s leave · ? keys · q quit";

/// Whether the frame holds an explorer's least screen `min`; if not, it asks for room.
pub(super) fn fits(frame: &mut Frame, min: (u16, u16)) -> bool {
    let fits = frame.width() >= min.0 && frame.height() >= min.1;
    if !fits {
        too_small(frame, min);
    }
    fits
}

/// An explorer's last two rows: the message line, then the keys (step mode's while
/// `stepping`, else `browse_keys`).
pub(super) fn foot(
    frame: &mut Frame,
    app: &App,
    busy: Option<Duration>,
    stepping: bool,
    browse_keys: &str,
) {
    let height = frame.height();
    frame.centred(height - 2, &message_line(app, busy), Style::PLAIN.bold());
    let keys = if stepping { STEP_KEY_LINE } else { browse_keys };
    frame.centred(height - 1, keys, Style::PLAIN.dim());
}

/// The children that fit in `rows` rows with the selected one in sight, each with its row and
/// its index: `(row, (index, child))`.
fn in_sight<T>(
    children: &[T],
    selected: usize,
    rows: usize,
) -> impl Iterator<Item = (usize, (usize, &T))> {
    let first = selected.saturating_sub(rows.saturating_sub(1));
    children
        .iter()
        .enumerate()
        .skip(first)
        .take(rows)
        .enumerate()
}

/// A node's children as both explorers list them: `heading` at `(x, y)`, then the rows that
/// fit in `rows` with the selected child in sight, each as `row` writes and styles it (given
/// whether it is the selected one), the selected one reversed.
pub(super) fn draw_children<T>(
    frame: &mut Frame,
    (x, y): (u16, u16),
    heading: &str,
    rows: usize,
    (children, selected): (&[T], usize),
    row: impl Fn(&T, bool) -> (String, Style),
) {
    frame.text(x, y, heading, Style::PLAIN.dim());
    for (n, (i, child)) in in_sight(children, selected, rows) {
        let chosen = i == selected;
        let (line, style) = row(child, chosen);
        let style = if chosen { style.reverse() } else { style };
        frame.text(x, y + 1 + u16::try_from(n).unwrap_or(0), &line, style);
    }
}

/// `running, 10 a tick` or `paused`: how a replay stands, for step mode's heading.
pub(super) fn replay_state(replay: &Replay) -> String {
    if replay.running {
        format!("running, {} a tick", SPEEDS[replay.speed])
    } else {
        "paused".to_string()
    }
}

/// Draws the explorer over the whole frame.
pub(super) fn draw(
    frame: &mut Frame,
    app: &App,
    explore: &Explore<Textbook>,
    palette: Palette,
    busy: Option<Duration>,
) {
    if !fits(frame, MIN) {
        return;
    }
    heading(frame, explore);
    let moves = explore.moves();
    match explore.stepping() {
        Some(_) => step_view(frame, explore, palette),
        None => browse_view(frame, explore, &moves, palette),
    }
    totals(frame, explore, frame.height() - 7);
    let keys = "↑ ↓ Enter or digit: into · Bksp back · a algorithm · s step · t close · ? keys";
    foot(frame, app, busy, explore.stepping().is_some(), keys);
}

/// The title, the root's value and best line, and how much of the tree is recorded.
fn heading(frame: &mut Frame, explore: &Explore<Textbook>) {
    let algorithm = explore.algorithm();
    let mut title = format!("Search explorer · {}", algorithm.title());
    if explore.nested() > 0 {
        title.push_str(" · searched again below a recorded tree");
    }
    frame.centred(0, &title, Style::PLAIN.bold());
    let line = match explore.result_of(algorithm) {
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
    frame.centred(1, &line, Style::PLAIN);
    if let Some(Ok(x)) = explore.result_of(algorithm)
        && let Some(depth) = x.depth
    {
        let note = format!(
            "Recorded to depth {depth} of a tree of over {EXPLORER_NODES} nodes: Enter at \
             its edge searches on"
        );
        frame.centred(2, &note, Style::PLAIN.dim());
    }
}

/// The node looked at: its board, then each of its moves with value, window and marks.
fn browse_view(frame: &mut Frame, explore: &Explore<Textbook>, moves: &[String], palette: Palette) {
    let position = explore.position_after(moves);
    let board = position
        .classic()
        .expect("the explorer explains classic boards");
    let node = explore.node();
    let selected = node.and_then(|n| n.children.get(explore.selected()));
    let mark = selected
        .and_then(|c| c.mv.as_deref())
        .and_then(|m| board.parse_cell(m).ok());
    let board_width = draw_board(frame, board, mark, palette);
    let x = LEFT + board_width + 4;
    let at = if moves.is_empty() {
        "the start".to_string()
    } else {
        moves.join(" ")
    };
    let Some(node) = node else {
        frame.text(x, TOP, &format!("At {at}"), Style::PLAIN.bold());
        return;
    };
    let summary = format!("At {at}: {} to move, {}", node.to_move, value_text(node));
    frame.text(x, TOP, &summary, Style::PLAIN.bold());
    if let Some(w) = node.window {
        frame.text(x, TOP + 1, &format!("window on entry {w}"), Style::PLAIN);
    }
    let header = TOP + 3;
    if node.children.is_empty() {
        frame.text(x, header, &empty_note(node), Style::PLAIN.dim());
        return;
    }
    let heading = "  move  value  window      marks";
    let rows = usize::from(frame.height() - 8 - header);
    let list = (&node.children[..], explore.selected());
    draw_children(frame, (x, header), heading, rows, list, |child, chosen| {
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
    });
}

/// Why a node has no moves listed.
fn empty_note(node: &Node) -> String {
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
    let board_width = draw_board(frame, board, last, palette);
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

/// Draws `board` at the left, `mark` (a cell to point at) reversed; returns its width.
pub(super) fn draw_board(
    frame: &mut Frame,
    board: &impl Squares,
    mark: Option<Cell>,
    palette: Palette,
) -> u16 {
    let n = board.side();
    let three = n == 3;
    let step = if three { 4 } else { 2 };
    for row in 0..n {
        let y = TOP + u16::from(row) * if three { 2 } else { 1 };
        for col in 0..n {
            let cell = board.square(n - 1 - row, col).expect("on the board");
            let x = LEFT + u16::from(col) * step;
            let (ch, mut style) = match board.mark_on(cell) {
                Some(m) => (m.symbol(), Style::PLAIN.bold().fg(palette.mark(m))),
                None if three => (digit(cell), Style::PLAIN.dim()),
                None => ('·', Style::PLAIN.dim()),
            };
            if Some(cell) == mark {
                style = style.reverse();
            }
            let pad = u16::from(three);
            frame.put(x + pad, y, ch, style);
            if three && col < 2 {
                frame.put(x + 3, y, '│', Style::PLAIN);
            }
        }
        if three && row < 2 {
            frame.text(LEFT, y + 1, "───┼───┼───", Style::PLAIN);
        }
    }
    if three { 11 } else { u16::from(n) * 2 - 1 }
}

fn digit(cell: Cell) -> char {
    cell.numpad().map_or('·', |d| char::from(b'0' + d))
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
    use super::*;
    use crate::ai::player::Player;
    use crate::game::Session;
    use crate::rules::classic::Rules;
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
        app.update(Action::Letter('a'));
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
        app.update(Action::Letter('a'));
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
    use super::*;
    use crate::ai::player::Player;
    use crate::game::Session;
    use crate::rules::classic::{Board, Rules};
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
