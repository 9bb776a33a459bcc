//! The AI's worker thread: it owns the [`Brain`] (and so the search table), takes one job at a
//! time and answers through the game loop's channel, so the loop never waits on a search.
//!
//! Every job comes with its own cancel flag. Starting a new job raises the old one's flag, and
//! the search notices within a fraction of a millisecond; an answer to a job that is no
//! longer current is recognised by its number and dropped.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::Context;

use crate::ai::mcts::Iteration;
use crate::ai::player::{Brain, Line, Player, Work};
use crate::ai::search::Value;
use crate::explain::{self, Algorithm, ExplainError, Explanation, MctsExplanation};
use crate::game::record::Record;
use crate::report::puzzles::Verdict;
use crate::report::review::{self, Judgement};
use crate::rules::position::{Move, Position};

/// Work for the AI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Job {
    /// Choose `player`'s move in `position`, thinking no longer than `budget` where its
    /// clock gives one.
    Move {
        position: Position,
        player: Player,
        budget: Option<Duration>,
    },
    /// Whether the AI to move in `position` accepts a person's draw offer.
    Draw { position: Position },
    /// Every legal move's value in `position`, for a hint.
    Hint { position: Position },
    /// Every move of a game judged.
    Review { record: Record },
    /// The textbook searches of `position`, for the explorer: one answer per algorithm.
    Explain { position: Position },
    /// The Monte Carlo tree of `position` after `iterations` iterations, for the explorer.
    ExplainMcts { position: Position, iterations: u64 },
    /// The first `steps` iterations of that search, one at a time, for its step mode.
    WatchMcts { position: Position, steps: u64 },
    /// Whether `mv` keeps the win of the puzzle at `position`.
    Judge { position: Position, mv: Move },
    /// The best `count` lines of `position` for the analysis board (0: its value alone),
    /// thought about for longer and longer ([`THINKING`]), each answer sent as it comes.
    Lines { position: Position, count: usize },
}

/// The budgets the analysis board's lines are worked out within, one after the other: the
/// first answer comes at once, the next ones each think four times as long.
pub const THINKING: [Duration; 6] = [
    Duration::from_millis(30),
    Duration::from_millis(125),
    Duration::from_millis(500),
    Duration::from_secs(2),
    Duration::from_secs(8),
    Duration::from_secs(32),
];

/// The analysis board's lines of one position, as far as the worker has thought.
#[derive(Clone, Debug, PartialEq)]
pub struct Thought {
    pub lines: Vec<Line>,
    /// What the searches did, in all, for this position: the nodes of every budget so far,
    /// the depth of the last.
    pub work: Work,
    /// The time these lines took.
    pub time: Duration,
    /// Whether the worker is done with the position: each line proven, or the last budget
    /// spent.
    pub done: bool,
}

/// The most nodes of one recorded tree the explorer keeps: a deeper tree is recorded to a
/// smaller depth ([`explain::explain_fitting`]).
pub const EXPLORER_NODES: usize = 20_000;

/// The seed of the explorer's Monte Carlo searches: `explain --ultimate`'s default, so that the
/// command line prints the tree the explorer shows.
pub const EXPLORER_SEED: u64 = crate::report::explain::DEFAULT_SEED;

/// The order the explorer's searches run in: the quickest first, so the screen fills early.
const EXPLAIN_ORDER: [Algorithm; 5] = [
    Algorithm::Symmetry,
    Algorithm::Table,
    Algorithm::Ordered,
    Algorithm::AlphaBeta,
    Algorithm::Minimax,
];

/// The worker's answer to a [`Job`].
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    Move(Move),
    /// The AI accepts the draw offered (or plays on).
    Draw(bool),
    Hint(Vec<(Move, Value)>),
    /// Not an answer yet: a review's next move judged, of `total`.
    Progress {
        judged: Judgement,
        total: usize,
    },
    Review(Vec<Judgement>),
    /// One algorithm's search for the explorer; `last` when every algorithm has answered.
    Explained {
        algorithm: Algorithm,
        result: Box<Result<Explanation, ExplainError>>,
        last: bool,
    },
    /// The Monte Carlo tree for the explorer.
    ExplainedMcts(Box<Result<MctsExplanation, ExplainError>>),
    /// The iterations of the explorer's step mode.
    Watched(Box<Result<Vec<Iteration<Move>>, ExplainError>>),
    /// The analysis board's lines; not the answer yet unless [`Thought::done`].
    Lines(Box<Thought>),
    /// The verdict on a puzzle's answer (`None`: the search could not give one).
    Judged(Option<Verdict>),
    /// The worker thread died (a bug): no answer will come.
    Failed,
}

