//! The explorer's screen on the Monte Carlo tree of any rule set: the board of the node looked
//! at beside its moves in the tree (visits, win rate, the UCB score split into the win rate
//! and the exploration term, proofs, the principal variation), or, on Ultimate, in step mode
//! one iteration of the search: its walk down the tree, the node it expanded, its random game
//! and its backup.

use std::fmt::Write as _;

use super::{LEFT, Shown, TOP, draw_position, replay_state};
use crate::ai::mcts::{Ending, Iteration, Proven, Score, Walked};
use crate::explain::{MctsExplanation, MctsNode};
use crate::rules::classic::Mark;
use crate::rules::position::{Move as PositionMove, Position};
use crate::rules::ultimate::{Move, SmallStatus, UltimateBoard};
use crate::text::grouped;
use crate::ui::tui::app::{Explore, MonteCarlo};
use crate::ui::tui::view::frame::{Frame, Palette, Style};

/// The board's width: nine cells a space apart, two lines between the small boards.
const BOARD_WIDTH: u16 = 21;

/// The text's left edge, right of the board (wider than Ultimate's on Gomoku's 15×15).
fn text_x(explore: &Explore<MonteCarlo>) -> u16 {
    let side = u16::from(explore.root().grid_side());
    MonteCarlo::text_x(2 * side - 1)
}

/// `X to move · best line: 51 15 55 · 4,321 nodes`, with how deep the tree is recorded.
fn summary(explore: &Explore<MonteCarlo>, x: &MctsExplanation) -> String {
    let to_move = explore.root().to_move();
    let pv = if x.pv.is_empty() {
        "none".to_string()
    } else {
        let mut pv = x.pv.iter().take(6).cloned().collect::<Vec<_>>().join(" ");
        if x.pv.len() > 6 {
            pv.push_str(" …");
        }
        pv
    };
    let mut line = format!(
        "{to_move} to move · best line: {pv} · {} nodes",
        grouped(x.nodes as u64)
    );
    if x.iterations == 0 {
        line.push_str(" · proven at once");
    } else if x.iterations < explore.iterations() {
        let _ = write!(line, " · proven in {} iterations", grouped(x.iterations));
    }
    if let Some(depth) = x.depth {
        let _ = write!(line, ", shown to depth {depth}");
    }
    line
}

/// The node's visits and its mover's win rate or proof.
fn node_line(node: &MctsNode) -> String {
    let visits = format!("{} visits", grouped(u64::from(node.visits)));
    match (node.by, node.win_rate) {
        (Some(by), _) if node.proven.is_some() => format!("{visits} · {}", proof(node, by)),
        (Some(by), Some(rate)) => format!("{visits} · {by}'s win rate {:.1}%", rate * 100.0),
        _ => visits,
    }
}

/// `proven: X wins in 3`, for the player `by` who moved into the node.
fn proof(node: &MctsNode, by: char) -> String {
    let plies = node.plies.map_or_else(String::new, |p| format!(" in {p}"));
    match node.proven {
        Some("win") => format!("proven: {by} wins{plies}"),
        Some("loss") => format!("proven: {by} loses{plies}"),
        _ => "proven: a draw".to_string(),
    }
}

/// One move of the list: `▸ 51    234  52.3%  0.612 = 0.523 + 0.089  PV`.
fn child_line(child: &MctsNode, chosen: bool) -> String {
    let pointer = if chosen { "▸" } else { " " };
    let rate = child
        .win_rate
        .map_or_else(|| "—".to_string(), |r| format!("{:.1}%", r * 100.0));
    let ucb = match (child.ucb, child.win_rate, child.exploration) {
        (Some(u), Some(r), Some(e)) => format!("{u:.3} = {r:.3} + {e:.3}"),
        _ => "—".to_string(),
    };
    let mut marks = Vec::new();
    if child.pv {
        marks.push("PV".to_string());
    }
    match (child.proven, child.plies) {
        (Some(p), Some(n)) => marks.push(format!("{p} in {n}")),
        (Some(p), None) => marks.push(p.to_string()),
        _ => {}
    }
    if child.children.is_empty() && child.hidden > 0 {
        marks.push(format!("{} below", child.hidden));
    }
    format!(
        "{pointer} {:<4}{:>6} {rate:>6}  {ucb:<21} {}",
        child.mv.as_deref().unwrap_or(""),
        child.visits,
        marks.join(" ")
    )
}

