//! Tree parallelism: one tree searched by several threads at once. Each thread walks down,
//! expands and backs up as [`Mcts`]'s own iteration does, on the same nodes, with its own
//! random numbers. A thread adds its visit to each node as it walks through it and the score
//! only when it backs up, so a node other threads are still below looks, for the moment, as
//! if it had lost those games (a *virtual loss*): the threads spread over the tree instead of
//! all walking the same path. A node is expanded by the one thread that locks it first; the
//! others take it for a leaf meanwhile. Proofs are made from children's proofs, which never
//! change once made, so a proof found here is one a single thread would find.
//!
//! The nodes live in atomics only while the threads run: the search copies its tree in
//! before and back after, so everything else (reuse between moves, the choice, the tree view)
//! reads the plain tree as after any search.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::thread;
use std::time::Duration;

use super::playouts::DRAW;
use super::{
    CHECK_EVERY, Choice, Evaluator, HALF, Limit, Mcts, Node, Proof, SearchGame, child, pick,
    proof_from, x_units,
};

/// Nodes a block of the shared arena holds (1 MiB); blocks are made as the tree reaches them.
const BLOCK: usize = 1 << 16;
/// `first` of a node a thread is expanding.
const LOCKED: u32 = u32::MAX;

/// A node whose fields threads read and write at once.
#[derive(Default)]
struct Slot {
    visits: AtomicU32,
    score: AtomicU32,
    first: AtomicU32,
    /// `count`, `mv`, `proof` and `plies`, a byte each.
    meta: AtomicU32,
}

fn proof_code(p: Proof) -> u32 {
    match p {
        Proof::Unknown => 0,
        Proof::Win => 1,
        Proof::Loss => 2,
        Proof::Draw => 3,
    }
}

fn proof_of(code: u32) -> Proof {
    match code & 0xff {
        1 => Proof::Win,
        2 => Proof::Loss,
        3 => Proof::Draw,
        _ => Proof::Unknown,
    }
}

fn meta(n: &Node) -> u32 {
    u32::from(n.count) | u32::from(n.mv) << 8 | proof_code(n.proof) << 16 | u32::from(n.plies) << 24
}

/// The tree while threads search it: nodes in blocks made on first use, and how many are
/// taken.
struct Arena {
    blocks: Vec<OnceLock<Box<[Slot]>>>,
    /// Nodes taken, those of expansions that did not fit included.
    len: AtomicUsize,
    /// The end of the last expansion that fit: every node below it is in use.
    used: AtomicUsize,
    cap: usize,
}

impl Arena {
    /// An arena of at most `cap` nodes holding a copy of `nodes`.
    fn from_nodes(nodes: &[Node], cap: usize) -> Arena {
        let arena = Arena {
            blocks: (0..cap.div_ceil(BLOCK)).map(|_| OnceLock::new()).collect(),
            len: AtomicUsize::new(nodes.len()),
            used: AtomicUsize::new(nodes.len()),
            cap,
        };
        arena.make_blocks(0, nodes.len());
        for (i, n) in nodes.iter().enumerate() {
            arena.store(i, n);
        }
        arena
    }

    /// The nodes, plain again.
    fn to_nodes(&self, cap: usize) -> Vec<Node> {
        let mut nodes = Vec::with_capacity(cap);
        nodes.extend((0..self.used.load(Ordering::Acquire)).map(|i| self.load(i)));
        nodes
    }

    fn make_blocks(&self, from: usize, to: usize) {
        if to > from {
            for b in from / BLOCK..=(to - 1) / BLOCK {
                self.blocks[b].get_or_init(|| (0..BLOCK).map(|_| Slot::default()).collect());
            }
        }
    }

    fn slot(&self, i: usize) -> &Slot {
        &self.blocks[i / BLOCK]
            .get()
            .expect("a node's block is made before it is used")[i % BLOCK]
    }

    fn load(&self, i: usize) -> Node {
        let s = self.slot(i);
        // `first` before the rest: a node's children and count are written before it.
        let first = s.first.load(Ordering::Acquire);
        let meta = s.meta.load(Ordering::Acquire);
        Node {
            visits: s.visits.load(Ordering::Relaxed),
            score: s.score.load(Ordering::Relaxed),
            first: if first == LOCKED { 0 } else { first },
            count: (meta & 0xff) as u8,
            mv: (meta >> 8 & 0xff) as u8,
            proof: proof_of(meta >> 16),
            plies: (meta >> 24) as u8,
        }
    }