impl Reply {
    /// Whether this answers the job (rather than telling how far it has come).
    pub fn is_final(&self) -> bool {
        match self {
            Reply::Progress { .. } | Reply::Explained { last: false, .. } => false,
            Reply::Lines(thought) => thought.done,
            _ => true,
        }
    }
}

/// The job the worker was last given: running, or answered and waiting for the app to move
/// on (so asking for it again does not start it again).
struct Running {
    id: u64,
    job: Job,
    cancel: Arc<AtomicBool>,
    started: Instant,
    answered: bool,
}

/// The game loop's handle on the worker thread.
pub struct Worker {
    jobs: Sender<(u64, Job, Arc<AtomicBool>)>,
    running: Option<Running>,
    next_id: u64,
}

impl Worker {
    /// Starts the worker thread. Answers arrive on `answers` as `wrap(id, reply)`, where `id`
    /// is what [`Worker::want`] returned for the job.
    pub fn spawn<M: Send + 'static>(
        mut brain: Brain,
        answers: Sender<M>,
        wrap: fn(u64, Reply) -> M,
    ) -> anyhow::Result<Worker> {
        let (jobs, inbox): (_, Receiver<(u64, Job, Arc<AtomicBool>)>) = mpsc::channel();
        thread::Builder::new()
            .name("ai".into())
            .spawn(move || {
                let _farewell = Farewell {
                    answers: answers.clone(),
                    wrap,
                };
                for (id, job, cancel) in inbox {
                    if cancel.load(Ordering::Relaxed) {
                        continue;
                    }
                    brain.set_cancel(Some(Arc::clone(&cancel)));
                    let mut send = |reply| {
                        let _ = answers.send(wrap(id, reply));
                    };
                    let reply = work_on(&mut brain, job, &cancel, &mut send);
                    // A cancelled search's result means nothing.
                    if let Some(reply) = reply.filter(|_| !cancel.load(Ordering::Relaxed))
                        && answers.send(wrap(id, reply)).is_err()
                    {
                        break;
                    }
                }
            })
            .context("starting the AI thread")?;
        Ok(Worker {
            jobs,
            running: None,
            next_id: 0,
        })
    }

    /// Makes `job` the worker's only work (`None`: no work), cancelling any other job. Asking
    /// again for the current job changes nothing. Returns whether the job changed.
    pub fn want(&mut self, job: Option<Job>) -> bool {
        if self.running.as_ref().map(|r| &r.job) == job.as_ref() {
            return false;
        }
        self.cancel();
        if let Some(job) = job {
            self.next_id += 1;
            let cancel = Arc::new(AtomicBool::new(false));
            // If the thread is gone the job is never answered; the loop stays responsive.
            let _ = self
                .jobs
                .send((self.next_id, job.clone(), Arc::clone(&cancel)));
            self.running = Some(Running {
                id: self.next_id,
                job,
                cancel,
                started: Instant::now(),
                answered: false,
            });
        }
        true
    }

    /// Cancels the running job, if any.
    pub fn cancel(&mut self) {
        if let Some(running) = self.running.take() {
            running.cancel.store(true, Ordering::Relaxed);
        }
    }

    /// Whether `reply`, numbered `id`, is news on the current job; a final answer also ends
    /// the job.
    pub fn accept(&mut self, id: u64, reply: &Reply) -> bool {
        match &mut self.running {
            Some(r) if r.id == id && !r.answered => {
                r.answered = reply.is_final();
                true
            }
            _ => false,
        }
    }

    /// How long ago the current job was given, answered or not, or `None` without one.
    pub fn busy_for(&self) -> Option<Duration> {
        self.running.as_ref().map(|r| r.started.elapsed())
    }
}

