//! A game in progress (the board, the moves so far for undo, who controls each side) and a
//! [`Session`] of rounds between two players with their names and score, shared by the front
//! ends.

pub mod clock;
pub mod ending;
pub mod file;
pub mod formats;
pub mod record;
pub mod tree;

use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::ai::levels::{Adaptive, Level};
use crate::ai::player::Player;
use crate::game::clock::{Clock, TimeControl};
use crate::game::ending::{Ending, Offer};
use crate::game::record::Record;
use crate::rules::classic::Mark;
use crate::rules::gomoku::opening::{Seat, Stage};
use crate::rules::position::{Move, MoveError, Outcome, Position, Variant};

/// Moves a person may type ahead while the other side is to move, at most this many; the
/// front ends keep them in order and play them when the turn comes.
pub const TYPE_AHEAD: usize = 8;

/// One game: a position reached from the start by `history`, and the two sides' players.
///
/// Invariant: `position` is the start position of its variant with `history` played in order,
/// and the first `opening` moves of `history` (the position the game was set up at) are never
/// taken back; `acts` holds, for each move of `history`, the seat that made it and the
/// opening's stage it was made in.
#[derive(Clone, Debug)]
pub struct Game {
    position: Position,
    history: Vec<Move>,
    acts: Vec<(Seat, Stage)>,
    opening: usize,
    /// The first seat's player, who plays X unless a swap opening exchanged the colours
    /// ([`crate::rules::gomoku::opening`]), and the second's.
    x: Player,
    o: Player,
    /// The game was left unfinished and taken up again: its record in the history stands for
    /// the one kept when it was left.
    resumed: bool,
    /// How it ended off the board (a resignation, a draw agreed), if it did.
    ended: Option<Ending>,
    /// The last draw offered ([`Game::draw_offer`] says whether it stands).
    offer: Option<Offer>,
}

impl Game {
    pub fn new(variant: impl Into<Variant>, x: Player, o: Player) -> Game {
        Game {
            position: variant.into().start(),
            history: Vec::new(),
            acts: Vec::new(),
            opening: 0,
            x,
            o,
            resumed: false,
            ended: None,
            offer: None,
        }
    }

    /// A game left unfinished, taken up again where it was: `record` played, its first
    /// `setup` moves set up before play (as [`Game::from_record`] sets them up).
    pub fn resume(record: &Record, setup: usize, x: Player, o: Player) -> Option<Game> {
        let opening = Record::new(record.variant(), record.moves().get(..setup)?.to_vec()).ok()?;
        let mut game = Game::from_record(&opening, x, o);
        for &mv in &record.moves()[setup..] {
            game.play(mv).ok()?;
        }
        game.resumed = true;
        Some(game)
    }

    /// This game, marked as taken up again after it was left (or not).
    pub fn with_resumed(mut self, resumed: bool) -> Game {
        self.resumed = resumed;
        self
    }

    /// Whether the game was left unfinished and taken up again.
    pub fn is_resumed(&self) -> bool {
        self.resumed
    }

    /// A game set up at the end of `opening` (`--from`): its moves are part of the record,
    /// but undo never takes them back.
    pub fn from_record(opening: &Record, x: Player, o: Player) -> Game {
        let mut game = Game::new(opening.variant(), x, o);
        for &mv in opening.moves() {
            game.play(mv).expect("a record replays legally");
        }
        game.opening = game.history.len();
        game
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    pub fn variant(&self) -> Variant {
        self.position.variant()
    }

    /// The moves played so far, first to last.
    pub fn history(&self) -> &[Move] {
        &self.history
    }

    /// The game so far as a record: its variant and its moves.
    pub fn record(&self) -> Record {
        Record::new(self.variant(), self.history.clone()).expect("the history replays legally")
    }

    pub fn last_move(&self) -> Option<Move> {
        self.history.last().copied()
    }

    /// The seat that made the last move, and the opening's stage it was made in.
    pub fn last_act(&self) -> Option<(Seat, Stage)> {
        self.acts.last().copied()
    }

    /// Who plays `mark`: X's player is the first seat's, unless a swap opening's choice
    /// exchanged the colours.
    pub fn player(&self, mark: Mark) -> Player {
        self.seat_player(self.position.seat_of(mark))
    }

    /// The players of the first seat and of the second: of X and O, unless a swap opening's
    /// choice exchanged the colours. What a game is set up again from (resumed, played on,
    /// reopened).
    pub fn seats(&self) -> (Player, Player) {
        (self.x, self.o)
    }

    /// The player in `seat`.
    pub fn seat_player(&self, seat: Seat) -> Player {
        match seat {
            Seat::First => self.x,
            Seat::Second => self.o,
        }
    }

    /// Who is to act, or `None` once the game is over: the mark whose stone or move comes
    /// next, and the player who acts; in a swap opening, the player placing stones of
    /// either colour or choosing one ([`Position::stage`]).
    pub fn turn(&self) -> Option<(Mark, Player)> {
        if self.is_over() {
            return None;
        }
        let mark = self.position.to_move();
        Some((mark, self.seat_player(self.position.seat())))
    }

    /// How the game stands: as its position does, unless it ended off the board.
    pub fn outcome(&self) -> Outcome {
        self.ended
            .map_or_else(|| self.position.outcome(), Ending::outcome)
    }

    pub fn is_over(&self) -> bool {
        self.outcome() != Outcome::InProgress
    }

    /// The result for the one person at this game, against an AI or a remote player: `None`
    /// while the game goes on, and between two people or two AIs.
    pub fn verdict(&self) -> Option<Verdict> {
        let (human, _) = lone_human(self.x, self.o)?;
        let seat = if human == Side::A {
            Seat::First
        } else {
            Seat::Second
        };
        let human = self.position.mark_of(seat);
        match self.outcome() {
            Outcome::InProgress => None,
            Outcome::Draw => Some(Verdict::Drawn),
            Outcome::Won(mark) if mark == human => Some(Verdict::Won),
            Outcome::Won(_) => Some(Verdict::Lost),
        }
    }

    /// How many of the moves were set up before play (`--from`): 0 for a game from the
    /// empty board.
    pub fn setup(&self) -> usize {
        self.opening
    }

    /// Whether a person made a move of this game (the set-up moves are nobody's).
    pub fn person_moved(&self) -> bool {
        self.acts[self.opening..]
            .iter()
            .any(|&(seat, _)| self.seat_player(seat).is_human())
    }

    /// What this game counts for in the one person's results, ended as `end`: the rules of
    /// counting, written once for `stats`, the all-time score and the rating that
    /// `--level auto` follows.
    ///
    /// 1. Only a game with exactly one person at it counts (against an AI or a remote
    ///    player); between two people or two AIs it counts for nobody.
    /// 2. A game set up at a position (`--from`, or played on from a review) is practice: it
    ///    never counts, whoever wins it. No set-up start is rated.
    /// 3. A finished game counts as its result: won, drawn or lost.
    /// 4. A game against an AI that the person left unfinished after making a move counts
    ///    as lost, as game servers count a game abandoned; one left before their first move
    ///    counts for nothing.
    /// 5. A network game left unfinished counts for nobody: either side may have lost the
    ///    connection.
    pub fn counts(&self, end: GameEnd) -> Option<Verdict> {
        let (_, opponent) = lone_human(self.x, self.o)?;
        if self.opening > 0 {
            return None;
        }
        match end {
            GameEnd::Finished => self.verdict(),
            GameEnd::Abandoned if opponent.is_ai() && self.person_moved() => Some(Verdict::Lost),
            GameEnd::Abandoned => None,
        }
    }

    /// Plays `mv` for the side to move; on error nothing changes.
    pub fn play(&mut self, mv: impl Into<Move>) -> Result<(), MoveError> {
        let mv = mv.into();
        if self.ended.is_some() {
            return Err(MoveError::GameOver);
        }
        let act = (self.position.seat(), self.position.stage());
        self.position.play(mv)?;
        self.history.push(mv);
        self.acts.push(act);
        Ok(())
    }

    /// Takes back moves up to and including the last move a human made, so that it is that
    /// human's turn again (in a game against the AI this also takes back the AI's reply).
    /// Returns how many moves were taken back: 0 when no human has moved yet (the moves of
    /// the position the game was set up at do not count).
    pub fn undo(&mut self) -> usize {
        let Some(last_human) = (self.opening..self.history.len())
            .rev()
            .find(|&i| self.seat_player(self.acts[i].0).is_human())
        else {
            return 0;
        };
        let taken = self.history.len() - last_human;
        self.truncate(last_human);
        taken
    }

    /// Keeps the first `len` moves only, and an offer made with no more of them.
    fn truncate(&mut self, len: usize) {
        self.history.truncate(len);
        self.acts.truncate(len);
        if self.offer.is_some_and(|o| o.at > len) {
            self.offer = None;
        }
        self.position = self.variant().start();
        for &mv in &self.history {
            self.position.play(mv).expect("history replays legally");
        }
    }
}

/// How a game of the history ended: played to its result, or left before it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameEnd {
    #[default]
    Finished,
    /// Left unfinished: quit, a new game started, the terminal closed.
    Abandoned,
}

