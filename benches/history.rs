//! History benchmarks: `cargo bench --bench history`.
//!
//! `history/read_100k_resumed` reads a history of 100,000 finished games marked as taken up
//! again (each of which continues no game kept before it) and one that does continue a game
//! left: the work of `tictactoe stats` and the start screen before they show anything.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tictactoe::store::history::Profile;

/// One line of the history: X (a person) against `o`, with `moves`, and `end` as the file
/// keeps it.
fn line(o: &str, moves: &str, end: &str) -> String {
    format!(
        "{{\"time\":\"2026-01-01T00:00:00Z\",\"rules\":\"\",\"x\":\"human\",\"o\":\"{o}\",\
         \"winner\":null,\"result\":null,\"moves\":[{moves}]{end}}}\n"
    )
}

fn read_resumed(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("tictactoe-bench-history-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let won = "\"7\",\"1\",\"8\",\"2\",\"9\"";
    let mut file = line("level 1", "\"7\",\"1\"", ",\"end\":\"abandoned\"");
    let resumed = line("level 2", won, ",\"resumed\":true");
    for _ in 0..100_000 {
        file.push_str(&resumed);
    }
    file.push_str(&line("level 1", won, ",\"resumed\":true"));
    std::fs::write(dir.join("history.jsonl"), file).expect("the history written");
    let profile = Profile::at(&dir);
    let mut group = c.benchmark_group("history");
    group.sample_size(10);
    group.bench_function("read_100k_resumed", |b| {
        b.iter(|| black_box(profile.read().expect("the history read")).len());
    });
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, read_resumed);
criterion_main!(benches);