    fn store(&self, i: usize, n: &Node) {
        let s = self.slot(i);
        s.visits.store(n.visits, Ordering::Relaxed);
        s.score.store(n.score, Ordering::Relaxed);
        s.meta.store(meta(n), Ordering::Relaxed);
        s.first.store(n.first, Ordering::Release);
    }

    /// Takes `count` nodes for a node's children; `None` if the arena is full.
    fn take(&self, count: usize) -> Option<usize> {
        let start = self.len.fetch_add(count, Ordering::Relaxed);
        if start + count > self.cap {
            return None;
        }
        self.make_blocks(start, start + count);
        self.used.fetch_max(start + count, Ordering::AcqRel);
        Some(start)
    }

    /// Records `proof` for node `i` if it has none yet; `true` if it did.
    fn prove(&self, i: usize, (proof, plies): (Proof, u8)) -> bool {
        self.slot(i)
            .meta
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |m| {
                (proof_of(m >> 16) == Proof::Unknown)
                    .then(|| m & 0xffff | proof_code(proof) << 16 | u32::from(plies) << 24)
            })
            .is_ok()
    }
}

/// The children of node `n` (empty until its expansion is published).
fn children(n: &Node) -> std::ops::Range<usize> {
    let first = n.first as usize;
    if first == 0 {
        0..0
    } else {
        first..first + usize::from(n.count)
    }
}

/// What a thread added to the root (index 0) and to its children (from 1), which every
/// iteration reads, and has not yet written to the tree: it does every batch of iterations,
/// so that the words every iteration writes stay in its own cache.
struct Local {
    /// The root's first child.
    first: usize,
    counts: Vec<(u32, u32)>,
}

impl Local {
    fn index(&self, i: usize) -> Option<usize> {
        if i == 0 {
            Some(0)
        } else {
            (self.first..self.first + self.counts.len() - 1)
                .contains(&i)
                .then(|| i - self.first + 1)
        }
    }
}

/// What the threads share: the tree, the search's knobs and when to stop.
struct Shared<'a, G: SearchGame, E: Evaluator<G>> {
    arena: Arena,
    root: G,
    eval: &'a E,
    exploration: f32,
    prior: u32,
    stop: AtomicBool,
    /// Iterations run, over every thread.
    done: AtomicU64,
}