/// How a game ended for the one person playing it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Won,
    Drawn,
    Lost,
}

/// Games won, drawn and lost by one person.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    pub won: u32,
    pub drawn: u32,
    pub lost: u32,
}

impl Verdict {
    /// The person's points: 1 for a win, ½ for a draw, 0 for a loss.
    pub fn points(self) -> f64 {
        match self {
            Verdict::Won => 1.0,
            Verdict::Drawn => 0.5,
            Verdict::Lost => 0.0,
        }
    }
}

impl Tally {
    /// Counts one more game.
    pub fn add(&mut self, verdict: Verdict) {
        let count = match verdict {
            Verdict::Won => &mut self.won,
            Verdict::Drawn => &mut self.drawn,
            Verdict::Lost => &mut self.lost,
        };
        *count = count.saturating_add(1);
    }

    pub fn games(&self) -> u32 {
        self.won
            .saturating_add(self.drawn)
            .saturating_add(self.lost)
    }
}

/// Where ended games go: the profile on disk, for the binary. The game layer only tells it
/// that a game ended and asks it for the person's results so far; it knows nothing of files.
pub trait Journal: fmt::Debug + Send + Sync {
    /// `game` has just ended as `end` (called once per game: for every game that reaches a
    /// result, and for every game left unfinished after a person's move).
    fn enter(&self, game: &Game, end: GameEnd);

    /// The person's results over all time against `opponent` (an AI level or a remote
    /// player) on `variant`, as [`Game::counts`] counts them, or `None` where they cannot be
    /// read.
    fn tally(&self, opponent: Player, variant: Variant) -> Option<Tally>;

    /// The person's results against the AI levels on `variant`, oldest first: what
    /// `--level auto` starts from. None where they cannot be read.
    fn results(&self, _variant: Variant) -> Vec<(Level, Verdict)> {
        Vec::new()
    }

    /// `game`, played here by at least one person, goes on after a move of a person's: kept
    /// so that it can be continued if the program ends before it does.
    fn progress(&self, _game: &Game) {}
}

/// Which side is the one person at a game, and who plays the other side: `None` unless
/// exactly one side is human.
pub fn lone_human(a: Player, b: Player) -> Option<(Side, Player)> {
    match (a.is_human(), b.is_human()) {
        (true, false) => Some((Side::A, b)),
        (false, true) => Some((Side::B, a)),
        _ => None,
    }
}

/// One of the two players of a session. Side A is the one given with `-x`: it plays X in
/// the first round, and the sides swap marks every round, so the first move alternates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    A,
    B,
}

/// Results over the rounds of a session, kept per player, not per mark.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    pub a: u32,
    pub b: u32,
    pub draws: u32,
}

/// Where a session stands: the round (from 1; side A plays X in odd rounds), the score of
/// the rounds before it, and the current game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    pub round: u32,
    pub score: Score,
    pub record: Record,
    /// The clock's time control and each seat's time left, where the game has a clock.
    pub clock: Option<(TimeControl, [std::time::Duration; 2])>,
    /// How the current game ended off the board, if it did.
    pub ending: Option<Ending>,
}

/// Rounds between the same two players: who they are, what they are called, the game of the
/// current round and the score of the rounds so far.
#[derive(Clone, Debug)]
pub struct Session {
    /// Side A's player, then side B's.
    players: [Player; 2],
    names: [String; 2],
    round: u32,
    /// Results of the rounds before this one, per pair of players (side A's, side B's): the
    /// score shown is the one against the opponent of the current round.
    past: Vec<([Player; 2], Score)>,
    game: Game,
    /// Whether the current game was entered in the journal (finished, or left).
    entered: bool,
    /// Where finished games go, if anywhere.
    journal: Option<Arc<dyn Journal>>,
    /// The person's results against this opponent over all time, counting this session's
    /// finished games: when one person plays and the journal could tell.
    all_time: Option<Tally>,
    /// Where the AI's level follows the person's results (`--level auto`).
    adaptive: Option<Adaptive>,
    /// The game's clock, where it is played on one ([`clock`]).
    clock: Option<Clock>,
}

