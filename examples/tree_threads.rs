//! Iterations of `hard`'s search from the empty Ultimate grid in 20 and 200 ms: on one tree by
//! one thread, on one tree shared by two threads, and on two trees, one a thread.
//!
//! ```text
//! cargo run --release --example tree_threads
//! cargo run --release --example tree_threads -- 2
//! ```
//!
//! With a number N, only the shared tree on N threads, for 2 s (to profile it).

use std::time::Duration;

use tictactoe::mcts::Mcts;
use tictactoe::ultimate::UltimateBoard;

fn main() {
    if let Some(n) = std::env::args().nth(1) {
        let n: usize = n.parse().unwrap();
        let mut shared = Mcts::new(Some(1));
        shared.think_shared(&UltimateBoard::new(), Duration::from_secs(2), n);
        println!("{n} threads: {}", shared.iterations());
        return;
    }
    let board = UltimateBoard::new();
    for ms in [20, 200] {
        let budget = Duration::from_millis(ms);
        let mut one = Mcts::new(Some(1));
        one.think(&board, budget);
        let mut shared = Mcts::new(Some(1));
        shared.think_shared(&board, budget, 2);
        let trees: Vec<u64> = std::thread::scope(|scope| {
            let running: Vec<_> = (0..2)
                .map(|seed| {
                    scope.spawn(move || {
                        let mut tree = Mcts::new(Some(seed));
                        tree.think(&board, budget);
                        tree.iterations()
                    })
                })
                .collect();
            running
                .into_iter()
                .map(|t| t.join().expect("a search"))
                .collect()
        });
        println!(
            "{ms} ms: one thread {}, one tree on two threads {}, two trees {} + {}",
            one.iterations(),
            shared.iterations(),
            trees[0],
            trees[1]
        );
    }
}