impl<G: SearchGame, E: Evaluator<G>> Shared<'_, G, E> {
    /// Whether the root is proven (or, for an analysis, every root move is).
    fn finished(&self, every_move: bool) -> bool {
        let root = self.arena.load(0);
        if every_move {
            children(&root).all(|i| self.arena.load(i).proof != Proof::Unknown)
        } else {
            root.proof != Proof::Unknown
        }
    }

    /// One thread's iterations until the limit, a proof or a cancel stops them all.
    fn work(&self, limit: Limit, cancel: &(dyn Fn() -> bool + Sync), rng: &mut fastrand::Rng) {
        let mut path = Vec::with_capacity(96);
        let mut scratch = Vec::with_capacity(96);
        let root = self.arena.load(0);
        let mut local = Local {
            first: root.first as usize,
            counts: vec![(0, 0); usize::from(root.count) + 1],
        };
        loop {
            // Iterations are counted, and the stop looked at, a batch at a time: a word
            // every thread wrote on each iteration would travel between their caches.
            let done = self.done.fetch_add(CHECK_EVERY, Ordering::Relaxed);
            if self.stop.load(Ordering::Relaxed)
                || cancel()
                || self.finished(limit.every_move)
                || limit.past_deadline()
                || limit.iterations.is_some_and(|n| done >= n)
            {
                self.done.fetch_sub(CHECK_EVERY, Ordering::Relaxed);
                self.stop.store(true, Ordering::Relaxed);
                break;
            }
            for _ in 0..CHECK_EVERY {
                self.iterate(rng, (&mut path, &mut scratch), &mut local);
            }
            self.flush(&mut local, 1);
        }
        self.flush(&mut local, 0);
    }

    /// Writes what `local` holds for the root's children (and from `from` 0, the root's) to
    /// the tree.
    fn flush(&self, local: &mut Local, from: usize) {
        for (k, counts) in local.counts.iter_mut().enumerate().skip(from) {
            if *counts != (0, 0) {
                let slot = self
                    .arena
                    .slot(if k == 0 { 0 } else { local.first + k - 1 });
                slot.visits.fetch_add(counts.0, Ordering::Relaxed);
                slot.score.fetch_add(counts.1, Ordering::Relaxed);
                *counts = (0, 0);
            }
        }
    }

    /// Node `i` as this thread sees it: the tree's, with what it has not yet written there.
    fn seen(&self, i: usize, local: &Local) -> Node {
        let mut n = self.arena.load(i);
        if let Some(k) = local.index(i) {
            n.visits = n.visits.saturating_add(local.counts[k].0);
            n.score = n.score.saturating_add(local.counts[k].1);
        }
        n
    }

    /// Adds a visit, or `units` of score, to node `i`: to `local` for the root and its
    /// children, which every thread reads on every iteration, else to the tree.
    fn add(&self, i: usize, (visits, units): (u32, u32), local: &mut Local) {
        if let Some(k) = local.index(i) {
            let c = &mut local.counts[k];
            *c = (c.0 + visits, c.1.saturating_add(units));
        } else {
            let slot = self.arena.slot(i);
            slot.visits.fetch_add(visits, Ordering::Relaxed);
            slot.score.fetch_add(units, Ordering::Relaxed);
        }
    }

    /// One iteration on the shared tree: [`Mcts`]'s own, with virtual losses.
    fn iterate(
        &self,
        rng: &mut fastrand::Rng,
        (path, scratch): (&mut Vec<u32>, &mut Vec<Node>),
        local: &mut Local,
    ) {
        let mut board = self.root;
        let root_side = board.side();
        let mut node = 0usize;
        let mut newly_proven = None;
        path.clear();
        path.push(0);
        self.add(0, (1, 0), local);
        let x = loop {
            let n = self.seen(node, local);
            if n.proof != Proof::Unknown && node != 0 {
                let mover = (root_side ^ path.len()) as u8 & 1;
                break x_units(match n.proof {
                    Proof::Win => mover,
                    Proof::Loss => mover ^ 1,
                    _ => DRAW,
                });
            }
            // Visits before this thread's own.
            let before = n.visits.saturating_sub(1);
            if n.first == 0 {
                if before > self.prior && self.expand(node, &board, rng, scratch) {
                    if self.update_proof(node) {
                        newly_proven = Some(path.len() - 1);
                    }
                    continue;
                }
                break self.eval.leaf(&mut board, before, n.score, self.prior, rng);
            }
            // The root's visits: every thread's iterations so far.
            let visits = if node == 0 {
                self.arena
                    .load(0)
                    .visits
                    .saturating_add(self.done.load(Ordering::Relaxed) as u32)
            } else {
                n.visits
            };
            let Some(next) = pick(
                self.exploration,
                visits,
                node == 0,
                children(&n).map(|i| (i, self.seen(i, local))),
            ) else {
                // Every child was proven while this thread walked here: prove the node.
                if node != 0 && (self.update_proof(node) || self.is_proven(node)) {
                    newly_proven.get_or_insert(path.len() - 1);
                    continue;
                }
                break HALF;
            };
            node = next;
            self.add(node, (1, 0), local);
            board.apply_index(self.arena.load(node).mv);
            path.push(node as u32);
        };
        for (depth, &i) in path.iter().enumerate() {
            let mover = (root_side ^ 1 ^ (depth & 1)) as u8;
            let units = if mover == 0 { x } else { 2 * HALF - x };
            self.add(i as usize, (0, units), local);
        }
        if let Some(mut k) = newly_proven {
            while k > 0 {
                k -= 1;
                if !self.update_proof(path[k] as usize) {
                    break;
                }
            }
        }
    }

    /// Expands node `node` (position `board`) if no other thread is; `false` if one is, or
    /// the arena is full.
    fn expand(
        &self,
        node: usize,
        board: &G,
        rng: &mut fastrand::Rng,
        scratch: &mut Vec<Node>,
    ) -> bool {
        let slot = self.arena.slot(node);
        if slot
            .first
            .compare_exchange(0, LOCKED, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            return false;
        }
        let expansion = self.eval.expansion(board, self.prior);
        scratch.clear();
        scratch.extend(
            board
                .legal_indices()
                .map(|index| child(self.eval, self.prior, board, index, &expansion)),
        );
        rng.shuffle(scratch);
        let Some(first) = self.arena.take(scratch.len()) else {
            slot.first.store(0, Ordering::Release);
            return false;
        };
        for (i, c) in scratch.iter().enumerate() {
            self.arena.store(first + i, c);
        }
        let count = u8::try_from(scratch.len()).expect("at most 255 moves a position");
        slot.meta
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |m| {
                Some(m & !0xff | u32::from(count))
            })
            .expect("the update always applies");
        slot.first.store(first as u32, Ordering::Release);
        true
    }

    fn is_proven(&self, node: usize) -> bool {
        self.arena.load(node).proof != Proof::Unknown
    }

    /// Proves `node` from its children if it can; `true` if it was unproven and now is.
    fn update_proof(&self, node: usize) -> bool {
        let n = self.arena.load(node);
        if n.proof != Proof::Unknown {
            return false;
        }
        proof_from(children(&n).map(|i| self.arena.load(i)))
            .is_some_and(|proof| self.arena.prove(node, proof))
    }
}