impl Session {
    /// Round 1 of a session where side A (`a`, X in the first round) meets side B (`b`).
    ///
    /// It keeps its finished games nowhere until given a journal ([`Session::kept_in`]).
    pub fn new(variant: impl Into<Variant>, a: Player, b: Player) -> Session {
        Session {
            players: [a, b],
            names: names(a, b),
            round: 1,
            past: Vec::new(),
            game: Game::new(variant, a, b),
            entered: false,
            journal: None,
            all_time: None,
            adaptive: None,
            clock: None,
        }
    }

    /// Round 1 of a session as [`Session::new`] makes it, whose first game starts at the end
    /// of `opening` (`--from`); the rounds after it start from the empty board, as usual.
    pub fn starting_at(opening: &Record, a: Player, b: Player) -> Session {
        let mut session = Session::new(opening.variant(), a, b);
        session.game = Game::from_record(opening, a, b);
        session
    }

    /// Round 1 of a session as [`Session::new`] makes it, whose game is `game`: one left
    /// unfinished, taken up again ([`Game::resume`]).
    pub fn resuming(game: Game) -> Session {
        let (first, second) = game.seats();
        let mut session = Session::new(game.variant(), first, second);
        session.game = game;
        session
    }

    /// This session, entering its finished games in `journal` instead.
    pub fn with_journal(mut self, journal: Arc<dyn Journal>) -> Session {
        self.journal = Some(journal);
        self.all_time = self.read_all_time();
        self
    }

    /// This session, entering its finished games in `journal` where there is one (the
    /// profile, unless `--no-history`), else nowhere.
    pub fn kept_in(self, journal: Option<Arc<dyn Journal>>) -> Session {
        match journal {
            Some(journal) => self.with_journal(journal),
            None => self,
        }
    }

    /// Where this session enters its finished games, if anywhere.
    pub fn journal(&self) -> Option<Arc<dyn Journal>> {
        self.journal.clone()
    }

    /// The person's results against the current opponent, as the journal tells them.
    fn read_all_time(&self) -> Option<Tally> {
        let [a, b] = self.players;
        let (_, opponent) = lone_human(a, b)?;
        self.journal.as_ref()?.tally(opponent, self.game.variant())
    }

    /// From now on, where a person plays one AI, the AI's level follows the person's results
    /// (see [`Adaptive`]), starting from their past games in the journal: the current game,
    /// if no move was played yet, already meets the level they lead to.
    pub fn adapt_level(&mut self) {
        let Some((side, _)) = self.adapting_ai() else {
            return;
        };
        let variant = self.game.variant();
        let past = self
            .journal
            .as_ref()
            .map(|journal| journal.results(variant))
            .unwrap_or_default();
        let adaptive = Adaptive::new(variant, past.into_iter().map(|(l, v)| (l, v.points())));
        self.adaptive = Some(adaptive);
        let player = Player::Ai(adaptive.level());
        if self.game.history.is_empty() && self.player(side) != player {
            self.replace(side, player);
            let (x, o) = self.marks_players();
            self.game = Game::new(variant, x, o);
        }
    }

    /// The side of the one AI that plays one person, and its level.
    fn adapting_ai(&self) -> Option<(Side, Level)> {
        let [a, b] = self.players;
        let (person, opponent) = lone_human(a, b)?;
        let side = match person {
            Side::A => Side::B,
            Side::B => Side::A,
        };
        Some((side, opponent.level()?))
    }

    /// The rating `--level auto` gives the person, where the board's levels were measured.
    pub fn person_rating(&self) -> Option<i32> {
        self.adaptive?.rating()
    }

    /// Where the level adapts: records this round's result, as it counts, and gives the
    /// AI's side and its next player, if that changes.
    fn adapted(&mut self) -> Option<(Side, Player)> {
        let (side, level) = self.adapting_ai()?;
        let end = if self.game.is_over() {
            GameEnd::Finished
        } else {
            GameEnd::Abandoned
        };
        let verdict = self.game.counts(end)?;
        let adaptive = self.adaptive.as_mut()?;
        adaptive.record(level, verdict.points());
        let next = adaptive.level();
        (next != level).then_some((side, Player::Ai(next)))
    }

    /// A session at the point `standing` describes (a network game joined or rejoined): the
    /// round, the score before it and the current game.
    pub fn restore(a: Player, b: Player, standing: &Standing) -> Session {
        let variant = standing.record.variant();
        let mut session = Session::new(variant, a, b);
        session.round = standing.round.max(1);
        session.past = vec![([a, b], standing.score)];
        let (x, o) = session.marks_players();
        session.game = Game::new(variant, x, o);
        for &mv in standing.record.moves() {
            session.game.play(mv).expect("a record replays legally");
        }
        session.game = session.game.clone().ended_as(standing.ending);
        session.clock = standing.clock.map(|(control, readings)| {
            let mut clock = Clock::new(control);
            clock.set(readings, std::time::Instant::now());
            clock
        });
        session
    }

    /// The players of X and of O this round: side A plays X in odd rounds.
    fn marks_players(&self) -> (Player, Player) {
        let [a, b] = self.players;
        if self.round % 2 == 1 { (a, b) } else { (b, a) }
    }

    /// This session (same players and names) at the point `standing` describes: a network
    /// game rejoined, where the host's record is the truth.
    pub fn restored(&self, standing: &Standing) -> Session {
        let [a, b] = self.players;
        let mut back = Session::restore(a, b, standing);
        // The same round's game, entered here already, is not entered again as its moves
        // come back.
        back.entered = self.entered && standing.round == self.round;
        back.names.clone_from(&self.names);
        back.journal.clone_from(&self.journal);
        back.all_time = self.all_time;
        back
    }

    /// The mark the remote player of a network game has this round, if there is one.
    pub fn remote_mark(&self) -> Option<Mark> {
        [Mark::X, Mark::O]
            .into_iter()
            .find(|&m| self.game.player(m) == Player::Remote)
    }

    /// Where the session stands: what a network host tells the player who joins.
    pub fn standing(&self) -> Standing {
        let now = std::time::Instant::now();
        Standing {
            round: self.round,
            score: self.past_score(),
            record: self.game.record(),
            clock: self.clock.as_ref().map(|c| (c.control(), c.readings(now))),
            ending: self.game.ending(),
        }
    }

    /// Calls side `side` by `name` from now on (a network player by their address).
    pub fn rename(&mut self, side: Side, name: impl Into<String>) {
        self.names[match side {
            Side::A => 0,
            Side::B => 1,
        }] = name.into();
    }

    /// The game of the current round.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Plays `mv` for the side to move; on error nothing changes. A move that ends the game
    /// enters it in the journal and the all-time score, once.
    pub fn play(&mut self, mv: impl Into<Move>) -> Result<(), MoveError> {
        self.play_reported(mv, None)
    }

