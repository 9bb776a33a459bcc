//! The textbook searches of `tictactoe explain`: their counts against an independent count,
//! their values against each other and the production solver on every open 3×3 position, and
//! the binary's text, JSON and DOT trees checked structurally.

mod pipe;
use pipe::{run, text};

use std::collections::HashSet;
use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::Value as Json;
use tictactoe::ai::search::{Searcher, Value};
use tictactoe::explain::{Algorithm, Limits, explain};
use tictactoe::rules::classic::{Board, Mark, Outcome, Rules};
use tictactoe::rules::position::Position;

/// The eight lines of a 3×3 board, cells numbered 0 to 8 row by row.
const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// Counts, independently of the library, the nodes of the full 3×3 game tree below and
/// including `cells` (0 empty, 1 and 2 the players), and the games that end in it.
fn count_tree(cells: &mut [u8; 9], player: u8) -> (u64, u64) {
    let won = LINES
        .iter()
        .any(|l| cells[l[0]] != 0 && cells[l[0]] == cells[l[1]] && cells[l[1]] == cells[l[2]]);
    if won || cells.iter().all(|&c| c != 0) {
        return (1, 1);
    }
    let (mut nodes, mut games) = (1, 0);
    for i in 0..9 {
        if cells[i] == 0 {
            cells[i] = player;
            let (n, g) = count_tree(cells, 3 - player);
            cells[i] = 0;
            nodes += n;
            games += g;
        }
    }
    (nodes, games)
}

const WHOLE_TREE: Limits = Limits {
    depth: None,
    max_nodes: 1_000_000,
};

const ROOT_ONLY: Limits = Limits {
    depth: Some(0),
    max_nodes: 1,
};

#[test]
fn minimax_from_the_empty_board_visits_549946_nodes_as_an_independent_count_does() {
    let (nodes, games) = count_tree(&mut [0; 9], 1);
    assert_eq!((nodes, games), (549_946, 255_168));
    let start = Position::Classic(Board::default());
    let explained = explain(&start, Algorithm::Minimax, ROOT_ONLY).unwrap();
    assert_eq!(explained.totals.visited, nodes, "the root counts");
    assert_eq!(explained.totals.leaves, games);
    assert_eq!(explained.value, 0);
    assert_eq!(
        explained.tree.hidden,
        nodes - 1,
        "every other node is below"
    );
    let whole = explain(&start, Algorithm::Minimax, WHOLE_TREE).unwrap();
    assert_eq!(
        whole.tree.count() as u64,
        nodes,
        "one recorded node per visit"
    );
}

#[test]
fn each_idea_visits_fewer_nodes_from_the_empty_board() {
    let start = Position::Classic(Board::default());
    let visited: Vec<u64> = Algorithm::ALL
        .iter()
        .map(|&a| explain(&start, a, ROOT_ONLY).unwrap().totals.visited)
        .collect();
    assert!(visited.windows(2).all(|w| w[1] < w[0]), "{visited:?}");
}

/// Every position reachable in a game under `rules`, finished ones included.
fn reachable(rules: Rules) -> Vec<Board> {
    let mut seen = HashSet::new();
    let mut todo = vec![Board::new(rules)];
    while let Some(board) = todo.pop() {
        if seen.insert(board) {
            todo.extend(
                board
                    .legal_moves()
                    .into_iter()
                    .map(|c| board.with_move(c).unwrap()),
            );
        }
    }
    seen.into_iter().collect()
}

/// The production solver's value of `board` from X's point of view: +1, 0 or -1.
fn solver_value(searcher: &mut Searcher, board: &Board) -> i32 {
    let sign = if board.to_move() == Mark::X { 1 } else { -1 };
    match searcher.value(board).expect("the game goes on") {
        Value::Win(_) => sign,
        Value::Loss(_) => -sign,
        Value::Draw => 0,
        other => panic!("{board}: the solver did not prove it: {other:?}"),
    }
}