impl Shown for MonteCarlo {
    const MIN: (u16, u16) = (78, 20);
    const LIST_AT: u16 = 4;
    /// The foot.
    const BELOW: u16 = 3;
    const LIST_HEADING: &'static str = "  move visits  win%   UCB = rate + explore";

    fn keys_line(explore: &Explore<MonteCarlo>) -> &'static str {
        if explore.ultimate() {
            "55 or ↑ ↓ Enter: into · Bksp back · + - iterations · s step · t close · ? keys"
        } else {
            "↑ ↓ Enter: into · Bksp back · + - iterations · a algorithm · s step · ? keys"
        }
    }

    /// The iterations, the search's line and size, and UCB1's formula.
    fn heading(explore: &Explore<MonteCarlo>) -> (String, String, Option<String>) {
        let mut title = format!(
            "Search explorer · Monte Carlo tree search · {} iterations",
            grouped(explore.iterations())
        );
        if explore.nested() > 0 {
            title.push_str(" · searched again");
        }
        let line = match explore.result() {
            None => format!("Searching: {} iterations…", grouped(explore.iterations())),
            Some(Err(e)) => e.to_string(),
            Some(Ok(x)) => summary(explore, x),
        };
        let formula = explore.explanation().map(|x| {
            format!(
                "UCB = win rate + {} × sqrt(ln N / n): N visits of the node, n of the move",
                x.exploration_constant
            )
        });
        (title, line, formula)
    }

    /// Right of the board, and of Ultimate's width at least (wider on Gomoku's 15×15).
    fn text_x(board_width: u16) -> u16 {
        LEFT + BOARD_WIDTH.max(board_width) + 3
    }

    /// The side to move (and the board typed, waiting for its cell), the node's visits and
    /// win rate, and how a move's visits start.
    fn node_lines(
        explore: &Explore<MonteCarlo>,
        at: &str,
        position: &Position,
        node: Option<&MctsNode>,
    ) -> Vec<(String, Style)> {
        let mut head = format!("At {at}: {} to move", position.to_move());
        if let Some(b) = explore.board_digit() {
            let _ = write!(head, " · board {b}, cell?");
        }
        let mut lines = vec![(head, Style::PLAIN.bold())];
        let Some(node) = node else {
            return lines;
        };
        lines.push((node_line(node), Style::PLAIN));
        if let Some(x) = explore.explanation() {
            let prior = match x.prior_visits {
                0 => "no move prior: every move starts unvisited".to_string(),
                n => format!("a move's visits start at {n} imaginary"),
            };
            lines.push((prior, Style::PLAIN.dim()));
        }
        lines
    }

    /// The principal variation bold.
    fn child_row(_: &MctsNode, child: &MctsNode, chosen: bool) -> (String, Style) {
        let style = if child.pv {
            Style::PLAIN.bold()
        } else {
            Style::PLAIN
        };
        (child_line(child, chosen), style)
    }

    fn empty_note(node: &MctsNode, over: bool) -> String {
        if over {
            "The game is over here.".into()
        } else if node.hidden > 0 {
            format!(
                "{} nodes below, not shown. Enter searches from here.",
                grouped(node.hidden)
            )
        } else {
            "Not grown yet: a node gets its moves the second time a walk reaches it. Enter \
         searches from here."
                .into()
        }
    }

    fn step_view(frame: &mut Frame, explore: &Explore<MonteCarlo>, palette: Palette) {
        step_view(frame, explore, palette);
    }
}