    /// [`Session::play`] for a remote player who says it thought for `reported`: its clock
    /// is charged as [`clock`] says.
    pub fn play_reported(
        &mut self,
        mv: impl Into<Move>,
        reported: Option<clock::Reported>,
    ) -> Result<(), MoveError> {
        let seat = self.game.position.seat();
        self.game.play(mv)?;
        self.press_clock(seat, std::time::Instant::now(), reported);
        if self.game.is_over() {
            self.enter(GameEnd::Finished);
        } else if self.game.person_moved()
            && !self.players.contains(&Player::Remote)
            && let Some(journal) = &self.journal
        {
            journal.progress(&self.game);
        }
        Ok(())
    }

    /// Keeps the current game to be continued (as [`Journal::progress`] does after a person's
    /// move), even a network game's: its other player is gone and it cannot go on here. Where
    /// it is not over and a person moved in it; says whether it was kept.
    pub fn keep_to_continue(&self) -> bool {
        let keep = !self.game.is_over() && self.game.person_moved();
        match &self.journal {
            Some(journal) if keep => {
                journal.progress(&self.game);
                true
            }
            _ => false,
        }
    }

    /// The current game is left unfinished (quit, a new round, the program ending): where a
    /// person moved in it, it enters the journal as abandoned and counts as
    /// [`Game::counts`] says. A finished game, or one left already, is left alone.
    pub fn leave(&mut self) {
        if !self.game.is_over() && self.game.person_moved() {
            self.enter(GameEnd::Abandoned);
        }
    }

    /// Enters the current game, ended as `end`, in the journal and the all-time score, unless
    /// it is there already.
    fn enter(&mut self, end: GameEnd) {
        // However the game ended, no time runs on.
        self.stop_clock(std::time::Instant::now());
        if std::mem::replace(&mut self.entered, true) {
            return;
        }
        if let (Some(all_time), Some(verdict)) = (&mut self.all_time, self.game.counts(end)) {
            all_time.add(verdict);
        }
        if let Some(journal) = &self.journal {
            journal.enter(&self.game, end);
            // A game taken up again replaces the one kept when it was left, whose result the
            // tally already held: the journal, read again, has each game once.
            if self.game.is_resumed() {
                self.all_time = self.read_all_time();
            }
        }
    }

    /// Takes back the last human move, as [`Game::undo`] does, while the game goes on; a
    /// finished game is in the journal and stays as it is, and on a clock time spent is
    /// spent (0 moves taken back).
    pub fn undo(&mut self) -> usize {
        if self.game.is_over() || self.clock.is_some() {
            return 0;
        }
        self.game.undo()
    }

    pub fn round(&self) -> u32 {
        self.round
    }

    /// Whether a person plays at least one side.
    pub fn has_human(&self) -> bool {
        self.players.iter().any(|p| p.is_human())
    }

    /// The side playing `mark` this round: side A is the first seat in odd rounds, and a
    /// swap opening's choice may give a seat the other colour.
    pub fn side_of(&self, mark: Mark) -> Side {
        self.side_in(self.game.position.seat_of(mark))
    }

    /// The mark `side` plays this round.
    pub fn mark_of(&self, side: Side) -> Mark {
        if self.side_of(Mark::X) == side {
            Mark::X
        } else {
            Mark::O
        }
    }

    /// The side in `seat` this round: side A opens odd rounds.
    pub fn side_in(&self, seat: Seat) -> Side {
        match (seat, self.round % 2 == 1) {
            (Seat::First, true) | (Seat::Second, false) => Side::A,
            _ => Side::B,
        }
    }

    /// How a side is called on screen: "you", "level 7 AI", "Player 1".
    pub fn name(&self, side: Side) -> &str {
        match side {
            Side::A => &self.names[0],
            Side::B => &self.names[1],
        }
    }

    /// The last move in words where a swap opening made it: `Player 1 placed O on i9`,
    /// `level 7 takes black (X)`; `None` for a move of play, which each front end words
    /// its own way.
    pub fn opening_act(&self) -> Option<String> {
        let (seat, stage) = self.game.last_act()?;
        let side = self.side_in(seat);
        let you = self.is_you(side);
        let who = if you { "You" } else { self.name(side) };
        match (stage, self.game.last_move()?) {
            (Stage::Play, _) => None,
            (_, Move::Choice(choice)) if you => Some(format!("You {}", choice.your_words())),
            (_, Move::Choice(choice)) => Some(format!("{who} {}", choice.words())),
            (_, mv) => {
                let board = self.game.position().gomoku()?;
                let cell = crate::rules::classic::Cell::try_from(mv).ok()?;
                Some(format!("{who} placed {} on {mv}", board.mark_at(cell)?))
            }
        }
    }

    /// Whether `side` is the one person at the game, called "you".
    pub fn is_you(&self, side: Side) -> bool {
        let [a, b] = self.players;
        lone_human(a, b).is_some_and(|(person, _)| person == side)
    }

    /// The name of whoever plays `mark` this round.
    pub fn name_of(&self, mark: Mark) -> &str {
        self.name(self.side_of(mark))
    }

    /// The score of the rounds before this one between the current players.
    fn past_score(&self) -> Score {
        self.past
            .iter()
            .find(|(players, _)| *players == self.players)
            .map_or_else(Score::default, |&(_, score)| score)
    }

    /// The score between the current players, including the current round once it has
    /// ended.
    pub fn score(&self) -> Score {
        let mut score = self.past_score();
        match self.game.outcome() {
            Outcome::Won(winner) => match self.side_of(winner) {
                Side::A => score.a = score.a.saturating_add(1),
                Side::B => score.b = score.b.saturating_add(1),
            },
            Outcome::Draw => score.draws = score.draws.saturating_add(1),
            Outcome::InProgress => {}
        }
        score
    }

    /// [`Session::score`] once the current round ends here: a game left unfinished that
    /// [`Game::counts`] as lost for the person is a round won by their opponent, in this
    /// session's score as in the all-time one.
    fn score_as_left(&self) -> Score {
        let mut score = self.score();
        let person = lone_human(self.players[0], self.players[1]).map(|(side, _)| side);
        if !self.game.is_over() && self.game.counts(GameEnd::Abandoned) == Some(Verdict::Lost) {
            match person {
                Some(Side::A) => score.b = score.b.saturating_add(1),
                Some(Side::B) => score.a = score.a.saturating_add(1),
                None => {}
            }
        }
        score
    }

    /// The score as one line: `Score: you 1 · level 7 AI 0 · draws 2`, and where the journal
    /// knows the person's results against this opponent, those over all time in the same
    /// order: ` (all time 12–30–5)`; where the level adapts on a measured board, the person's
    /// rating: ` · your rating ≈ 446`.
    pub fn score_line(&self) -> String {
        match self.person_rating() {
            Some(rating) => format!("{} · your rating ≈ {rating}", self.score_and_all_time()),
            None => self.score_and_all_time(),
        }
    }