/// Checks every algorithm's root value against minimax's and the solver's on every open
/// position; returns how many there were.
fn every_algorithm_agrees_on_every_open_position(rules: Rules) -> usize {
    let mut searcher = Searcher::new();
    let open: Vec<Board> = reachable(rules)
        .into_iter()
        .filter(|b| b.outcome() == Outcome::InProgress)
        .collect();
    for board in &open {
        let position = Position::Classic(*board);
        let minimax = explain(&position, Algorithm::Minimax, ROOT_ONLY)
            .unwrap()
            .value;
        assert_eq!(minimax, solver_value(&mut searcher, board), "{board}");
        for algorithm in &Algorithm::ALL[1..] {
            let value = explain(&position, *algorithm, ROOT_ONLY).unwrap().value;
            assert_eq!(value, minimax, "{algorithm} on {board}");
        }
    }
    open.len()
}

#[test]
fn every_algorithm_equals_minimax_and_the_solver_on_all_4520_open_positions() {
    assert_eq!(
        every_algorithm_agrees_on_every_open_position(Rules::CLASSIC),
        4520
    );
}

#[test]
fn every_algorithm_equals_minimax_and_the_solver_under_misere_rules() {
    let misere = Rules::new(3, 3, true).unwrap();
    assert!(every_algorithm_agrees_on_every_open_position(misere) > 4000);
}

/// Runs `tictactoe explain` with `args` and returns its standard output.
fn explain_out(args: &[&str]) -> String {
    let mut all = vec!["explain"];
    all.extend_from_slice(args);
    let out = run(&all, b"");
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout)
}

/// Checks a JSON node and its subtree: a value where searched, none where pruned, and every
/// searched node's value the max (X to move) or min (O to move) of its searched children's.
/// Returns (searched nodes, pruned nodes) in the subtree.
fn check_node(node: &Json) -> (u64, u64) {
    if node["pruned"].as_bool().unwrap() {
        assert!(node["value"].is_null(), "{node}");
        return (0, 1);
    }
    let value = node["value"].as_i64().expect("a searched node has a value");
    let children = node["children"].as_array().unwrap();
    let searched: Vec<i64> = children
        .iter()
        .filter_map(|c| c["value"].as_i64())
        .collect();
    if !searched.is_empty() {
        let best = if node["to_move"] == "X" {
            searched.iter().max()
        } else {
            searched.iter().min()
        };
        assert_eq!(Some(&value), best, "{node}");
    }
    let (mut nodes, mut pruned) = (1, 0);
    for child in children {
        let (n, p) = check_node(child);
        nodes += n;
        pruned += p;
    }
    (nodes, pruned)
}

#[test]
fn json_tree_values_are_the_max_or_min_of_their_children_for_every_algorithm() {
    for algorithm in Algorithm::ALL {
        for position in ["X.O/.X./..O", "..X/.X./O..", "X../.../..."] {
            let args = [position, "--json", "--max-nodes", "100000"];
            let out = explain_out(&[&args[..], &["--algorithm", algorithm.name()]].concat());
            let json: Json = serde_json::from_str(&out).unwrap();
            let (nodes, pruned) = check_node(&json["tree"]);
            let totals = &json["totals"];
            assert_eq!(
                json["value"], json["tree"]["value"],
                "{algorithm} {position}"
            );
            assert_eq!(
                Some(nodes),
                totals["visited"].as_u64(),
                "{algorithm} {position}"
            );
            assert_eq!(
                Some(pruned),
                totals["pruned"].as_u64(),
                "{algorithm} {position}"
            );
            assert_eq!(json["algorithm"], algorithm.name());
            assert!(json["tree"]["window"].is_object() || algorithm == Algorithm::Minimax);
        }
    }
}