impl<G, E> Mcts<G, E>
where
    G: SearchGame + Send + Sync,
    E: Evaluator<G> + Sync,
{
    /// [`Mcts::think`] on `threads` threads sharing this tree (one thread: `think` itself).
    /// The search is as `think`'s, but for the order in which the threads' iterations land,
    /// which the clock decides: even with a budget by work, it does not replay exactly.
    pub fn think_shared(
        &mut self,
        board: &G,
        budget: Duration,
        threads: usize,
    ) -> Option<Choice<G::Move>> {
        if threads <= 1 {
            return self.think(board, budget);
        }
        let limit = self.limit(budget, false);
        self.prepare(board)?;
        let done = self.search_shared(limit, threads)?;
        // A proven win: the look for a quicker one runs on one thread, within the budget.
        self.run(limit, done)?;
        Some(self.best())
    }

    /// The threads' part of a search; the iterations they ran, or `None` when cancelled.
    fn search_shared(&mut self, limit: Limit, threads: usize) -> Option<u64> {
        let shared = Shared {
            arena: Arena::from_nodes(&self.nodes, self.cap),
            root: self.root.expect("prepare() sets the root"),
            eval: &self.eval,
            exploration: self.exploration,
            prior: self.prior,
            stop: AtomicBool::new(false),
            done: AtomicU64::new(0),
        };
        let seeds: Vec<u64> = (0..threads).map(|_| self.rng.u64(..)).collect();
        let cancel = self.cancel.clone();
        let cancelled = || cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed));
        thread::scope(|scope| {
            for &seed in &seeds {
                let (shared, cancelled) = (&shared, &cancelled);
                // Each thread's random numbers on its own stack: side by side in one vector
                // they would share a cache line that both write.
                scope.spawn(move || {
                    shared.work(limit, cancelled, &mut fastrand::Rng::with_seed(seed));
                });
            }
        });
        let done = shared.done.load(Ordering::Relaxed);
        self.nodes = shared.arena.to_nodes(self.cap);
        (!cancelled()).then_some(done)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcts::step::tests::near_the_end;
    use crate::search::Value;

    fn result(v: Value) -> Option<i8> {
        match v {
            Value::Win(_) => Some(1),
            Value::Draw => Some(0),
            Value::Loss(_) => Some(-1),
            _ => None,
        }
    }

    #[test]
    fn a_shared_tree_proves_what_one_thread_proves() {
        let mut proven = 0;
        for seed in 0..40 {
            let board = near_the_end(seed, 14);
            let one = Mcts::new(Some(seed))
                .think_iterations(&board, 20_000)
                .unwrap();
            let mut shared = Mcts::new(Some(seed));
            let both = shared
                .think_shared(&board, Duration::from_millis(30), 2)
                .unwrap();
            if let (Some(a), Some(b)) = (result(one.value), result(both.value)) {
                assert_eq!(a, b, "{board}: the proofs disagree");
                proven += 1;
            }
        }
        assert!(proven > 0, "nothing proven near the end");
    }

    #[test]
    fn a_shared_tree_keeps_every_node_and_visit_it_made() {
        let board = near_the_end(3, 30);
        let mut mcts = Mcts::new(Some(1));
        mcts.think_shared(&board, Duration::from_millis(50), 2)
            .unwrap();
        let tree = mcts.tree().expect("a search ran");
        let root = tree.root();
        let below: u32 = root.children().map(|c| c.visits()).sum();
        // Every visit of the root went on to one child, beside the children's priors.
        let priors = root.children().count() as u32 * mcts.prior_visits();
        assert!(
            root.visits() + priors >= below,
            "{} < {below}",
            root.visits()
        );
        assert!(mcts.iterations() > 0);
    }
}