/// Does `job` with `brain`: its answer, or `None` where it was sent already through `send`
/// (the jobs answered in parts, and a review's progress, go through `send`).
fn work_on(
    brain: &mut Brain,
    job: Job,
    cancel: &Arc<AtomicBool>,
    send: &mut dyn FnMut(Reply),
) -> Option<Reply> {
    match job {
        Job::Move {
            position,
            player,
            budget,
        } => brain
            .choose_within(player, &position, budget)
            .map(Reply::Move),
        Job::Draw { position } => {
            let head = brain.analyze(&position, true).head;
            Some(Reply::Draw(head.is_some_and(|(v, _)| v.at_most_even())))
        }
        Job::Hint { position } => Some(Reply::Hint(brain.hint(&position))),
        Job::Review { record } => {
            let mut progress = |judged: &Judgement, total| {
                let judged = *judged;
                send(Reply::Progress { judged, total });
            };
            review::review(&record, brain, &mut progress).map(Reply::Review)
        }
        Job::Explain { position } => {
            explain_all(&position, cancel, send);
            None
        }
        Job::ExplainMcts {
            position,
            iterations,
        } => Some(Reply::ExplainedMcts(Box::new(
            explain::explain_mcts_fitting(
                &position,
                iterations,
                EXPLORER_SEED,
                EXPLORER_NODES,
                cancel,
            ),
        ))),
        Job::WatchMcts { position, steps } => Some(Reply::Watched(Box::new(
            explain::watch_mcts_until(&position, 0, EXPLORER_SEED, steps, cancel),
        ))),
        Job::Judge { position, mv } => Some(Reply::Judged(crate::report::puzzles::judge(
            brain, &position, mv,
        ))),
        Job::Lines { position, count } => {
            think_on(brain, &position, count, cancel, send);
            None
        }
    }
}

/// Works out `count` lines of `position` (one, for its value, where `count` is 0) within each
/// budget of [`THINKING`] in turn, sending each answer; stops once every line is proven, or
/// early when `cancel` is raised.
fn think_on(
    brain: &mut Brain,
    position: &Position,
    count: usize,
    cancel: &AtomicBool,
    send: &mut dyn FnMut(Reply),
) {
    let started = Instant::now();
    let mut work = Work::default();
    for (i, budget) in THINKING.into_iter().enumerate() {
        let (lines, more) = brain.lines_within(position, count.max(1), budget);
        work = Work {
            nodes: work.nodes + more.nodes,
            depth: more.depth,
        };
        if cancel.load(Ordering::Relaxed) {
            return;
        }
        let proven = lines.iter().all(|line| line.value.is_proven());
        let done = proven || i + 1 == THINKING.len();
        send(Reply::Lines(Box::new(Thought {
            lines,
            work,
            time: started.elapsed(),
            done,
        })));
        if done {
            return;
        }
    }
}

/// Runs every textbook search on `position`, quickest first, and sends each answer as it
/// comes; stops early when `cancel` is raised.
fn explain_all(position: &Position, cancel: &AtomicBool, send: &mut dyn FnMut(Reply)) {
    for (i, algorithm) in EXPLAIN_ORDER.into_iter().enumerate() {
        let result = explain::explain_fitting(position, algorithm, EXPLORER_NODES, cancel);
        if cancel.load(Ordering::Relaxed) {
            return;
        }
        send(Reply::Explained {
            algorithm,
            result: Box::new(result),
            last: i + 1 == EXPLAIN_ORDER.len(),
        });
    }
}

/// Tells the loop when the worker thread dies of a panic, so the game stops with an error
/// instead of waiting for an answer that will never come.
struct Farewell<M> {
    answers: Sender<M>,
    wrap: fn(u64, Reply) -> M,
}