#[test]
fn plain_tree_is_indented_by_level_and_ends_with_the_totals() {
    let out = explain_out(&["X.O/.X./..O", "--plain", "--algorithm", "alphabeta"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "alpha-beta from X.O/.X./..O");
    assert_eq!(lines[1], "value: 0 (draw); X maximises, O minimises");
    let tree: Vec<&str> = lines[4..]
        .iter()
        .copied()
        .take_while(|l| !l.is_empty())
        .collect();
    assert_eq!(tree[0], "root, X to move: 0  (-∞, +∞)");
    let indent = |l: &str| l.len() - l.trim_start().len();
    for pair in tree.windows(2) {
        assert!(indent(pair[1]) <= indent(pair[0]) + 2, "{pair:?}");
        assert_eq!(indent(pair[1]) % 2, 0);
    }
    let searched = tree.iter().filter(|l| !l.ends_with("pruned")).count();
    let total = |name: &str| {
        let line = lines.iter().find(|l| l.starts_with(name)).unwrap();
        line[name.len()..].trim().parse::<usize>().unwrap()
    };
    assert_eq!(searched, total("nodes visited:"));
    assert_eq!(tree.len() - searched, total("pruned branches:"));
    assert!(lines.last().unwrap().starts_with("table entries:"));
}

#[test]
fn plain_tree_to_a_depth_tells_how_many_nodes_lie_below() {
    let out = explain_out(&["--depth", "1"]);
    let lines: Vec<&str> = out.lines().collect();
    let children: Vec<&&str> = lines.iter().filter(|l| l.starts_with("  X ")).collect();
    assert_eq!(children.len(), 9);
    let below: usize = children
        .iter()
        .map(|l| {
            let (_, rest) = l.split_once('[').unwrap();
            rest.split(' ').next().unwrap().parse::<usize>().unwrap()
        })
        .sum();
    assert_eq!(
        below + 10,
        549_946,
        "root and children shown, the rest below"
    );
    assert!(out.contains("nodes visited: 549946\n"));
}

#[test]
fn moves_and_a_board_name_the_same_position() {
    let from_moves = explain_out(&["5", "1", "9", "--algorithm", "table"]);
    let from_board = explain_out(&["..X/.X./O..", "--algorithm", "table"]);
    assert_eq!(from_moves, from_board);
}

#[test]
fn symmetric_table_hits_appear_only_with_symmetry() {
    let symmetric = explain_out(&["5", "--algorithm", "symmetry"]);
    assert!(symmetric.contains("[table hit (symmetric)]"), "{symmetric}");
    let plain_table = explain_out(&["5", "--algorithm", "table"]);
    assert!(!plain_table.contains("symmetric"));
    assert!(plain_table.contains("table hit"));
}

/// The DOT statements of a graph: `(nodes with their attributes, edges (from, to, attributes))`.
type Statements = (Vec<(String, String)>, Vec<(String, String, String)>);

fn dot_statements(dot: &str) -> Statements {
    let (mut nodes, mut edges) = (Vec::new(), Vec::new());
    for line in dot.lines().map(str::trim) {
        let Some(body) = line.strip_suffix(';') else {
            continue;
        };
        if let Some((from, rest)) = body.split_once(" -> ") {
            let (to, attrs) = rest.split_once(' ').unwrap_or((rest, ""));
            edges.push((from.to_string(), to.to_string(), attrs.to_string()));
        } else if let Some((id, attrs)) = body.split_once(' ')
            && id.starts_with('n')
            && id[1..].bytes().all(|b| b.is_ascii_digit())
        {
            nodes.push((id.to_string(), attrs.to_string()));
        }
    }
    (nodes, edges)
}

#[test]
fn dot_draws_pruned_branches_dashed_and_the_best_line_bold() {
    let args = ["X.O/.X./..O", "--algorithm", "alphabeta"];
    let dot = explain_out(&[&args[..], &["--dot"]].concat());
    let json: Json =
        serde_json::from_str(&explain_out(&[&args[..], &["--json"]].concat())).unwrap();
    assert!(dot.starts_with("digraph explain {\n") && dot.ends_with("}\n"));
    let (nodes, edges) = dot_statements(&dot);
    let ids: HashSet<&String> = nodes.iter().map(|(id, _)| id).collect();
    assert_eq!(ids.len(), nodes.len(), "each node declared once");
    assert_eq!(edges.len(), nodes.len() - 1, "a tree");
    assert!(
        edges
            .iter()
            .all(|(a, b, _)| ids.contains(a) && ids.contains(b))
    );
    let dashed = edges.iter().filter(|e| e.2.contains("dashed")).count();
    assert_eq!(Some(dashed as u64), json["totals"]["pruned"].as_u64());
    let bold = edges.iter().filter(|e| e.2.contains("bold")).count();
    assert_eq!(bold, json["pv"].as_array().unwrap().len());
}

/// A test that cannot run its subject here says so and passes, except under continuous
/// integration (`CI` set), where `.ci/run` installs what it needs: there it fails, so that a
/// green run has run it.
fn cannot_run(why: &str) {
    assert!(
        std::env::var_os("CI").is_none(),
        "{why}, and under CI this test must run (.ci/run installs what it needs)"
    );
    eprintln!("skipped: {why}");
}

#[test]
fn dot_output_parses_with_graphviz_where_it_is_installed() {
    let Ok(check) = Command::new("dot").arg("-V").output() else {
        cannot_run("Graphviz `dot` is not installed");
        return;
    };
    assert!(check.status.success());
    graphviz_draws(&explain_out(&[
        "5",
        "1",
        "--algorithm",
        "symmetry",
        "--dot",
    ]));
    let args = ["--ultimate", "--iterations", "200", "--depth", "2", "--dot"];
    graphviz_draws(&explain_out(&args));
}

/// Asserts that Graphviz draws `dot` as SVG.
fn graphviz_draws(dot: &str) {
    let mut child = Command::new("dot")
        .arg("-Tsvg")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(dot.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("<svg"));
}

/// Runs `tictactoe explain` with `args`, expecting it to refuse: status 2, nothing on
/// standard output, and the message on standard error.
fn refusal(args: &[&str]) -> String {
    let mut all = vec!["explain"];
    all.extend_from_slice(args);
    let out = run(&all, b"");
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    assert!(out.stdout.is_empty());
    text(&out.stderr)
}

#[test]
fn a_search_too_big_for_the_explorer_is_refused_after_a_million_visits_on_any_board() {
    for size in ["5", "7"] {
        let why = refusal(&["--size", size, "--algorithm", "symmetry"]);
        assert!(
            why.contains("the search visited 1000000 nodes without finishing"),
            "{size}: {why}"
        );
    }
}

#[test]
fn with_no_depth_the_deepest_tree_that_fits_is_shown_with_a_note_on_seeing_more() {
    let out = run(&["explain"], b"");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stderr).trim_end(),
        "Shown to depth 4: the whole tree has 549946 nodes, more than --max-nodes 10000. \
         --depth 5 or a larger --max-nodes shows more."
    );
    let shown = text(&out.stdout);
    assert!(shown.contains("draw"), "{shown}");
    let deeper = run(&["explain", "--depth", "5"], b"");
    assert_eq!(deeper.status.code(), Some(2), "depth 5 does not fit");
}