/// Step mode: the iteration, its walk with each choice's UCB score and the backup's visits
/// and win rates, the expansion, the random game and its result.
fn step_view(frame: &mut Frame, explore: &Explore<MonteCarlo>, palette: Palette) {
    let text = text_x(explore);
    let stepping = explore.stepping().expect("in step mode");
    let Some(iteration) = explore.iteration() else {
        let note = match explore.watched() {
            None => format!(
                "Working out the search's first {} iterations…",
                grouped(explore.steps_asked())
            ),
            Some(Err(e)) => e.to_string(),
            Some(Ok(_)) => "No iterations: the search has nothing to do here.".into(),
        };
        draw_position(frame, explore.root(), &[], palette);
        frame.text(text, TOP, &note, Style::PLAIN.bold());
        return;
    };
    let walked: Vec<PositionMove> = iteration.walk.iter().filter_map(|w| w.mv).collect();
    let mut position = *explore.root();
    for &mv in &walked {
        position.play(mv).expect("the walk plays legal moves");
    }
    draw_position(frame, &position, &walked, palette);
    let total = explore
        .watched()
        .and_then(|w| w.as_ref().ok())
        .map_or(0, Vec::len);
    let state = replay_state(stepping);
    let head = format!(
        "Iteration {} of {} · {state}",
        grouped(iteration.number),
        grouped(total as u64)
    );
    frame.text(text, TOP, &head, Style::PLAIN.bold());
    let to_move = explore.root().to_move();
    frame.text(
        text,
        TOP + 1,
        "move  UCB = rate+explore    visits   win rate",
        Style::PLAIN.dim(),
    );
    let bottom = frame.height() - 3;
    let mut y = TOP + 2;
    let lines = walk_lines(iteration, to_move);
    let room = usize::from(bottom.saturating_sub(y + 3));
    let skip = lines.len().saturating_sub(room);
    for (i, line) in lines.iter().enumerate().skip(skip) {
        let style = if iteration.walk[i].expanded {
            Style::PLAIN.bold().fg(palette.accent())
        } else {
            Style::PLAIN
        };
        frame.text(text, y, line, style);
        y += 1;
    }
    for line in ending_lines(iteration, to_move) {
        frame.text(text, y, &line, Style::PLAIN.bold());
        y += 1;
    }
    if let Some(line) = rivals_line(iteration).filter(|_| y < bottom) {
        frame.text(text, y, &line, Style::PLAIN.dim());
    }
}

/// The best UCB scores at the root's choice: `best UCB at the root: 53 0.948, 59 0.889`.
fn rivals_line(iteration: &Iteration<PositionMove>) -> Option<String> {
    let mut scored: Vec<(f32, PositionMove)> = iteration.walk[0]
        .choices
        .iter()
        .filter_map(|c| c.ucb.ucb().map(|u| (u, c.mv)))
        .collect();
    if scored.len() < 2 {
        return None;
    }
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    let best: Vec<String> = scored
        .iter()
        .take(3)
        .map(|(u, mv)| format!("{mv} {u:.3}"))
        .collect();
    Some(format!("best UCB at the root: {}", best.join(", ")))
}

/// Who moved into the node at `depth` on the walk (the root: the side not to move there).
fn mover(to_move: Mark, depth: usize) -> Mark {
    if depth % 2 == 1 {
        to_move
    } else {
        to_move.other()
    }
}

/// A win rate from half-points, to three decimals.
fn rate(half_points: u32, visits: u32) -> String {
    if visits == 0 {
        "-".into()
    } else {
        format!("{:.3}", f64::from(half_points) / f64::from(2 * visits))
    }
}

/// One line a node of the walk: its move, the UCB score it was chosen by, then its visits and
/// win rate before and after the backup.
fn walk_lines(iteration: &Iteration<PositionMove>, to_move: Mark) -> Vec<String> {
    let walk = &iteration.walk;
    walk.iter()
        .enumerate()
        .map(|(depth, w)| {
            let name = match w.mv {
                Some(mv) => format!("{} {mv}", mover(to_move, depth)),
                None => "root".to_string(),
            };
            let chosen = depth
                .checked_sub(1)
                .and_then(|d| walk[d].choices.iter().find(|c| c.chosen))
                .map_or_else(String::new, |c| {
                    score_text(c.ucb, walk[depth - 1].choices.len())
                });
            let indent = " ".repeat(depth.min(8));
            format!(
                "{indent}{name:<5} {chosen:<18} {:>4}→{:<5} {}→{}",
                w.before.0,
                w.after.0,
                rate(w.before.1, w.before.0),
                rate(w.after.1, w.after.0)
            )
        })
        .collect()
}

/// How a child was chosen: `0.521+0.093 of 81` (win rate plus exploration, among 81 moves).
fn score_text(score: Score, among: usize) -> String {
    match score {
        Score::Ucb { rate, exploration } => format!("{rate:.3}+{exploration:.3} of {among}"),
        Score::Untried => "untried".into(),
        Score::ProvenWin => "proven win".into(),
        Score::Skipped => "skipped".into(),
    }
}