    /// [`Session::score_line`] without the person's rating.
    fn score_and_all_time(&self) -> String {
        let score = self.score();
        let (a, b) = (self.name(Side::A), self.name(Side::B));
        let line = format!(
            "Score: {a} {} · {b} {} · draws {}",
            score.a, score.b, score.draws
        );
        let Some(all) = self.all_time else {
            return line;
        };
        let (first, second) = if self.players[0].is_human() {
            (all.won, all.lost)
        } else {
            (all.lost, all.won)
        };
        format!("{line} (all time {first}–{second}–{})", all.drawn)
    }

    /// The person's results against this opponent over all time, with this session's.
    pub fn all_time(&self) -> Option<Tally> {
        self.all_time
    }

    /// The result of the current game for people to read, or `None` while it goes on: "You
    /// win!" when the one person playing an AI wins, otherwise who won or a draw.
    pub fn result(&self) -> Option<String> {
        match self.game.outcome() {
            Outcome::InProgress => None,
            Outcome::Draw if self.game.ending().is_some() => Some("Draw agreed.".to_string()),
            Outcome::Draw => Some("Draw.".to_string()),
            Outcome::Won(winner) => {
                let human = |mark: Mark| self.game.player(mark).is_human();
                let result = if human(winner) && !human(winner.other()) {
                    "You win!".to_string()
                } else {
                    format!("{winner} ({}) wins.", self.name_of(winner))
                };
                let name = |mark: Mark| self.name_of(mark);
                Some(
                    match (
                        self.game.ending(),
                        self.game.position().line_completed_by_loser(),
                    ) {
                        (Some(Ending::Resigned(loser)), _) => {
                            format!("{loser} ({}) resigned. {result}", name(loser))
                        }
                        (Some(Ending::Time(loser)), _) => {
                            format!("{loser} ({}) ran out of time. {result}", name(loser))
                        }
                        (_, Some(loser)) => format!("{loser} completed a line: {result}"),
                        _ => result,
                    },
                )
            }
        }
    }

    /// Side `side` is played by `player` from the next round on (an AI at another level); the
    /// sides' names follow, the score so far stays. The current game keeps its players.
    pub fn replace(&mut self, side: Side, player: Player) {
        let i = match side {
            Side::A => 0,
            Side::B => 1,
        };
        self.players[i] = player;
        self.names = names(self.players[0], self.players[1]);
        self.all_time = self.read_all_time();
    }

    /// The player of `side`.
    pub fn player(&self, side: Side) -> Player {
        match side {
            Side::A => self.players[0],
            Side::B => self.players[1],
        }
    }

    /// Ends the current round (its result counts) and starts the next, with the sides'
    /// marks swapped so the other player moves first (and, where it adapts, the AI a level
    /// up or down).
    pub fn new_round(&mut self) {
        self.new_round_with(None);
    }

    /// [`Session::new_round`] with side `choice.0` played by `choice.1` from now on, where a
    /// person chose the AI's next level: the choice stands, whatever the result.
    ///
    /// A game left unfinished is entered in the journal as [`Session::leave`] says.
    pub fn new_round_with(&mut self, choice: Option<(Side, Player)>) {
        let score = self.score_as_left();
        self.leave();
        match self.past.iter_mut().find(|(p, _)| *p == self.players) {
            Some((_, past)) => *past = score,
            None => self.past.push((self.players, score)),
        }
        let adapted = self.adapted();
        if let Some((side, player)) = choice.or(adapted) {
            self.replace(side, player);
        }
        self.round = self.round.saturating_add(1);
        let (x, o) = self.marks_players();
        self.game = Game::new(self.game.variant(), x, o);
        self.entered = false;
        self.clock = self.clock.as_ref().map(|c| Clock::new(c.control()));
    }
}