#[test]
fn a_tree_too_big_for_the_depth_asked_is_refused_with_its_size_and_status_2() {
    let why = refusal(&["--depth", "2", "--max-nodes", "50"]);
    assert!(why.contains("to depth 2 has 82 nodes"), "{why}");
}

#[test]
fn bad_boards_and_moves_are_refused_with_status_2() {
    assert!(refusal(&["X/"]).contains("bad board"));
    assert!(refusal(&["XXX/OOO/..."]).contains("bad board"));
    assert!(refusal(&["X../.../...", "--size", "4"]).contains("--size is 4"));
    assert!(refusal(&["5", "5"]).contains("taken"));
    assert!(refusal(&["5", "0"]).contains("move 2"));
    assert!(refusal(&["--ultimate", "55", "55"]).contains("move 2"));
}

#[test]
fn a_finished_game_is_a_tree_of_one_node() {
    let json: Json = serde_json::from_str(&explain_out(&["XXX/OO./...", "--json"])).unwrap();
    assert_eq!(json["value"], 1);
    assert_eq!(json["tree"]["leaf"], true);
    assert_eq!(json["totals"]["visited"], 1);
}

#[test]
fn explain_help_lists_only_the_flags_that_apply_to_it() {
    let out = run(&["explain", "--help"], b"");
    assert!(out.status.success());
    let help = text(&out.stdout);
    for flag in [
        "--algorithm",
        "--depth",
        "--max-nodes",
        "--json",
        "--dot",
        "--plain",
        "--size",
        "--k",
        "--misere",
        "--ultimate",
        "--iterations",
        "--seed",
        "--steps",
    ] {
        assert!(help.contains(flag), "{flag} missing:\n{help}");
    }
    for flag in [
        "--x-player",
        "--o-player",
        "--think",
        "--table-mb",
        "--no-color",
        "--ascii",
        "--from",
        "--no-history",
    ] {
        assert!(!help.contains(flag), "{flag} listed:\n{help}");
    }
    assert!(
        help.contains("Print the tree as indented text (the default)"),
        "{help}"
    );
    // The game's own help still lists them, and explain refuses them, naming them.
    let top = text(&run(&["--help"], b"").stdout);
    assert!(
        top.contains("--x-player") && top.contains("--think"),
        "{top}"
    );
    let out = run(&["explain", "--think", "5", "--depth", "0", "5"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--think does not apply to `explain`"),
        "{}",
        text(&out.stderr)
    );
}

/// Checks an Ultimate JSON node and its subtree: every unproven node's real visits (beyond the
/// prior's imaginary ones) are its own random game plus its children's, and every UCB score is
/// the win rate plus the exploration term worked out from the parent's visits. Returns the
/// nodes in the subtree.
fn check_mcts_node(node: &Json, prior: u64, c: f64) -> u64 {
    let visits = node["visits"].as_u64().unwrap();
    let parent = node["visits"].as_f64().unwrap();
    let children = node["children"].as_array().unwrap();
    let below: u64 = children
        .iter()
        .map(|child| child["visits"].as_u64().unwrap() - prior)
        .sum();
    if !children.is_empty() && node["proven"].is_null() && !node["by"].is_null() {
        assert_eq!(visits - prior, 1 + below, "{node}");
    }
    for child in children {
        if let (Some(q), Some(e), Some(u)) = (
            child["win_rate"].as_f64(),
            child["exploration"].as_f64(),
            child["ucb"].as_f64(),
        ) {
            assert!((q + e - u).abs() < 1e-4, "{child}");
            let n = child["visits"].as_f64().unwrap();
            let expected = c * (parent.ln() / n).sqrt();
            assert!((e - expected).abs() < 1e-4, "{child}");
        }
        if !child["proven"].is_null() {
            assert!(
                child["ucb"].is_null(),
                "a proven node is not chosen by UCB: {child}"
            );
        }
    }
    1 + children
        .iter()
        .map(|child| check_mcts_node(child, prior, c))
        .sum::<u64>()
}

#[test]
fn ultimate_shows_the_monte_carlo_tree_with_consistent_visits_and_ucb_scores() {
    let args = ["--ultimate", "55", "--iterations", "400", "--seed", "3"];
    let json: Json =
        serde_json::from_str(&explain_out(&[&args[..], &["--json"]].concat())).unwrap();
    assert_eq!(json["search"], "mcts");
    assert_eq!(json["iterations"], 400);
    let root = &json["tree"];
    assert_eq!(root["visits"], 400);
    let prior = json["prior_visits"].as_u64().unwrap();
    let c = json["exploration_constant"].as_f64().unwrap();
    let below: u64 = root["children"]
        .as_array()
        .unwrap()
        .iter()
        .map(|child| child["visits"].as_u64().unwrap() - prior)
        .sum();
    assert_eq!(
        below, 400,
        "every iteration goes through one of the root's moves"
    );
    let shown = check_mcts_node(root, prior, c);
    assert_eq!(
        shown,
        json["nodes"].as_u64().unwrap(),
        "the whole tree is shown"
    );
    // The best line follows the most visited moves, marked along the way.
    let first = &root["children"][0];
    assert_eq!(first["move"], json["pv"][0]);
    assert_eq!(first["pv"], true);
    // The same seed, the same tree; another seed, another.
    assert_eq!(
        explain_out(&[&args[..], &["--json"]].concat()),
        explain_out(&[&args[..], &["--json"]].concat())
    );
    let other = explain_out(&[
        "--ultimate",
        "55",
        "--iterations",
        "400",
        "--seed",
        "4",
        "--json",
    ]);
    assert_ne!(other, explain_out(&[&args[..], &["--json"]].concat()));
}

#[test]
fn a_classic_board_shows_the_monte_carlo_tree_with_consistent_visits_and_ucb_scores() {
    let args = [
        "X../.O./...",
        "--algorithm",
        "mcts",
        "--iterations",
        "300",
        "--seed",
        "2",
    ];
    let out = explain_out(&[&args[..], &["--json"]].concat());
    let json: Json = serde_json::from_str(&out).unwrap();
    assert_eq!(json["search"], "mcts");
    assert_eq!(json["to_move"], "X");
    assert_eq!(json["prior_visits"], 0, "random games, no move prior");
    let root = &json["tree"];
    assert_eq!(root["visits"], json["iterations"]);
    assert_eq!(root["children"].as_array().unwrap().len(), 7);
    let below: u64 = root["children"]
        .as_array()
        .unwrap()
        .iter()
        .map(|child| child["visits"].as_u64().unwrap())
        .sum();
    assert_eq!(below, root["visits"].as_u64().unwrap());
    let c = json["exploration_constant"].as_f64().unwrap();
    assert_eq!(check_mcts_node(root, 0, c), json["nodes"].as_u64().unwrap());
    assert_eq!(root["children"][0]["move"], json["pv"][0]);
    assert_eq!(
        out,
        explain_out(&[&args[..], &["--json"]].concat()),
        "the same seed"
    );
    let plain = explain_out(&args);
    assert!(plain.starts_with("Monte Carlo tree search from X../.O./...: 300 iterations, seed 2"));
    assert!(plain.contains("no move prior"), "{plain}");
}

#[test]
fn steps_on_a_classic_board_show_each_iterations_walk_and_random_game() {
    let out = explain_out(&[
        "X../.O./...",
        "--algorithm",
        "mcts",
        "--iterations",
        "20",
        "--steps",
        "3",
    ]);
    assert!(
        out.starts_with("Monte Carlo tree search from X../.O./...: 20 iterations, seed 1, then 3 more one at a time"),
        "{out}"
    );
    for n in 21..=23 {
        assert!(out.contains(&format!("iteration {n}")), "{n}: {out}");
    }
    assert!(out.contains("playout from"), "{out}");
    assert!(
        !out.contains("imaginary"),
        "no move prior on a classic board: {out}"
    );
    // The last backup leaves the root as a search of 23 iterations shows it.
    let walk = last_backup(&out);
    let json: Json = serde_json::from_str(&explain_out(&[
        "X../.O./...",
        "--algorithm",
        "mcts",
        "--iterations",
        "23",
        "--json",
    ]))
    .unwrap();
    assert_eq!(json["tree"]["visits"].as_u64(), Some(walk[0].2));
}

#[test]
fn the_monte_carlo_tree_of_a_classic_board_proves_a_win_in_one_and_leads_with_it() {
    // X to move completes the top row at c3, and nothing else wins at once.
    for board in ["XX./OO./...", "X.X/O../O..", "XO./XO./..."] {
        let out = explain_out(&[
            board,
            "--algorithm",
            "mcts",
            "--iterations",
            "200",
            "--json",
        ]);
        let json: Json = serde_json::from_str(&out).unwrap();
        let children = json["tree"]["children"].as_array().unwrap();
        let won: Vec<&Json> = children.iter().filter(|c| c["proven"] == "win").collect();
        assert_eq!(won.len(), 1, "{board}: {out}");
        assert_eq!(won[0]["plies"], 1);
        assert_eq!(won[0]["move"], json["pv"][0], "{board}");
        assert_eq!(
            json["pv"].as_array().unwrap().len(),
            1,
            "the game ends there"
        );
    }
}

#[test]
fn ultimate_plain_text_and_dot_name_visits_win_rates_and_ucb() {
    let args = ["--ultimate", "--iterations", "300", "--depth", "1"];
    let plain = explain_out(&args);
    assert!(
        plain.starts_with("Monte Carlo tree search from "),
        "{plain}"
    );
    assert!(plain.contains("root, X to move: 300 visits"), "{plain}");
    assert!(plain.contains("best line: "));
    let line = plain
        .lines()
        .find(|l| l.starts_with("  X ") && l.contains("[best line"))
        .expect("the best move marked");
    assert!(line.contains("win rate") && line.contains("UCB "), "{line}");
    assert_eq!(plain.lines().filter(|l| l.starts_with("  X ")).count(), 81);
    let dot = explain_out(&[&args[..], &["--dot"]].concat());
    let (nodes, edges) = dot_statements(&dot);
    assert_eq!((nodes.len(), edges.len()), (82, 81));
    assert_eq!(
        edges.iter().filter(|(_, _, a)| a.contains("bold")).count(),
        1,
        "one level shown, one bold edge"
    );
    let why = refusal(&[
        "--ultimate",
        "--iterations",
        "300",
        "--depth",
        "2",
        "--max-nodes",
        "50",
    ]);
    assert!(why.contains("more than --max-nodes 50"), "{why}");
}

#[test]
fn monte_carlo_trees_over_max_nodes_are_shown_to_the_depth_that_fits_with_a_note() {
    let boards: [&[&str]; 2] = [&["--ultimate"], &["--gomoku", "h8", "i9"]];
    for board in boards {
        let args = [
            &["explain"],
            board,
            &["--iterations", "300", "--max-nodes", "120"],
        ]
        .concat();
        let out = run(&args, b"");
        let note = text(&out.stderr);
        assert!(out.status.success(), "{args:?}: {note}");
        assert!(
            note.starts_with("Shown to depth 1: the whole tree has ")
                && note.contains(
                    " nodes, more than --max-nodes 120. --depth 2 or a larger \
                     --max-nodes shows more."
                ),
            "{args:?}: {note}"
        );
        let shown = text(&out.stdout);
        let children = shown.lines().filter(|l| l.starts_with("  X ")).count();
        assert!(children > 0, "{args:?}: {shown}");
        assert!(
            !shown.lines().any(|l| l.starts_with("    ")),
            "nothing below depth 1: {shown}"
        );
    }
}

/// The backup lines of the last iteration of a `--steps` report: each node on the walk, root
/// first, as (move, visits before, visits after); the root's move is `None`.
fn last_backup(report: &str) -> Vec<(Option<String>, u64, u64)> {
    let last = report.rsplit("\niteration ").next().unwrap();
    last.lines()
        .skip_while(|l| !l.starts_with("  backup"))
        .skip(1)
        .map(|l| {
            let (name, counts) = l.trim().split_once("  ").expect("name then counts");
            let words: Vec<&str> = counts.split_whitespace().collect();
            // "12 0.500 → 13 0.462"
            assert_eq!(words[2], "→", "{l}");
            let mv = name.split_whitespace().nth(1).map(str::to_string);
            (mv, words[0].parse().unwrap(), words[3].parse().unwrap())
        })
        .collect()
}

#[test]
fn ultimate_steps_show_each_iterations_walk_expansion_playout_and_backup() {
    let args = [
        "--ultimate",
        "55",
        "--iterations",
        "200",
        "--seed",
        "3",
        "--steps",
        "40",
    ];
    let report = explain_out(&args);
    assert!(
        report.contains("200 iterations, seed 3, then 40 more"),
        "{report}"
    );
    for n in 201..=240 {
        assert!(
            report.contains(&format!("\niteration {n}\n")),
            "{n}:\n{report}"
        );
    }
    assert_eq!(
        report.matches("← chosen").count(),
        report.matches("chooses among").count()
    );
    assert!(
        report.contains("moves added"),
        "some step expands a node:\n{report}"
    );
    assert!(report.contains("  playout from "), "{report}");
    // The same seed, the same steps; another seed, others.
    assert_eq!(report, explain_out(&args));
    let mut other = args;
    other[5] = "4";
    assert_ne!(report, explain_out(&other));
}

#[test]
fn the_last_steps_backup_is_the_tree_after_all_the_iterations() {
    let steps = explain_out(&[
        "--ultimate",
        "55",
        "--iterations",
        "150",
        "--seed",
        "8",
        "--steps",
        "5",
    ]);
    let walk = last_backup(&steps);
    assert!(walk.len() >= 2, "{steps}");
    assert!(walk.iter().all(|&(_, before, after)| after == before + 1));
    let json: Json = serde_json::from_str(&explain_out(&[
        "--ultimate",
        "55",
        "--iterations",
        "155",
        "--seed",
        "8",
        "--json",
        "--max-nodes",
        "1000000",
    ]))
    .unwrap();
    let mut node = &json["tree"];
    assert_eq!(node["visits"].as_u64(), Some(walk[0].2));
    for (mv, _, after) in &walk[1..] {
        let mv = mv.as_deref().unwrap();
        node = node["children"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["move"] == mv)
            .unwrap_or_else(|| panic!("{mv} in the tree"));
        assert_eq!(node["visits"].as_u64(), Some(*after), "{mv}");
    }
}

#[test]
fn monte_carlo_flags_need_the_monte_carlo_search_and_ultimate_takes_no_textbook_search() {
    for flag in [["--iterations", "10"], ["--seed", "2"]] {
        let why = refusal(&flag);
        assert!(why.contains("add --algorithm mcts"), "{flag:?}: {why}");
        let why = refusal(&[&flag[..], &["--algorithm", "table"]].concat());
        assert!(why.contains("add --algorithm mcts"), "{flag:?}: {why}");
    }
    let why = refusal(&["--steps", "1"]);
    assert!(why.contains("add --algorithm mcts"), "{why}");
    let why = refusal(&["--ultimate", "--algorithm", "alphabeta"]);
    assert!(why.contains("drop --algorithm"), "{why}");
    assert!(
        explain_out(&[
            "--ultimate",
            "--algorithm",
            "mcts",
            "--iterations",
            "20",
            "--depth",
            "1"
        ])
        .contains("20 iterations")
    );
    let why = refusal(&["--ultimate", "--steps", "2", "--json"]);
    assert!(why.contains("text only"), "{why}");
    // Each alone still works.
    assert!(explain_out(&["X../.../...", "--algorithm", "alphabeta"]).contains("nodes visited"));
    assert!(
        explain_out(&["--ultimate", "--iterations", "20", "--depth", "1"])
            .contains("20 iterations")
    );
}

#[test]
fn ultimate_steps_near_the_end_reach_proven_nodes_without_a_random_game() {
    // Six moves before the end of a game.
    let moves = "93 39 92 24 48 85 59 91 13 38 86 63 37 72 26 68 83 31 17 74 44 47 78 89 97 73 34 \
                 43 35 58 81 15 55 54 45 51 16 65 53 36 62 22 28 82 21 18 88 87 79 98 84 46 69 \
                 96 67 77 75 56 66 64 42 27 76 61 19 95";
    let mut args = vec!["--ultimate"];
    args.extend(moves.split_whitespace());
    args.extend(["--iterations", "30", "--steps", "40"]);
    let report = explain_out(&args);
    assert!(report.contains("\niteration 70\n"), "{report}");
    let proven = report
        .lines()
        .filter(|l| l.starts_with("  playout: none, ") && l.contains(" is a proven "))
        .count();
    assert!(proven > 0, "{report}");
    // Every random game is given move by move, to its result.
    for line in report.lines().filter(|l| l.starts_with("  playout from ")) {
        let (_, game) = line.split_once(": ").expect("the moves");
        let (played, result) = game.split_once(" → ").expect("the result");
        assert!(!played.is_empty(), "{line}");
        assert!(["X wins", "O wins", "draw"].contains(&result), "{line}");
    }
    assert!(
        report.contains("skipped"),
        "a proven loss is skipped:\n{report}"
    );
}

#[test]
fn explain_refuses_a_game_named_by_rules_whose_rule_it_does_not_show() {
    let out = run(&["explain", "--rules", "renju"], b"");
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("--rules renju does not apply to `explain`"),
        "{err}"
    );
    let board = run(&["explain", "--rules", "gomoku", "X.O/.X./..."], b"");
    assert_eq!(board.status.code(), Some(2), "a 3×3 board is not Gomoku's");
    assert!(
        text(&board.stderr).contains("--rules gomoku plays on Gomoku's points"),
        "{}",
        text(&board.stderr)
    );
}