/// The expansion, the random game (or the proof that ended the walk) and the backup.
fn ending_lines(iteration: &Iteration<PositionMove>, to_move: Mark) -> Vec<String> {
    let depth = iteration.walk.len() - 1;
    let last: &Walked<PositionMove> = &iteration.walk[depth];
    let name = |d: usize, w: &Walked<PositionMove>| match w.mv {
        Some(mv) => format!("{} {mv}", mover(to_move, d)),
        None => "the root".to_string(),
    };
    let expansion = match iteration.walk.iter().enumerate().find(|(_, w)| w.expanded) {
        Some((d, w)) => format!("expanded {}: {} moves added", name(d, w), w.children),
        None if matches!(iteration.ending, Ending::Proven(_)) => {
            format!("no expansion: {} is proven", name(depth, last))
        }
        None => format!("no expansion: {} is new", name(depth, last)),
    };
    let root = &iteration.walk[0];
    let winner = match root.after.1 - root.before.1 {
        2 => Some(to_move.other()),
        1 => None,
        _ => Some(to_move),
    };
    let result = winner.map_or_else(|| "a draw".to_string(), |m| format!("{m} wins"));
    let game = match &iteration.ending {
        Ending::Proven(p) => format!("no random game: proven, {}", proven_words(*p)),
        Ending::Playout(Some(moves)) => format!("random game: {} moves, {result}", moves.len()),
        Ending::Playout(None) => format!("random game: {result}"),
    };
    let backup = format!("backup: {} nodes +1 visit, {result}", iteration.walk.len());
    vec![expansion, game, backup]
}

fn proven_words(p: Proven) -> String {
    match p {
        Proven::Win(n) => format!("a win in {n}"),
        Proven::Loss(n) => format!("a loss in {n}"),
        Proven::Draw => "a draw".into(),
    }
}

/// Rows of a won small board: the winner's mark drawn large.
const BIG: [(Mark, [&str; 3]); 2] = [
    (Mark::X, ["X   X", "  X  ", "X   X"]),
    (Mark::O, ["O O O", "O   O", "O O O"]),
];