/// Names for the two sides: "you" against an AI, "Player 1"/"Player 2" for two humans,
/// "level 7 AI" for an AI (numbered when both sides would read the same).
fn names(a: Player, b: Player) -> [String; 2] {
    let humans = usize::from(a.is_human()) + usize::from(b.is_human());
    let name = |p: Player, n: u8| match (p, humans) {
        (Player::Human, 1) => "you".to_string(),
        (Player::Human, _) => format!("Player {n}"),
        (Player::Remote, _) => "remote".to_string(),
        (ai, _) => format!("{ai} AI"),
    };
    let (first, second) = (name(a, 1), name(b, 2));
    if first == second {
        [format!("{first} 1"), format!("{second} 2")]
    } else {
        [first, second]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::classic::{Board, Rules};
    use crate::rules::gomoku::opening::Choice;

    fn game(x: Player, o: Player, moves: &[u8]) -> Game {
        let mut g = Game::new(Rules::CLASSIC, x, o);
        for &d in moves {
            g.play(Board::default().numpad(d).unwrap()).unwrap();
        }
        g
    }

    #[test]
    fn a_misere_result_says_who_completed_a_line() {
        let rules = Rules::new(3, 3, true).unwrap();
        let mut session = Session::new(rules, Player::Human, Player::Human);
        for d in [7, 1, 8, 2, 9] {
            let cell = Board::default().numpad(d).unwrap();
            session.play(cell).unwrap();
        }
        assert_eq!(
            session.result().as_deref(),
            Some("X completed a line: O (Player 2) wins.")
        );
    }

    #[test]
    fn undo_against_ai_takes_back_the_reply_too() {
        let mut g = game(Player::Human, Player::HARD, &[5, 1, 3, 7]);
        assert_eq!(g.undo(), 2);
        assert_eq!(g.position().to_string(), ".../.X./O..");
        assert_eq!(g.turn(), Some((Mark::X, Player::Human)));
    }

    #[test]
    fn a_session_set_up_at_a_position_keeps_its_moves_through_undo_and_new_rounds() {
        let opening = Record::parse(Rules::CLASSIC, &["5", "1", "9"]).unwrap();
        let mut session = Session::starting_at(&opening, Player::Human, Player::Human);
        assert_eq!(session.game().position().to_string(), "..X/.X./O..");
        assert_eq!(session.undo(), 0, "the set-up moves stay");
        session.play(Board::default().numpad(3).unwrap()).unwrap();
        assert_eq!(session.undo(), 1);
        assert_eq!(session.game().record().to_string(), "5 1 9");
        session.new_round();
        assert!(session.game().history().is_empty());
    }

    #[test]
    fn undo_between_humans_takes_back_one_move() {
        let mut g = game(Player::Human, Player::Human, &[5, 1]);
        assert_eq!(g.undo(), 1);
        assert_eq!(g.position().to_string(), ".../.X./...");
    }

    #[test]
    fn undo_with_no_human_move_does_nothing() {
        let mut g = game(Player::HARD, Player::Human, &[5]);
        assert_eq!(g.undo(), 0);
        assert_eq!(g.history().len(), 1);
        let mut empty = game(Player::Human, Player::HARD, &[]);
        assert_eq!(empty.undo(), 0);
    }

    #[test]
    fn undo_after_the_end_reopens_the_game() {
        let mut g = game(Player::Human, Player::Human, &[7, 1, 8, 2, 9]);
        assert!(g.is_over());
        assert_eq!(g.turn(), None);
        assert_eq!(g.undo(), 1);
        assert!(!g.is_over());
    }

    fn play_digits(session: &mut Session, digits: &[u8]) {
        for &d in digits {
            let cell = Board::default().numpad(d).unwrap();
            session.play(cell).unwrap();
        }
    }

    #[test]
    fn rounds_alternate_the_first_player_and_score_per_player() {
        let mut s = Session::new(Rules::CLASSIC, Player::Human, Player::Human);
        play_digits(&mut s, &[7, 1, 8, 2, 9]);
        assert_eq!(
            s.score(),
            Score {
                a: 1,
                b: 0,
                draws: 0
            }
        );
        assert_eq!(s.result().as_deref(), Some("X (Player 1) wins."));
        s.new_round();
        assert_eq!((s.round(), s.name_of(Mark::X)), (2, "Player 2"));
        // Player 2, X now, wins round 2: the score follows the player, not the mark.
        play_digits(&mut s, &[7, 1, 8, 2, 9]);
        assert_eq!(
            s.score(),
            Score {
                a: 1,
                b: 1,
                draws: 0
            }
        );
        s.new_round();
        assert_eq!(s.name_of(Mark::X), "Player 1");
        assert_eq!(s.score_line(), "Score: Player 1 1 · Player 2 1 · draws 0");
    }

    #[test]
    fn you_win_only_when_the_one_person_beats_the_ai() {
        let mut s = Session::new(Rules::CLASSIC, Player::Human, Player::EASY);
        play_digits(&mut s, &[7, 1, 8, 2, 9]);
        assert_eq!(s.result().as_deref(), Some("You win!"));
        s.new_round();
        // Round 2: the level 1 AI plays X and wins.
        play_digits(&mut s, &[7, 1, 8, 2, 9]);
        assert_eq!(s.result().as_deref(), Some("X (level 1 AI) wins."));
        let mut remote = Session::new(Rules::CLASSIC, Player::Remote, Player::Human);
        play_digits(&mut remote, &[1, 7, 2, 8, 3]);
        assert_eq!(remote.result().as_deref(), Some("X (remote) wins."));
        let mut two = Session::new(Rules::CLASSIC, Player::HARD, Player::HARD);
        play_digits(&mut two, &[7, 1, 8, 2, 9]);
        assert_eq!(two.result().as_deref(), Some("X (level 7 AI 1) wins."));
    }

    #[test]
    fn a_standing_restores_the_same_session() {
        let mut s = Session::new(Rules::CLASSIC, Player::Human, Player::Remote);
        play_digits(&mut s, &[7, 1, 8, 2, 9]);
        s.new_round();
        play_digits(&mut s, &[5, 3]);
        let standing = s.standing();
        assert_eq!(
            (standing.round, standing.score),
            (
                2,
                Score {
                    a: 1,
                    b: 0,
                    draws: 0
                }
            )
        );
        let back = Session::restore(Player::Remote, Player::Human, &standing);
        assert_eq!(back.game().position(), s.game().position());
        assert_eq!(back.score(), s.score());
        assert_eq!(back.side_of(Mark::X), Side::B, "round 2: side B plays X");
    }

    /// What a [`Notebook`] holds against every opponent before its records: 3 wins, 1 draw
    /// and 2 losses.
    const KEPT: Tally = Tally {
        won: 3,
        drawn: 1,
        lost: 2,
    };

    /// [`KEPT`] and one more loss.
    const KEPT_AND_A_LOSS: Tally = Tally {
        lost: KEPT.lost + 1,
        ..KEPT
    };

    /// A journal in memory: the records it was given, and [`KEPT`] before them.
    #[derive(Debug, Default)]
    struct Notebook(std::sync::Mutex<Vec<String>>);

    impl Journal for Notebook {
        fn enter(&self, game: &Game, end: GameEnd) {
            let left = if end == GameEnd::Abandoned {
                " (left)"
            } else {
                ""
            };
            self.0
                .lock()
                .unwrap()
                .push(format!("{}{left}", game.record()));
        }

        fn tally(&self, _: Player, _: Variant) -> Option<Tally> {
            Some(KEPT)
        }
    }

    #[test]
    fn each_finished_game_goes_to_the_journal_once_and_counts_all_time() {
        let notebook = Arc::new(Notebook::default());
        let mut s = Session::new(Rules::CLASSIC, Player::Human, Player::EASY)
            .with_journal(Arc::clone(&notebook) as Arc<dyn Journal>);
        assert_eq!(
            s.score_line(),
            "Score: you 0 · level 1 AI 0 · draws 0 (all time 3–2–1)"
        );
        play_digits(&mut s, &[7, 1, 8, 2]);
        assert_eq!(s.undo(), 2);
        play_digits(&mut s, &[5, 3, 2, 8, 4, 6, 9]);
        assert_eq!(s.undo(), 0, "a finished game stays as it is");
        s.new_round();
        // The easy AI plays X in round 2 and wins: the line keeps the sides' order.
        play_digits(&mut s, &[7, 1, 8, 2, 9]);
        assert_eq!(
            s.score_line(),
            "Score: you 0 · level 1 AI 1 · draws 1 (all time 3–3–2)"
        );
        assert_eq!(
            *notebook.0.lock().unwrap(),
            ["7 1 5 3 2 8 4 6 9", "7 1 8 2 9"]
        );
        let two = Session::new(Rules::CLASSIC, Player::Human, Player::Human).with_journal(notebook);
        assert_eq!(two.score_line(), "Score: Player 1 0 · Player 2 0 · draws 0");
    }

    const X_WINS: [u8; 5] = [7, 1, 8, 2, 9];

    #[test]
    fn a_finished_game_counts_as_its_result_for_the_one_person() {
        let won = game(Player::Human, Player::EASY, &X_WINS);
        assert_eq!(won.counts(GameEnd::Finished), Some(Verdict::Won));
        let lost = game(Player::HARD, Player::Human, &X_WINS);
        assert_eq!(lost.counts(GameEnd::Finished), Some(Verdict::Lost));
        let drawn = game(Player::Human, Player::Remote, &[5, 1, 9, 7, 4, 6, 3, 2, 8]);
        assert_eq!(drawn.counts(GameEnd::Finished), Some(Verdict::Drawn));
    }

    #[test]
    fn games_between_two_people_or_two_ais_count_for_nobody() {
        for (x, o) in [(Player::Human, Player::Human), (Player::EASY, Player::HARD)] {
            let g = game(x, o, &X_WINS);
            assert_eq!(g.counts(GameEnd::Finished), None);
            assert_eq!(game(x, o, &[5, 1]).counts(GameEnd::Abandoned), None);
        }
    }

    #[test]
    fn a_game_set_up_at_a_position_never_counts() {
        // `--from 5 1 9 7 3`: O wins with no move of the person's; and a set-up game the
        // person wins, or leaves.
        let opening = Record::parse(Rules::CLASSIC, &["5", "1", "9", "7", "3"]).unwrap();
        let mut g = Game::from_record(&opening, Player::Human, Player::HARD);
        g.play(Board::default().numpad(4).unwrap()).unwrap();
        assert_eq!(
            g.verdict(),
            Some(Verdict::Lost),
            "the game's own result stands"
        );
        assert_eq!(g.counts(GameEnd::Finished), None);
        let opening = Record::parse(Rules::CLASSIC, &["7", "1", "8", "2"]).unwrap();
        let mut g = Game::from_record(&opening, Player::Human, Player::EASY);
        assert_eq!(g.counts(GameEnd::Abandoned), None);
        g.play(Board::default().numpad(9).unwrap()).unwrap();
        assert_eq!(g.counts(GameEnd::Finished), None);
    }

    #[test]
    fn a_game_left_against_an_ai_counts_as_lost_only_after_the_persons_move() {
        let moved = game(Player::Human, Player::EASY, &[5, 1]);
        assert_eq!(moved.counts(GameEnd::Abandoned), Some(Verdict::Lost));
        let ai_first = game(Player::HARD, Player::Human, &[5]);
        assert!(!ai_first.person_moved());
        assert_eq!(ai_first.counts(GameEnd::Abandoned), None);
        let remote = game(Player::Human, Player::Remote, &[5, 1]);
        assert_eq!(remote.counts(GameEnd::Abandoned), None, "a network game");
    }

    /// A session against `o` with a journal in memory, and that journal.
    fn noted(x: Player, o: Player) -> (Session, Arc<Notebook>) {
        let notebook = Arc::new(Notebook::default());
        let session = Session::new(Rules::CLASSIC, x, o)
            .with_journal(Arc::clone(&notebook) as Arc<dyn Journal>);
        (session, notebook)
    }

    #[test]
    fn leaving_enters_a_game_once_and_only_after_a_persons_move() {
        let (mut s, notebook) = noted(Player::HARD, Player::Human);
        play_digits(&mut s, &[5]);
        s.leave();
        assert!(
            notebook.0.lock().unwrap().is_empty(),
            "no move of the person's"
        );
        play_digits(&mut s, &[1, 9]);
        s.leave();
        s.leave();
        s.new_round();
        assert_eq!(*notebook.0.lock().unwrap(), ["5 1 9 (left)"]);
        // Against an AI the abandoned game is a loss in the all-time score (3–2–1 before).
        assert_eq!(s.all_time(), Some(KEPT_AND_A_LOSS));
    }

    #[test]
    fn a_round_left_after_the_persons_move_is_won_by_the_ai_in_the_sessions_score() {
        let (mut s, _) = noted(Player::Human, Player::HARD);
        s.new_round();
        assert_eq!(s.score(), Score::default(), "left before a move: nothing");
        // Round 2: the AI (side B) plays X; the person answers, then leaves.
        play_digits(&mut s, &[5, 1]);
        s.new_round();
        assert_eq!(
            s.score(),
            Score {
                a: 0,
                b: 1,
                draws: 0
            }
        );
        assert_eq!(s.all_time().map(|t| t.lost), Some(3));
    }

    #[test]
    fn a_round_left_between_two_people_counts_in_no_score() {
        let (mut s, _) = noted(Player::Human, Player::Human);
        play_digits(&mut s, &[5, 1]);
        s.new_round();
        assert_eq!(s.score(), Score::default());
    }

    #[test]
    fn a_new_round_in_the_middle_of_a_game_enters_it_as_left() {
        let (mut s, notebook) = noted(Player::Human, Player::Remote);
        play_digits(&mut s, &[5, 1]);
        s.new_round();
        play_digits(&mut s, &X_WINS);
        s.new_round();
        assert_eq!(*notebook.0.lock().unwrap(), ["5 1 (left)", "7 1 8 2 9"]);
        assert_eq!(
            s.all_time(),
            Some(KEPT_AND_A_LOSS),
            "the left network game counts for nobody; round 2's remote X won"
        );
    }

    #[test]
    fn the_score_is_against_the_current_opponent_and_follows_a_level_change() {
        let mut s = Session::new(Rules::CLASSIC, Player::Human, Player::EASY);
        play_digits(&mut s, &X_WINS);
        s.new_round();
        play_digits(&mut s, &X_WINS);
        assert_eq!(s.score_line(), "Score: you 1 · level 1 AI 1 · draws 0");
        s.new_round_with(Some((Side::B, Player::HARD)));
        assert_eq!(s.score_line(), "Score: you 0 · level 7 AI 0 · draws 0");
        play_digits(&mut s, &X_WINS);
        s.new_round_with(Some((Side::B, Player::EASY)));
        assert_eq!(
            s.score_line(),
            "Score: you 1 · level 1 AI 1 · draws 0",
            "back to level 1: its score again"
        );
    }

    #[test]
    fn sides_are_named_for_people() {
        assert_eq!(names(Player::Human, Player::HARD), ["you", "level 7 AI"]);
        assert_eq!(
            names(Player::Human, Player::Human),
            ["Player 1", "Player 2"]
        );
        assert_eq!(
            names(Player::EASY, Player::EASY),
            ["level 1 AI 1", "level 1 AI 2"]
        );
    }

    #[test]
    fn an_adapting_ai_moves_up_after_the_person_wins_and_down_after_it_wins() {
        let level = |s: &Session| s.player(Side::B).level().unwrap();
        let rated = |s: &Session| crate::ai::levels::rating(s.game().variant(), level(s)).unwrap();
        let mut s = Session::new(Rules::CLASSIC, Player::Human, Player::Ai(Level::MEDIUM));
        s.adapt_level();
        assert_eq!(
            level(&s),
            Adaptive::MIDDLE,
            "no past games: the middle level"
        );
        let start = (s.person_rating().unwrap(), rated(&s));
        play_digits(&mut s, &[7, 1, 8, 2, 9]);
        s.new_round();
        assert!(s.person_rating().unwrap() > start.0);
        assert!(rated(&s) > start.1, "a stronger AI after the person won");
        let after_win = (s.person_rating().unwrap(), rated(&s));
        // Round 2: the AI plays X and wins.
        play_digits(&mut s, &[7, 1, 8, 2, 9]);
        s.new_round();
        assert!(s.person_rating().unwrap() < after_win.0);
        assert!(rated(&s) < after_win.1, "a weaker AI after the person lost");
        // A round left unfinished keeps the level; so does a session that does not adapt.
        let unfinished = level(&s);
        s.new_round();
        assert_eq!(level(&s), unfinished);
        let mut fixed = Session::new(Rules::CLASSIC, Player::Human, Player::Ai(Level::MEDIUM));
        play_digits(&mut fixed, &[7, 1, 8, 2, 9]);
        fixed.new_round();
        assert_eq!(fixed.player(Side::B), Player::Ai(Level::MEDIUM));
    }

    #[test]
    fn an_adapting_ai_starts_from_the_persons_past_results() {
        /// Ten past wins against level 7 on every board.
        #[derive(Debug)]
        struct Champion;
        impl Journal for Champion {
            fn enter(&self, _: &Game, _: GameEnd) {}
            fn tally(&self, _: Player, _: Variant) -> Option<Tally> {
                None
            }
            fn results(&self, _: Variant) -> Vec<(Level, Verdict)> {
                vec![(Level::HARD, Verdict::Won); 10]
            }
        }
        let mut s = Session::new(Rules::CLASSIC, Player::Ai(Level::EASY), Player::Human)
            .with_journal(Arc::new(Champion));
        s.adapt_level();
        let best = Level::all()
            .max_by_key(|&l| crate::ai::levels::rating(Variant::from(Rules::CLASSIC), l));
        assert_eq!(s.player(Side::A).level(), best);
        assert_eq!(
            s.game().player(Mark::X),
            s.player(Side::A),
            "the game in progress too"
        );
    }

    #[test]
    fn illegal_moves_change_nothing() {
        let mut g = game(Player::Human, Player::Human, &[5]);
        let five = Board::default().numpad(5).unwrap();
        assert_eq!(g.play(five), Err(MoveError::Occupied(Move::Cell(five))));
        assert_eq!(g.history().len(), 1);
    }

    /// Gomoku opened by swap2.
    fn swap2() -> Variant {
        Variant::GOMOKU
            .opened(crate::rules::gomoku::opening::Opening::Swap2)
            .unwrap()
    }

    /// Plays `moves`, typed as players type them (`h8`, `black`), in `session`.
    fn typed(session: &mut Session, moves: &[&str]) {
        for text in moves {
            let mv = session.game().position().parse_move(text).unwrap();
            session.play(mv).unwrap();
        }
    }

    #[test]
    fn a_swap_gives_each_person_the_colour_chosen_and_the_score_follows_the_person() {
        let mut s = Session::new(swap2(), Player::Human, Player::Human);
        typed(&mut s, &["h8", "i9", "j8"]);
        assert_eq!(s.side_in(s.game().position().seat()), Side::B, "B chooses");
        typed(&mut s, &["black"]);
        assert_eq!((s.side_of(Mark::X), s.side_of(Mark::O)), (Side::B, Side::A));
        assert_eq!(s.game().turn(), Some((Mark::O, Player::Human)));
        assert_eq!(s.name_of(Mark::O), "Player 1");
        // X, now side B's, makes five on row 8.
        typed(&mut s, &["a1", "i8", "a2", "k8", "a3", "l8"]);
        assert_eq!(s.result().as_deref(), Some("X (Player 2) wins."));
        assert_eq!(
            s.score(),
            Score {
                a: 0,
                b: 1,
                draws: 0
            }
        );
    }

    #[test]
    fn under_swap2_two_more_hand_the_choice_back_to_the_first_player() {
        let mut s = Session::new(swap2(), Player::Human, Player::Human);
        typed(&mut s, &["h8", "i9", "j8", "two", "i7", "h7"]);
        let position = *s.game().position();
        assert_eq!(s.side_in(position.seat()), Side::A);
        assert_eq!(
            position.legal_moves(),
            [Move::Choice(Choice::Black), Move::Choice(Choice::White)]
        );
        let cell = position.parse_move("a1").unwrap();
        assert_eq!(s.play(cell), Err(MoveError::Choosing));
        typed(&mut s, &["white"]);
        assert_eq!((s.side_of(Mark::X), s.side_of(Mark::O)), (Side::B, Side::A));
        assert_eq!(
            s.game().record().to_string(),
            "--gomoku --opening swap2 h8 i9 j8 two i7 h7 white"
        );
    }

    #[test]
    fn against_the_ai_a_person_who_takes_black_wins_as_black_and_undo_reaches_the_choice() {
        let ai = Player::Ai(Level::HARD);
        let mut g = Game::new(swap2(), ai, Player::Human);
        for text in ["h8", "i9", "j8"] {
            g.play(g.position().parse_move(text).unwrap()).unwrap();
        }
        assert!(!g.person_moved(), "the AI placed the stones");
        assert_eq!(g.turn().map(|(_, p)| p), Some(Player::Human));
        g.play(Move::Choice(Choice::Black)).unwrap();
        assert!(g.person_moved());
        assert_eq!(g.player(Mark::X), Player::Human);
        for text in ["a1", "i8"] {
            g.play(g.position().parse_move(text).unwrap()).unwrap();
        }
        assert_eq!(g.undo(), 1, "the person's i8");
        assert_eq!(g.undo(), 2, "the AI's a1 and the person's choice");
        assert!(matches!(g.position().stage(), Stage::Choose(_)));
        g.play(Move::Choice(Choice::Black)).unwrap();
        for text in ["a1", "i8", "a2", "k8", "a3", "l8"] {
            g.play(g.position().parse_move(text).unwrap()).unwrap();
        }
        assert_eq!(g.verdict(), Some(Verdict::Won));
        assert_eq!(g.counts(GameEnd::Finished), Some(Verdict::Won));
    }

    #[test]
    fn a_swap_game_is_kept_and_read_back_with_its_choices() {
        let mut s = Session::new(swap2(), Player::Human, Player::Human);
        typed(&mut s, &["h8", "i9", "j8", "white", "g7"]);
        let record = s.game().record();
        let words: Vec<String> = record.to_string().split(' ').map(String::from).collect();
        let flags = words
            .iter()
            .take_while(|w| w.starts_with("--") || *w == "swap2");
        let variant = Variant::from_flags(&flags.cloned().collect::<Vec<_>>().join(" "));
        assert_eq!(variant, Some(swap2()));
        let data = crate::rules::position::RulesData::from(swap2());
        assert_eq!(data.variant.as_deref(), Some("gomoku+swap2"));
        assert_eq!(Variant::try_from(data), Ok(swap2()));
        let moves = &words[3..];
        assert_eq!(Record::parse(swap2(), moves), Ok(record));
    }
}