impl<M> Drop for Farewell<M> {
    fn drop(&mut self) {
        if thread::panicking() {
            let _ = self.answers.send((self.wrap)(0, Reply::Failed));
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.cancel();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::classic::{Board, Rules};
    use crate::rules::ultimate::UltimateBoard;
    use std::sync::mpsc::RecvTimeoutError;

    fn worker() -> (Worker, Receiver<(u64, Reply)>) {
        let (tx, rx) = mpsc::channel();
        let brain = Brain::new(Some(1)).with_think(Duration::from_mins(1));
        let worker = Worker::spawn(brain, tx, |id, reply| (id, reply)).unwrap();
        (worker, rx)
    }

    /// A position that takes seconds to solve: X's centre on 7×7 with four in a row.
    fn seven_by_seven() -> Position {
        let mut board = Board::new(Rules::new(7, 4, false).unwrap());
        board.play(board.cell_at(3, 3).unwrap()).unwrap();
        Position::Classic(board)
    }

    #[test]
    fn a_job_is_answered_once_under_its_number() {
        let (mut worker, rx) = worker();
        let job = Job::Move {
            position: Position::Classic(Board::default()),
            player: Player::HARD,
            budget: None,
        };
        assert!(worker.want(Some(job.clone())));
        assert!(!worker.want(Some(job)), "the same job is not started again");
        let (id, reply) = rx.recv_timeout(Duration::from_secs(10)).unwrap();
        assert!(matches!(reply, Reply::Move(_)));
        assert!(!worker.accept(id + 1, &reply), "another number is stale");
        assert!(worker.accept(id, &reply));
        assert!(!worker.accept(id, &reply), "answered once");
        assert!(
            worker.busy_for().is_some(),
            "the job stays current until replaced"
        );
        assert!(worker.want(None));
        assert!(worker.busy_for().is_none());
    }

    #[test]
    fn the_explorers_searches_answer_one_by_one_quickest_first() {
        let (mut worker, rx) = worker();
        let position = Position::Classic("X../.O./...".parse::<Board>().unwrap());
        worker.want(Some(Job::Explain { position }));
        let mut order = Vec::new();
        loop {
            let (id, reply) = rx.recv_timeout(Duration::from_secs(20)).unwrap();
            assert!(worker.accept(id, &reply));
            let Reply::Explained {
                algorithm,
                result,
                last,
            } = reply
            else {
                panic!("{reply:?}");
            };
            assert_eq!(result.unwrap().value, 0, "{algorithm}");
            order.push(algorithm);
            if last {
                break;
            }
        }
        assert_eq!(order, EXPLAIN_ORDER);
    }

    #[test]
    fn the_monte_carlo_tree_and_iterations_come_from_the_worker_and_a_new_job_cancels() {
        let (mut worker, rx) = worker();
        let board = UltimateBoard::new();
        worker.want(Some(Job::ExplainMcts {
            position: Position::Ultimate(board),
            iterations: 100_000_000,
        }));
        thread::sleep(Duration::from_millis(50));
        worker.want(Some(Job::WatchMcts {
            position: Position::Ultimate(board),
            steps: 50,
        }));
        // The endless search is dropped: the next answer is the iterations'.
        let (id, reply) = rx.recv_timeout(Duration::from_secs(20)).unwrap();
        assert!(worker.accept(id, &reply), "{reply:?} answers the new job");
        let Reply::Watched(watched) = reply else {
            panic!("{reply:?}")
        };
        assert_eq!(watched.unwrap().len(), 50);
        worker.want(Some(Job::ExplainMcts {
            position: Position::Ultimate(board),
            iterations: 200,
        }));
        let (_, reply) = rx.recv_timeout(Duration::from_secs(20)).unwrap();
        let Reply::ExplainedMcts(tree) = reply else {
            panic!("{reply:?}")
        };
        let tree = tree.unwrap();
        assert_eq!((tree.iterations, tree.seed), (200, EXPLORER_SEED));
    }

    #[test]
    fn a_cancelled_search_sends_nothing_and_frees_the_worker() {
        let (mut worker, rx) = worker();
        worker.want(Some(Job::Move {
            position: seven_by_seven(),
            player: Player::HARD,
            budget: None,
        }));
        thread::sleep(Duration::from_millis(100));
        worker.want(Some(Job::Move {
            position: Position::Classic(Board::default()),
            player: Player::EASY,
            budget: None,
        }));
        // The 7×7 search, given a minute, is dropped: the next answer is the easy move's.
        let (id, reply) = rx.recv_timeout(Duration::from_secs(10)).unwrap();
        assert!(worker.accept(id, &reply), "{reply:?} answers the new job");
        worker.want(None);
        assert!(matches!(
            rx.recv_timeout(Duration::from_millis(300)),
            Err(RecvTimeoutError::Timeout)
        ));
    }
}