/// Draws `board` at the left, the cells of `marked` reversed; returns its width.
pub(super) fn draw_ultimate(
    frame: &mut Frame,
    board: &UltimateBoard,
    marked: &[Move],
    palette: Palette,
) -> u16 {
    let forced = board.forced_board();
    for top in 0..9u8 {
        let row = 8 - top;
        let y = TOP + u16::from(top + top / 3);
        for col in 0..9u8 {
            let mv = Move::at(col, row).expect("on the grid");
            let x = LEFT + u16::from(col * 2 + (col / 3) * 2);
            let status = board.small_board_status(mv.board());
            let (ch, mut style) = match (status, board.mark(mv)) {
                (SmallStatus::Won(winner), _) => {
                    let big = BIG.iter().find(|(m, _)| *m == winner).expect("X or O").1;
                    let ch = big[usize::from(top % 3)]
                        .chars()
                        .nth(usize::from(col % 3) * 2)
                        .unwrap_or(' ');
                    (ch, Style::PLAIN.fg(palette.mark(winner)))
                }
                (_, Some(m)) => (m.symbol(), Style::PLAIN.bold().fg(palette.mark(m))),
                (SmallStatus::Open, None) if forced.is_none_or(|b| b == mv.board()) => {
                    ('·', Style::PLAIN)
                }
                (_, None) => ('·', Style::PLAIN.dim()),
            };
            if marked.contains(&mv) {
                style = style.reverse();
            }
            frame.put(x, y, ch, style);
            if col == 2 || col == 5 {
                frame.put(x + 2, y, '│', Style::PLAIN);
            }
        }
        if top == 2 || top == 5 {
            frame.text(LEFT, y + 1, "──────┼───────┼──────", Style::PLAIN);
        }
    }
    let place = match (board.outcome(), forced) {
        (crate::rules::ultimate::Outcome::InProgress, Some(b)) => {
            format!("{} plays in board {b}", board.to_move())
        }
        (crate::rules::ultimate::Outcome::InProgress, None) => {
            format!("{} plays in any open board", board.to_move())
        }
        _ => "the game is over".to_string(),
    };
    frame.text(LEFT, TOP + 12, &place, Style::PLAIN.dim());
    BOARD_WIDTH
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::player::Player;
    use crate::game::Session;
    use crate::rules::position::Variant;
    use crate::ui::tui::app::App;
    use crate::ui::tui::app::answer_mcts;
    use crate::ui::tui::input::{Action, Direction};
    use crate::ui::tui::view::render;

    /// Two humans at Ultimate after `moves`, the explorer open and its search answered.
    fn exploring(moves: &[&str], size: (u16, u16)) -> App {
        let mut session = Session::new(Variant::Ultimate, Player::Human, Player::Human);
        for m in moves {
            session
                .play(m.parse::<crate::rules::ultimate::Move>().unwrap())
                .unwrap();
        }
        let mut app = App::new(session, size);
        app.update(Action::Explore);
        answer_mcts(&mut app);
        app
    }

    #[test]
    #[rustfmt::skip]
    fn the_tree_is_listed_beside_the_board_with_visits_win_rates_and_ucb_split() {
        let app = exploring(&["55", "51", "15"], (80, 24));
        let frame = render(&app, None, false);
        let text = frame.to_text();
        let rows: Vec<&str> = text.lines().collect();
        assert_eq!(rows[0].trim(), "Search explorer · Monte Carlo tree search · 1,000 iterations");
        assert_eq!(rows[1].trim(), "O to move · best line: 53 37 74 46 63 32 · 3,284 nodes");
        assert_eq!(&rows[4..13], [
            "  · · · │ · · · │ · · ·   At the start: O to move",
            "  · · · │ · · · │ · · ·   1,000 visits",
            "  · · · │ · · · │ · · ·   a move's visits start at 10 imaginary",
            "  ──────┼───────┼──────",
            "  · · · │ · · · │ · · ·     move visits  win%   UCB = rate + explore",
            "  · · · │ · X · │ · · ·   ▸ 53     360  49.9%  0.609 = 0.499 + 0.111 PV",
            "  · · · │ O · · │ · · ·     57     190  45.5%  0.608 = 0.455 + 0.153",
            "  ──────┼───────┼──────     52     184  45.4%  0.609 = 0.454 + 0.155",
            "  · · · │ · · · │ · · ·     54     178  48.9%  0.646 = 0.489 + 0.158",
        ]);
        // The chosen move's cell (board 5, cell 3) stands out; the principal variation is bold.
        assert!(frame.tile(14, 10).style.reverse);
        assert!(!frame.tile(10, 10).style.reverse);
        assert!(frame.tile(28, 9).style.bold && !frame.tile(28, 10).style.bold);
    }

    #[test]
    fn a_classic_boards_tree_is_drawn_beside_its_board_with_its_own_keys_and_help() {
        let session = Session::new(Variant::default(), Player::Human, Player::Human);
        let mut app = App::new(session, (80, 24));
        app.update(Action::Digit(5));
        app.update(Action::Explore);
        crate::ui::tui::app::answer_searches(&mut app);
        for _ in 0..5 {
            app.update(Action::Analyse);
        }
        answer_mcts(&mut app);
        let frame = render(&app, None, false);
        let text = frame.to_text();
        let rows: Vec<&str> = text.lines().collect();
        assert_eq!(
            rows[0].trim(),
            "Search explorer · Monte Carlo tree search · 1,000 iterations"
        );
        assert!(rows[4].starts_with("   7 │ 8 │ 9 "), "{text}");
        assert!(rows[6].starts_with("   4 │ X │ 6 "), "{text}");
        for line in [
            "At the start: O to move",
            "no move prior: every move starts unvisited",
            "move visits  win%   UCB = rate + explore",
            "a algorithm",
        ] {
            assert!(text.contains(line), "{line:?} missing:\n{text}");
        }
        // The chosen move's cell stands out on the board.
        let first = explore_first_move(&app);
        assert!(text.contains(&format!("▸ {first} ")), "{text}");
        app.update(Action::Help);
        let help = render(&app, None, false).to_text();
        assert!(help.contains("back to the textbook searches"), "{help}");
        app.update(Action::Help);
        // Step mode: the first iterations, each with its walk and random game.
        app.update(Action::Step);
        answer_mcts(&mut app);
        app.update(Action::Move(Direction::Right));
        let text = render(&app, None, false).to_text();
        for line in ["Iteration 2 of 1,000 · paused", "random game:", "backup:"] {
            assert!(text.contains(line), "{line:?} missing:\n{text}");
        }
        assert!(text.contains("4 │ X │ 6"), "the board beside:\n{text}");
    }

    fn explore_first_move(app: &App) -> String {
        let x = app.mcts_explorer().unwrap();
        x.node().unwrap().children[x.selected()].mv.clone().unwrap()
    }

    #[test]
    fn going_into_a_move_shows_its_board_its_win_rate_and_where_the_next_move_goes() {
        let mut app = exploring(&["55", "51", "15"], (80, 24));
        app.update(Action::Digit(3));
        let text = render(&app, None, false).to_text();
        for line in [
            "At 53: X to move",
            "360 visits · O's win rate 49.9%",
            "X plays in board 3",
            "  · · · │ · X · │ · · ·",
            "  · · · │ O · O │ · · ·",
        ] {
            assert!(text.contains(line), "{line:?} missing:\n{text}");
        }
    }

    #[test]
    fn step_mode_shows_the_walk_the_expansion_the_random_game_and_the_backup() {
        let mut app = exploring(&["55", "51", "15"], (80, 24));
        app.update(Action::Step);
        let text = render(&app, None, false).to_text();
        assert!(
            text.contains("Working out the search's first 1,000 iterations…"),
            "{text}"
        );
        answer_mcts(&mut app);
        for _ in 0..40 {
            app.update(Action::Move(Direction::Right));
        }
        let frame = render(&app, None, false);
        let text = frame.to_text();
        for line in [
            "Iteration 41 of 1,000 · paused",
            "root                       40→41    0.500→0.512",
            " O 53  0.562+0.384 of 7     16→17    0.562→0.529",
            "  X 31  0.500+0.421 of 9     10→11    0.500→0.545",
            "no expansion: X 31 is new",
            "random game: 24 moves, X wins",
            "backup: 3 nodes +1 visit, X wins",
            "best UCB at the root: 53 0.947, 59 0.888, 54 0.884",
            "O plays in board 1",
        ] {
            assert!(text.contains(line), "{line:?} missing:\n{text}");
        }
        // The walk's moves are highlighted on the board: 53, then 31.
        assert!(frame.tile(14, 10).style.reverse);
        assert!(frame.tile(18, 14).style.reverse);
    }

    #[test]
    #[rustfmt::skip]
    fn a_won_small_board_is_drawn_as_one_large_mark() {
        let app = exploring(&["55", "51", "15", "52", "25", "53"], (80, 24));
        let text = render(&app, None, false).to_text();
        let rows: Vec<&str> = text.lines().collect();
        let board: Vec<String> = rows[8..11].iter().map(|r| r.chars().take(23).collect()).collect();
        assert_eq!(board, [
            "  · · · │ O O O │ · · ·",
            "  · · · │ O   O │ · · ·",
            "  · · · │ O O O │ · · ·",
        ]);
    }

    /// The moves of a random game up to a position where the side to move wins at once.
    fn to_a_win_in_one() -> Vec<String> {
        let mut rng = fastrand::Rng::with_seed(3);
        loop {
            let mut board = UltimateBoard::new();
            let mut moves = Vec::new();
            while board.outcome() == crate::rules::ultimate::Outcome::InProgress {
                let legal: Vec<Move> = board.legal_moves().into_iter().collect();
                let wins = legal.iter().any(|&m| {
                    let after = board.with_move(m).unwrap();
                    matches!(after.outcome(), crate::rules::ultimate::Outcome::Won { .. })
                });
                if wins {
                    return moves;
                }
                let mv = legal[rng.usize(..legal.len())];
                board.play(mv).unwrap();
                moves.push(mv.to_string());
            }
        }
    }

    #[test]
    fn a_move_that_wins_at_once_is_marked_proven_and_leads_the_line() {
        let moves = to_a_win_in_one();
        let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
        let mut app = exploring(&moves, (80, 24));
        let text = render(&app, None, false).to_text();
        let first = text
            .lines()
            .find(|l| l.contains("▸ "))
            .unwrap_or_else(|| panic!("no move listed:\n{text}"));
        assert!(first.ends_with("PV win in 1"), "{first:?}:\n{text}");
        assert!(first.contains("—"), "no UCB for a proven move: {first:?}");
        app.update(Action::Activate);
        let text = render(&app, None, false).to_text();
        assert!(text.contains("wins in 1"), "{text}");
        assert!(text.contains("The game is over here."), "{text}");
        assert!(text.contains("the game is over"), "{text}");
        assert!(
            text.contains("best line: 91 · 17 nodes · proven at once"),
            "{text}"
        );
    }

    #[test]
    fn the_help_names_the_keys_and_a_small_screen_asks_for_room() {
        let mut app = exploring(&[], (80, 24));
        app.update(Action::Help);
        let text = render(&app, None, false).to_text();
        assert!(
            text.contains("+ -          more or fewer iterations"),
            "{text}"
        );
        let app = exploring(&[], (70, 24));
        let text = render(&app, None, false).to_text();
        assert!(!text.contains("Search explorer"), "{text}");
    }
}
