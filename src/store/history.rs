//! The profile on disk: every finished game, and every game left unfinished after a person's
//! move, one JSON line each, appended to `history.jsonl` in the platform's data directory (or
//! the directory `TICTACTOE_HOME` names).
//!
//! Writing is one `write(2)` of a whole line on a file opened with `O_APPEND`, under an
//! advisory lock that other appenders wait on, so games that end at the same moment in two
//! programs land as two whole lines, one after the other, and a crash loses at most the game
//! being written (the system lets the lock go with the program). Reading skips a damaged
//! line (one that is not JSON, or whose moves do not replay to the end of a game) with one
//! warning per run; a directory that cannot be written gives one warning and the game goes
//! on.

use std::collections::HashMap;
use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::bail;
use serde::{Deserialize, Serialize};

use crate::ai::levels::Level;
use crate::ai::player::Player;
use crate::game::ending::Ending;
use crate::game::record::Record;
use crate::game::{Game, GameEnd, Journal, Tally, Verdict, lone_human};
use crate::rules::classic::Mark;
use crate::rules::gomoku::opening::{Opening, Seat};
use crate::rules::position::{RulesData, Variant};
use crate::text;

/// The environment variable that names the profile's directory instead of the platform's.
pub const HOME_VAR: &str = "TICTACTOE_HOME";

/// The history's file name in the profile's directory.
pub const FILE: &str = "history.jsonl";

/// The file, beside the history, of the last game a person played here and did not finish:
/// what *Continue your last game* takes up.
pub const CURRENT: &str = "current.json";
/// The file whose lock is the claim on the game to continue ([`Claim`]), beside it.
const CLAIM: &str = "current.lock";

/// A line longer than this is damaged: no game's line comes near it.
const MAX_LINE: usize = 64 * 1024;

/// One line of the file, as written.
#[derive(Debug, Serialize, Deserialize)]
struct Line {
    /// When the game ended: UTC, RFC 3339 (`2025-03-01T18:04:05Z`).
    time: String,
    /// The game and its rules, as the network sends them too: `{"size":5,"k":4,"misere":false}`,
    /// `{"size":9,"k":3,"misere":false,"variant":"ultimate"}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    variant: Option<RulesData>,
    /// Lines written before `variant` name the game by its command-line flags instead: `""`
    /// for classic 3×3, `--size 5`, `--ultimate`. Read, never written.
    #[serde(default, skip_serializing)]
    rules: Option<String>,
    /// Who played X and O: `human`, `easy`, `medium`, `hard` or `remote`.
    x: String,
    o: String,
    /// `X`, `O`, or `null` for a draw. Written for readers of the file; when read back, the
    /// moves decide.
    winner: Option<String>,
    /// For the one person at the game: `won`, `drawn` or `lost`; `null` between two people
    /// or two AIs. Also decided by the moves when read back.
    result: Option<Verdict>,
    /// The moves as `review` takes them.
    moves: Vec<String>,
    /// How many of the moves were set up before play (`--from`); absent for none.
    #[serde(default, skip_serializing_if = "is_zero")]
    setup: usize,
    /// `abandoned` for a game left unfinished; absent for a finished one.
    #[serde(default, skip_serializing_if = "is_finished")]
    end: GameEnd,
    /// `true` for a game left unfinished and taken up again: this line stands for the last
    /// line before it of the game as it was left (same rules and players, its moves a
    /// beginning of these), which is then no longer read.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    resumed: bool,
    /// `resigned` (by the loser, `winner`'s opponent), `time` (the loser's flag fell) or
    /// `agreed` (a draw) for a game ended off the board; absent for one ended on it, or left.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    ending: Option<String>,
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's `skip_serializing_if` passes a reference
fn is_zero(n: &usize) -> bool {
    *n == 0
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_finished(end: &GameEnd) -> bool {
    *end == GameEnd::Finished
}

/// A game of the history: finished, or left unfinished after a person's move.
///
/// Invariant: `game` reached its end where `end` is [`GameEnd::Finished`], and did not where
/// it is [`GameEnd::Abandoned`].
#[derive(Clone, Debug)]
pub struct Entry {
    /// When it ended: UTC, RFC 3339.
    pub time: String,
    pub game: Game,
    pub end: GameEnd,
}

impl Entry {
    fn from_line(line: &Line) -> Option<Entry> {
        let variant = match (&line.variant, &line.rules) {
            (Some(data), _) => Variant::try_from(data.clone()).ok()?,
            (None, Some(flags)) => Variant::from_flags(flags)?,
            (None, None) => return None,
        };
        let (x, o) = (player(&line.x)?, player(&line.o)?);
        let record = Record::parse(variant, &line.moves).ok()?;
        // The line names the players of X and O; a swap opening may have given the first
        // seat O.
        let swaps = variant.opening() != Opening::Free;
        let swapped = swaps && record.end().seat_of(Mark::X) == Seat::Second;
        let (first, second) = if swapped { (o, x) } else { (x, o) };
        let ending = match (line.ending.as_deref(), line.winner.as_deref()) {
            (None, _) => None,
            (Some("agreed"), None) => Some(Ending::Agreed),
            (Some("resigned"), Some("X")) => Some(Ending::Resigned(Mark::O)),
            (Some("resigned"), Some("O")) => Some(Ending::Resigned(Mark::X)),
            (Some("time"), Some("X")) => Some(Ending::Time(Mark::O)),
            (Some("time"), Some("O")) => Some(Ending::Time(Mark::X)),
            _ => return None,
        };
        let game = Game::resume(&record, line.setup, first, second)?
            .with_resumed(line.resumed)
            .ended_as(ending);
        // The time is only shown: a control or format character (an escape sequence in a
        // hand-edited file) is replaced, so it cannot drive the terminal.
        let time = text::cut(&text::printable(&line.time), 40);
        (game.is_over() == (line.end == GameEnd::Finished)).then_some(Entry {
            time,
            game,
            end: line.end,
        })
    }

    fn to_line(&self) -> Line {
        let game = &self.game;
        let record = game.record();
        Line {
            time: self.time.clone(),
            variant: Some(record.variant().into()),
            rules: None,
            x: game.player(crate::rules::classic::Mark::X).to_string(),
            o: game.player(crate::rules::classic::Mark::O).to_string(),
            winner: match game.outcome() {
                crate::rules::position::Outcome::Won(mark) => Some(mark.to_string()),
                _ => None,
            },
            result: game.verdict().or(game.counts(self.end)),
            moves: record.moves().iter().map(ToString::to_string).collect(),
            setup: game.setup(),
            end: self.end,
            resumed: game.is_resumed(),
            ending: game.ending().map(|ending| {
                match ending {
                    Ending::Resigned(_) => "resigned",
                    Ending::Agreed => "agreed",
                    Ending::Time(_) => "time",
                }
                .to_string()
            }),
        }
    }

    /// Whether this game, taken up again, stands for `left`: the same game as it was when
    /// left unfinished.
    fn continues(&self, left: &Entry) -> bool {
        let (game, before) = (&self.game, &left.game);
        left.end == GameEnd::Abandoned
            && game.is_resumed()
            && game.variant() == before.variant()
            && game.seats() == before.seats()
            && game.setup() == before.setup()
            && game.history().starts_with(before.history())
    }

    /// The person's opponent and the result this game counts as, where it counts (see
    /// [`Game::counts`]).
    pub fn counted(&self) -> Option<(Player, Verdict)> {
        Some((self.opponent()?, self.game.counts(self.end)?))
    }

    /// The one person's opponent (an AI level or `remote`), if one person played.
    pub fn opponent(&self) -> Option<Player> {
        let game = &self.game;
        lone_human(
            game.player(crate::rules::classic::Mark::X),
            game.player(crate::rules::classic::Mark::O),
        )
        .map(|(_, opponent)| opponent)
    }
}

/// The player a name in the file stands for: `human`, `remote`, an AI's level (`level 3`),
/// or the names kept before levels were numbered (`easy`, `medium`, `hard`).
fn player(name: &str) -> Option<Player> {
    match name {
        "remote" => Some(Player::Remote),
        _ => name.strip_prefix("level ").unwrap_or(name).parse().ok(),
    }
}

/// The profile directory: `TICTACTOE_HOME` if it is set and not empty, else the platform's
/// data directory (`~/.local/share/tictactoe` on Linux), if there is one.
pub fn profile_dir() -> Option<PathBuf> {
    match std::env::var_os(HOME_VAR) {
        Some(dir) if !dir.is_empty() => Some(PathBuf::from(dir)),
        _ => dirs::data_dir().map(|d| d.join("tictactoe")),
    }
}

/// The history file of a profile directory.
#[derive(Debug)]
pub struct Profile {
    path: PathBuf,
}

impl Profile {
    /// The profile kept in `dir`.
    pub fn at(dir: impl Into<PathBuf>) -> Profile {
        Profile {
            path: dir.into().join(FILE),
        }
    }

    /// The profile in `TICTACTOE_HOME` if it is set and not empty, else in the platform's
    /// data directory (`~/.local/share/tictactoe` on Linux); `None`, with a warning, where
    /// there is none.
    pub fn open() -> Option<Profile> {
        let dir = profile_dir();
        if dir.is_none() {
            warn(&format!(
                "no data directory found: games are not kept (set {HOME_VAR} to keep them)"
            ));
        }
        dir.map(Profile::at)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The file of the last unfinished game, beside the history.
    fn current(&self) -> PathBuf {
        self.path.with_file_name(CURRENT)
    }

    /// The last game a person played here and did not finish, if it is kept and whole.
    pub fn unfinished(&self) -> Option<Entry> {
        let text = crate::store::files::read(&self.current()).ok()?;
        let line = serde_json::from_slice::<Line>(text.get(..MAX_LINE.min(text.len()))?).ok()?;
        let entry = Entry::from_line(&line)?;
        (entry.end == GameEnd::Abandoned).then_some(entry)
    }

    /// The claim on the game to continue, for as long as the claim lives; an error saying
    /// so where another program holds it.
    fn claim(&self) -> anyhow::Result<Claim> {
        let path = self.current().with_file_name(CLAIM);
        let failed =
            |e: io::Error| anyhow::anyhow!("cannot claim the last game ({}): {e}", path.display());
        crate::store::files::regular(&path).map_err(failed)?;
        let file = fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(failed)?;
        match file.try_lock() {
            Ok(()) => Ok(Claim(file)),
            Err(fs::TryLockError::WouldBlock) => bail!(
                "the last game is being continued in another tictactoe already: finish it there"
            ),
            Err(fs::TryLockError::Error(e)) => Err(failed(e)),
        }
    }

    /// Keeps `game`, not over, as the last unfinished game: written whole to a new file that
    /// then takes the old one's place, so a crash leaves the old file or the new, never half.
    fn keep_unfinished(&self, game: &Game) -> io::Result<()> {
        let entry = Entry {
            time: now(),
            game: game.clone(),
            end: GameEnd::Abandoned,
        };
        let text = serde_json::to_string(&entry.to_line())? + "\n";
        replace_whole(&self.current(), text.as_bytes())
    }

    /// An error that says so when the profile directory is a file (`TICTACTOE_HOME` naming
    /// one, say), instead of the system's "File exists" or "Not a directory".
    fn not_a_file(&self) -> io::Result<()> {
        match self.path.parent() {
            Some(dir) if dir.is_file() => Err(io::Error::other(format!(
                "{} is a file, not a directory (set {HOME_VAR} to a directory)",
                dir.display()
            ))),
            _ => Ok(()),
        }
    }

    /// Appends `game`, which has ended as `end`, as one line written at once.
    pub fn append(&self, game: &Game, end: GameEnd, time: String) -> io::Result<()> {
        let entry = Entry {
            time,
            game: game.clone(),
            end,
        };
        let mut text = serde_json::to_string(&entry.to_line())?;
        text.push('\n');
        self.not_a_file()?;
        if let Some(dir) = self.path.parent() {
            fs::create_dir_all(dir)?;
        }
        crate::store::files::regular(&self.path)?;
        let mut file = OpenOptions::new()
            .create(true)
            .read(true)
            .append(true)
            .open(&self.path)?;
        // Another program appending is held off until this line is written: without the lock,
        // the last byte read below can be the middle of its line, half copied, and this line
        // would start with a needless break. Where the system cannot lock (some network file
        // systems), append unlocked: keeping the game matters more than a blank line.
        let _ = file.lock();
        // A line cut short before (a crash) must not swallow this one: end it first, and the
        // cut line is skipped as damaged when read.
        if !ends_whole(&mut file)? {
            text.insert(0, '\n');
        }
        let before = file.metadata()?.len();
        // One call, so the line is whole or not there: a short write (a full disk, a file size
        // limit) or a failed one is taken back, and nothing written before is touched.
        let written = file.write(text.as_bytes());
        if written.as_ref().is_ok_and(|&n| n == text.len()) {
            return Ok(());
        }
        let _ = file.set_len(before);
        Err(match written {
            Ok(_) => io::Error::new(
                io::ErrorKind::WriteZero,
                "only part of it could be written (is the disk full?), and that part was taken back",
            ),
            Err(e) => e,
        })
    }

    /// Every finished game of the history, oldest first. A missing file is an empty
    /// history; damaged lines are skipped with one warning per run.
    pub fn read(&self) -> io::Result<Vec<Entry>> {
        self.not_a_file()?;
        let bytes = match crate::store::files::read(&self.path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(e),
        };
        let (entries, damaged) = parse(&bytes);
        if damaged > 0 && !DAMAGE_TOLD.swap(true, Ordering::Relaxed) {
            let lines = if damaged == 1 { "line" } else { "lines" };
            warn(&format!(
                "skipped {damaged} damaged {lines} in {}",
                self.path.display()
            ));
        }
        Ok(entries)
    }

    /// Reads the history; a file that cannot be read is a warning and an empty history.
    fn read_or_warn(&self) -> Vec<Entry> {
        self.read().unwrap_or_else(|e| {
            warn(&format!("cannot read {}: {e}", self.path.display()));
            Vec::new()
        })
    }
}

/// Writes `bytes` as the whole of the file at `path` (made with its directory if missing): to a
/// new file beside it, made afresh (a link left under that name is removed, never followed),
/// that then takes the old one's place. After a crash the file is the old one or the new one,
/// whole; a link where the file was is replaced, never written through. Every profile file
/// but the append-only history is written this way.
pub fn replace_whole(path: &Path, bytes: &[u8]) -> io::Result<()> {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir)?;
    }
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let fresh = path.with_file_name(format!(".{name}.{}.new", std::process::id()));
    let _ = fs::remove_file(&fresh);
    let written = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&fresh)
        .and_then(|mut file| file.write_all(bytes))
        .and_then(|()| fs::rename(&fresh, path));
    if written.is_err() {
        let _ = fs::remove_file(&fresh);
    }
    if written.is_ok() {
        sweep_stale(path);
    }
    written
}

/// How old a new file beside a profile file is before it counts as left by a writer that was
/// killed before it put the file in place: writing one takes milliseconds.
const STALE: std::time::Duration = std::time::Duration::from_mins(10);

/// Removes the new files beside `path` (`.NAME.PID.new`) that writers killed mid-write left
/// behind, once they are [`STALE`]; a newer one may be another program's, writing now.
fn sweep_stale(path: &Path) {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return;
    };
    let prefix = format!(".{}.", name.to_string_lossy());
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let file = entry.file_name();
        let file = file.to_string_lossy();
        let left = file
            .strip_prefix(&prefix)
            .and_then(|rest| rest.strip_suffix(".new"))
            .is_some_and(|pid| !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()));
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|at| at.elapsed().ok())
            .is_some_and(|age| age >= STALE);
        if left && old {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Whether `file` is empty or ends with a newline (its last line whole).
fn ends_whole(file: &mut fs::File) -> io::Result<bool> {
    use std::io::{Read, Seek, SeekFrom};
    if file.metadata()?.len() == 0 {
        return Ok(true);
    }
    file.seek(SeekFrom::End(-1))?;
    let mut last = [0; 1];
    file.read_exact(&mut last)?;
    Ok(last[0] == b'\n')
}

/// A claim on the game kept to continue, held while a program plays it on, so a second
/// program cannot take the same game up again and record a second result for it. The
/// system lets go of it when the program ends, however it ends.
pub struct Claim(#[allow(dead_code)] fs::File);

/// The claim on the last unfinished game and that game, as the file has it now (not as a
/// screen drawn earlier showed it: it may have been finished or taken further since). An
/// error where another program holds the claim, or where there is no game to continue any
/// more.
pub fn claim_unfinished() -> anyhow::Result<(Claim, Entry)> {
    let Some(profile) = profile_dir().map(Profile::at) else {
        bail!("there is no profile directory to continue a game from");
    };
    let claim = profile.claim()?;
    let Some(entry) = profile.unfinished() else {
        bail!(
            "the last game is no longer there to continue: it was finished or taken up in another tictactoe"
        );
    };
    Ok((claim, entry))
}

/// The games in the bytes of a history file, and how many non-empty lines were damaged.
///
/// A game taken up again replaces the last line before it of the game as it was left
/// ([`Entry::continues`]). The games left are found by a key of their rules, players, setup
/// and moves ([`prefix_keys`]), so each line costs the same however long the file: no line is
/// compared with every line before it, and none is removed from the middle of the list.
fn parse(bytes: &[u8]) -> (Vec<Entry>, usize) {
    let mut damaged = 0;
    // `None` where a line was replaced by the game taken up again.
    let mut entries: Vec<Option<Entry>> = Vec::new();
    // The games left unfinished, by the key of all their moves: their places in `entries`,
    // oldest first.
    let mut left: HashMap<u64, Vec<usize>> = HashMap::new();
    for line in bytes.split(|&b| b == b'\n') {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let entry = (line.len() <= MAX_LINE)
            .then(|| serde_json::from_slice::<Line>(line).ok())
            .flatten()
            .and_then(|line| Entry::from_line(&line));
        let Some(entry) = entry else {
            damaged += 1;
            continue;
        };
        let keys = prefix_keys(&entry.game);
        if entry.game.is_resumed() {
            // The latest game left that this one continues: of each beginning of its moves,
            // the last left with them.
            let found = keys
                .iter()
                .filter_map(|key| {
                    let at = *left.get(key)?.last()?;
                    let before = entries[at].as_ref()?;
                    entry.continues(before).then_some((*key, at))
                })
                .max_by_key(|&(_, at)| at);
            if let Some((key, at)) = found {
                left.get_mut(&key).map(Vec::pop);
                entries[at] = None;
            }
        }
        if entry.end == GameEnd::Abandoned
            && let Some(&all) = keys.last()
        {
            left.entry(all).or_default().push(entries.len());
        }
        entries.push(Some(entry));
    }
    (entries.into_iter().flatten().collect(), damaged)
}

/// A key for each beginning of `game`'s moves (none, the first, the first two… all of them)
/// with its rules, players and setup: equal keys for a game left and one that continues it
/// from where it was left (collisions are ruled out by [`Entry::continues`]).
fn prefix_keys(game: &Game) -> Vec<u64> {
    use std::hash::{DefaultHasher, Hash, Hasher};
    let mut hasher = DefaultHasher::new();
    game.variant().hash(&mut hasher);
    game.seats().hash(&mut hasher);
    game.setup().hash(&mut hasher);
    let mut keys = Vec::with_capacity(game.history().len() + 1);
    keys.push(hasher.finish());
    for mv in game.history() {
        mv.hash(&mut hasher);
        keys.push(hasher.finish());
    }
    keys
}

impl Journal for Profile {
    fn enter(&self, game: &Game, end: GameEnd) {
        if let Err(e) = self.append(game, end, now()) {
            warn(&format!(
                "this game was not kept in {}: {e}. The games kept before are untouched; \
                 this one's record: {}",
                self.path.display(),
                game.record()
            ));
        }
        // A finished game is no longer one to continue; one left stays there to be.
        if end == GameEnd::Finished
            && self
                .unfinished()
                .is_some_and(|kept| game.history().starts_with(kept.game.history()))
        {
            let _ = fs::remove_file(self.current());
        }
    }

    fn progress(&self, game: &Game) {
        // A directory that cannot be written is told once, when the game ends and cannot be
        // kept either; until then the game only cannot be continued after a crash.
        let _ = self.keep_unfinished(game);
    }

    fn tally(&self, opponent: Player, variant: Variant) -> Option<Tally> {
        let mut tally = Tally::default();
        for entry in self.read().ok()? {
            match entry.counted() {
                Some((met, verdict)) if met == opponent && entry.game.variant() == variant => {
                    tally.add(verdict);
                }
                _ => {}
            }
        }
        Some(tally)
    }

    fn results(&self, variant: Variant) -> Vec<(Level, Verdict)> {
        self.read_or_warn()
            .into_iter()
            .filter(|entry| entry.game.variant() == variant)
            .filter_map(|entry| {
                let (opponent, verdict) = entry.counted()?;
                Some((opponent.level()?, verdict))
            })
            .collect()
    }
}

/// Whether the damaged lines were told about in this run.
static DAMAGE_TOLD: AtomicBool = AtomicBool::new(false);

/// Warnings kept while the full-screen game owns the terminal; `None` prints them at once.
static HELD: Mutex<Option<Vec<String>>> = Mutex::new(None);

/// The warnings given in this run, so that each is given once.
static TOLD: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Warns on standard error, or later while warnings are held; each text at most once a run.
pub fn warn(what: &str) {
    let line = format!("tictactoe: warning: {}", text::printable(what));
    {
        let mut told = TOLD
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if told.contains(&line) {
            return;
        }
        told.push(line.clone());
    }
    let mut held = HELD
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    match held.as_mut() {
        Some(lines) if !lines.contains(&line) => lines.push(line),
        Some(_) => {}
        None => eprintln!("{line}"),
    }
}

/// Keeps warnings from now on, for [`release_warnings`]: the full-screen game is about to
/// take the terminal.
pub fn hold_warnings() {
    let mut held = HELD
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    held.get_or_insert_with(Vec::new);
}

/// The warnings held since [`hold_warnings`], for a screen to show while it owns the
/// terminal: without the program's prefix, and the profile's files by their names (the
/// whole lines are printed all the same when released).
pub fn held_warnings() -> Vec<String> {
    let held = HELD
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let lines = held.as_deref().unwrap_or_default();
    let dir = profile_dir().map(|d| format!("{}{}", d.display(), std::path::MAIN_SEPARATOR));
    let short = |line: &String| {
        let text = line.strip_prefix("tictactoe: warning: ").unwrap_or(line);
        let text = dir
            .as_ref()
            .map_or(text.to_string(), |d| text.replace(d, ""));
        format!("Warning: {text}")
    };
    lines.iter().map(short).collect()
}

/// Prints the warnings held since [`hold_warnings`] and prints the next ones at once.
pub fn release_warnings() {
    let lines = HELD
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .take();
    for line in lines.unwrap_or_default() {
        eprintln!("{line}");
    }
}

/// The profile, opened as the journal a session enters its games in, unless `off`
/// (`--no-history`) or there is no profile to open.
pub fn journal(off: bool) -> Option<Arc<dyn Journal>> {
    if off {
        return None;
    }
    Profile::open().map(|profile| Arc::new(profile) as Arc<dyn Journal>)
}

/// The games of the profile, oldest first, for `stats`, `history` and `review --last`; a
/// profile that cannot be found or read has none (with a warning).
pub fn games() -> Vec<Entry> {
    Profile::open().map_or_else(Vec::new, |p| p.read_or_warn())
}

/// The last game a person played here and did not finish, where there is one to continue.
pub fn unfinished() -> Option<Entry> {
    profile_dir().map(Profile::at)?.unfinished()
}

/// The record `review --last` (`last`) or `review --game N` (`number`) asks for, or `None`
/// when neither is given.
pub fn chosen(last: bool, number: Option<usize>) -> anyhow::Result<Option<Record>> {
    if !last && number.is_none() {
        return Ok(None);
    }
    let games = games();
    let n = games.len();
    let index = match number {
        Some(k) if (1..=n).contains(&k) => k - 1,
        Some(k) => {
            bail!("there is no game {k} in the history: it has {n} (see `tictactoe history`)")
        }
        None if n == 0 => bail!("the history has no games yet"),
        None => n - 1,
    };
    Ok(Some(games[index].game.record()))
}

/// Now, in UTC, as RFC 3339: `2025-03-01T18:04:05Z`.
pub fn now() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    rfc3339(secs)
}

/// `secs` after the Unix epoch, in UTC, as RFC 3339.
fn rfc3339(secs: u64) -> String {
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let (year, month, day) = civil(days as i64);
    let (h, m, s) = (rest / 3600, rest / 60 % 60, rest % 60);
    format!("{year:04}-{month:02}-{day:02}T{h:02}:{m:02}:{s:02}Z")
}

/// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::classic::Rules;

    #[test]
    fn a_whole_file_replaces_a_link_and_never_writes_through_one() {
        let dir = std::env::temp_dir().join(format!("tictactoe-whole-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let (path, other) = (dir.join("menu.json"), dir.join("precious"));
        fs::write(&other, "keep me").unwrap();
        std::os::unix::fs::symlink(&other, &path).unwrap();
        // A link planted under the temporary name is removed, not followed, too.
        let fresh = dir.join(format!(".menu.json.{}.new", std::process::id()));
        std::os::unix::fs::symlink(&other, &fresh).unwrap();
        replace_whole(&path, b"{}\n").unwrap();
        assert_eq!(fs::read_to_string(&other).unwrap(), "keep me");
        assert!(
            !fs::symlink_metadata(&path)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read_to_string(&path).unwrap(), "{}\n");
        assert!(!fresh.exists(), "nothing left beside it");
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_new_file_a_killed_writer_left_is_swept_once_it_is_stale_and_a_fresh_one_is_kept() {
        let dir = std::env::temp_dir().join(format!("tictactoe-sweep-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let left = |name: &str, age: u64| {
            let path = dir.join(name);
            let file = fs::File::create(&path).unwrap();
            let at = SystemTime::now() - std::time::Duration::from_secs(age);
            file.set_modified(at).unwrap();
            path
        };
        let stale = left(".current.json.99999.new", 3600);
        let writing = left(".current.json.88888.new", 1);
        let other = left(".current.json.notes.new", 3600);
        let settings = left(".settings.toml.99999.new", 3600);
        replace_whole(&dir.join("current.json"), b"{}\n").unwrap();
        assert!(!stale.exists(), "an hour old: left by a killed writer");
        assert!(
            writing.exists(),
            "a second old: another program may be writing it"
        );
        assert!(other.exists() && settings.exists(), "not this file's");
        let _ = fs::remove_dir_all(&dir);
    }

    fn finished(variant: Variant, x: Player, o: Player, moves: &[&str]) -> Game {
        let record = Record::parse(variant, moves).unwrap();
        let mut game = Game::new(variant, x, o);
        for &mv in record.moves() {
            game.play(mv).unwrap();
        }
        game
    }

    #[test]
    fn times_are_utc_rfc3339() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(rfc3339(1_700_000_000), "2023-11-14T22:13:20Z");
        assert_eq!(rfc3339(4_107_542_399), "2100-02-28T23:59:59Z");
    }

    #[test]
    fn a_line_reads_back_as_the_same_game() {
        let misere = Variant::Classic(Rules::new(4, 3, true).unwrap());
        for (variant, x, o) in [
            (Variant::default(), Player::Human, Player::HARD),
            (misere, Player::EASY, Player::Human),
            (Variant::Ultimate, Player::Remote, Player::Human),
        ] {
            // Each side plays its last legal move, to the end.
            let mut game = Game::new(variant, x, o);
            while !game.is_over() {
                let last = *game.position().legal_moves().last().unwrap();
                game.play(last).unwrap();
            }
            let entry = Entry {
                time: rfc3339(0),
                game,
                end: GameEnd::Finished,
            };
            let text = serde_json::to_string(&entry.to_line()).unwrap();
            let (back, damaged) = parse(text.as_bytes());
            assert_eq!(damaged, 0, "{text}");
            assert_eq!(back[0].game.record(), entry.game.record());
            assert_eq!(back[0].game.verdict(), entry.game.verdict());
            assert_eq!(back[0].opponent(), entry.opponent());
        }
    }

    #[test]
    fn a_swap_game_reads_back_with_each_person_in_their_seat_and_colour() {
        let swap2 = Variant::GOMOKU
            .opened(crate::rules::gomoku::opening::Opening::Swap2)
            .unwrap();
        // The person opens, the AI takes black and makes five.
        let moves = [
            "h8", "i9", "j8", "black", "a1", "i8", "a2", "k8", "a3", "l8",
        ];
        let game = finished(swap2, Player::Human, Player::HARD, &moves);
        assert_eq!(game.verdict(), Some(Verdict::Lost));
        let entry = Entry {
            time: rfc3339(0),
            game,
            end: GameEnd::Finished,
        };
        let line = entry.to_line();
        assert_eq!((line.x.as_str(), line.o.as_str()), ("level 7", "human"));
        let text = serde_json::to_string(&line).unwrap();
        let (back, damaged) = parse(text.as_bytes());
        assert_eq!(damaged, 0, "{text}");
        assert_eq!(back[0].game.seats(), (Player::Human, Player::HARD));
        assert_eq!(back[0].game.player(Mark::X), Player::HARD);
        assert_eq!(back[0].counted(), Some((Player::HARD, Verdict::Lost)));
    }

    #[test]
    fn games_resigned_and_drawn_by_agreement_read_back_ended_so() {
        use crate::game::ending::Drawn;
        let mut resigned = finished(Variant::default(), Player::Human, Player::HARD, &["5", "1"]);
        assert!(resigned.resign(Seat::First));
        let mut agreed = finished(Variant::default(), Player::EASY, Player::Human, &["5"]);
        assert_eq!(agreed.offer_draw(Seat::First), Drawn::Offered);
        assert_eq!(agreed.offer_draw(Seat::Second), Drawn::Agreed);
        for (game, ending, verdict) in [
            (resigned, "resigned", Verdict::Lost),
            (agreed, "agreed", Verdict::Drawn),
        ] {
            let entry = Entry {
                time: rfc3339(0),
                game,
                end: GameEnd::Finished,
            };
            let line = entry.to_line();
            assert_eq!(line.ending.as_deref(), Some(ending));
            let text = serde_json::to_string(&line).unwrap();
            let (back, damaged) = parse(text.as_bytes());
            assert_eq!(damaged, 0, "{text}");
            assert_eq!(back[0].game.ending(), entry.game.ending());
            assert_eq!(back[0].counted().map(|(_, v)| v), Some(verdict), "{text}");
        }
        // A resignation whose winner is missing is a damaged line.
        let (back, damaged) =
            parse(br#"{"time":"t","x":"human","o":"hard","winner":null,"result":"lost","moves":["5"],"ending":"resigned"}"#);
        assert_eq!((back.len(), damaged), (0, 1));
    }

    #[test]
    fn set_up_and_abandoned_games_read_back_as_they_were_kept() {
        let opening = Record::parse(Variant::default(), &["5", "1"]).unwrap();
        let mut set_up = Game::from_record(&opening, Player::Human, Player::EASY);
        set_up
            .play(crate::rules::classic::Board::default().numpad(9).unwrap())
            .unwrap();
        let left = finished(Variant::default(), Player::Human, Player::HARD, &["5", "1"]);
        for (game, end, tail) in [
            (
                set_up,
                GameEnd::Abandoned,
                r#""setup":2,"end":"abandoned"}"#,
            ),
            (
                left,
                GameEnd::Abandoned,
                r#""result":"lost","moves":["5","1"],"end":"abandoned"}"#,
            ),
        ] {
            let entry = Entry {
                time: rfc3339(0),
                game,
                end,
            };
            let text = serde_json::to_string(&entry.to_line()).unwrap();
            assert!(text.ends_with(tail), "{text}");
            let (back, damaged) = parse(text.as_bytes());
            assert_eq!(damaged, 0, "{text}");
            assert_eq!(back[0].end, end);
            assert_eq!(back[0].game.setup(), entry.game.setup());
            assert_eq!(back[0].counted(), entry.counted());
        }
        // A line that says finished for a game that is not, or the other way, is damaged.
        let unfinished = r#"{"time":"t","rules":"","x":"human","o":"easy","winner":null,"result":null,"moves":["5","1"]}"#;
        let over = r#"{"time":"t","rules":"","x":"human","o":"easy","winner":null,"result":null,"moves":["7","1","8","2","9"],"end":"abandoned"}"#;
        let too_long = r#"{"time":"t","rules":"","x":"human","o":"easy","winner":null,"result":null,"moves":["5"],"setup":2,"end":"abandoned"}"#;
        let text = format!("{unfinished}\n{over}\n{too_long}\n");
        assert_eq!(parse(text.as_bytes()).1, 3);
    }

    #[test]
    fn a_game_taken_up_again_replaces_the_line_kept_when_it_was_left() {
        let classic = Variant::default();
        let left = finished(classic, Player::Human, Player::EASY, &["5", "1"]);
        let resumed = |moves: &[&str]| {
            let record = Record::parse(classic, moves).unwrap();
            Game::resume(&record, 0, Player::Human, Player::EASY).unwrap()
        };
        let line = |game: Game, end| {
            let entry = Entry {
                time: rfc3339(0),
                game,
                end,
            };
            serde_json::to_string(&entry.to_line()).unwrap()
        };
        let other = finished(classic, Player::Human, Player::HARD, &["5", "1"]);
        let text = [
            line(left.clone(), GameEnd::Abandoned),
            line(other, GameEnd::Abandoned),
            line(resumed(&["5", "1", "9", "7"]), GameEnd::Abandoned),
            line(
                resumed(&["5", "1", "9", "7", "4", "6", "3", "2", "8"]),
                GameEnd::Finished,
            ),
        ]
        .join("\n");
        let (entries, damaged) = parse(text.as_bytes());
        assert_eq!(damaged, 0);
        let kept: Vec<(usize, GameEnd)> = entries
            .iter()
            .map(|e| (e.game.history().len(), e.end))
            .collect();
        assert_eq!(
            kept,
            [(2, GameEnd::Abandoned), (9, GameEnd::Finished)],
            "the game against level 7 stays; level 1's left twice, then finished, is one game"
        );
        assert_eq!(entries[1].counted(), Some((Player::EASY, Verdict::Drawn)));
    }

    #[test]
    fn a_game_left_then_taken_up_and_drawn_counts_once_as_drawn_in_the_all_time_score() {
        use crate::game::Session;
        let dir = std::env::temp_dir().join(format!("tictactoe-resume-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let profile = Arc::new(Profile::at(&dir));
        let cell = |d| crate::rules::classic::Board::default().numpad(d).unwrap();
        let mut left = Session::new(Variant::default(), Player::Human, Player::EASY)
            .with_journal(Arc::clone(&profile) as Arc<dyn Journal>);
        left.play(cell(5)).unwrap();
        left.play(cell(1)).unwrap();
        left.leave();
        let kept = profile.unfinished().expect("kept to continue").game;
        let game = Game::resume(&kept.record(), kept.setup(), Player::Human, Player::EASY).unwrap();
        let mut again =
            Session::resuming(game).with_journal(Arc::clone(&profile) as Arc<dyn Journal>);
        let lost = Tally {
            won: 0,
            drawn: 0,
            lost: 1,
        };
        assert_eq!(again.all_time(), Some(lost), "left: a loss so far");
        for d in [9, 7, 4, 6, 3, 2, 8] {
            again.play(cell(d)).unwrap();
        }
        let drawn = Tally {
            won: 0,
            drawn: 1,
            lost: 0,
        };
        assert_eq!(again.all_time(), Some(drawn));
        assert_eq!(profile.tally(Player::EASY, Variant::default()), Some(drawn));
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn two_writers_appending_at_once_leave_one_line_per_game_and_no_blank_line() {
        const EACH: usize = 1500;
        let dir = std::env::temp_dir().join(format!("tictactoe-append-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let game = finished(
            Variant::default(),
            Player::Human,
            Player::HARD,
            &["7", "1", "8", "2", "9"],
        );
        // Lines of a few hundred bytes cross the file's pages often, and a line half copied
        // across a page's end is where a writer reading the last byte saw no line break.
        std::thread::scope(|scope| {
            for _ in 0..2 {
                scope.spawn(|| {
                    let profile = Profile::at(&dir);
                    for _ in 0..EACH {
                        profile
                            .append(&game, GameEnd::Finished, rfc3339(0))
                            .unwrap();
                    }
                });
            }
        });
        let file = fs::read_to_string(dir.join(FILE)).unwrap();
        let blank = file.lines().filter(|line| line.is_empty()).count();
        assert_eq!((file.lines().count(), blank), (2 * EACH, 0));
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_unfinished_game_is_kept_beside_the_history_until_it_ends() {
        let dir = std::env::temp_dir().join(format!("tictactoe-current-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let profile = Profile::at(&dir);
        assert!(profile.unfinished().is_none());
        let going = finished(
            Variant::default(),
            Player::Human,
            Player::Human,
            &["5", "1"],
        );
        profile.progress(&going);
        let kept = profile.unfinished().expect("kept");
        assert_eq!(kept.game.record(), going.record());
        let mut done = going.clone();
        for digit in [9, 7, 4, 6, 3, 2, 8] {
            done.play(
                crate::rules::classic::Board::default()
                    .numpad(digit)
                    .unwrap(),
            )
            .unwrap();
        }
        profile.enter(&done, GameEnd::Finished);
        assert!(
            profile.unfinished().is_none(),
            "a finished game is not offered"
        );
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_line_says_rules_players_winner_and_result() {
        let game = finished(
            Variant::default(),
            Player::Human,
            Player::HARD,
            &["7", "1", "8", "2", "9"],
        );
        let line = Entry {
            time: rfc3339(0),
            game,
            end: GameEnd::Finished,
        }
        .to_line();
        assert_eq!(
            serde_json::to_string(&line).unwrap(),
            r#"{"time":"1970-01-01T00:00:00Z","variant":{"size":3,"k":3,"misere":false},"x":"human","o":"level 7","winner":"X","result":"won","moves":["7","1","8","2","9"]}"#
        );
    }

    #[test]
    fn lines_written_with_rules_as_flags_read_as_the_same_games_as_lines_with_rules_as_data() {
        let pairs = [
            (
                r#""rules":"""#,
                r#""variant":{"size":3,"k":3,"misere":false}"#,
                &["5", "1"][..],
            ),
            (
                r#""rules":"--size 5 --k 4 --misere""#,
                r#""variant":{"size":5,"k":4,"misere":true}"#,
                &["c3", "a1"],
            ),
            (
                r#""rules":"--ultimate""#,
                r#""variant":{"size":9,"k":3,"misere":false,"variant":"ultimate"}"#,
                &["55", "51"],
            ),
            (
                r#""rules":"--size 9""#,
                r#""variant":{"size":9,"k":5,"misere":false,"variant":"gomoku"}"#,
                &["e5", "d4"],
            ),
        ];
        for (flags, data, moves) in pairs {
            let moves = serde_json::to_string(moves).unwrap();
            let line = |rules: &str| {
                format!(
                    r#"{{"time":"t",{rules},"x":"human","o":"human","winner":null,"result":null,"moves":{moves},"end":"abandoned"}}"#
                )
            };
            let (old, damaged_old) = parse(line(flags).as_bytes());
            let (new, damaged_new) = parse(line(data).as_bytes());
            assert_eq!(
                (damaged_old, damaged_new, old.len(), new.len()),
                (0, 0, 1, 1),
                "{flags}"
            );
            assert_eq!(old[0].game.record(), new[0].game.record(), "{flags}");
            let written = serde_json::to_string(&new[0].to_line()).unwrap();
            assert!(
                written.contains(data) && !written.contains("rules"),
                "{written}"
            );
        }
        let unknown = line_with(r#""variant":{"size":3,"k":3,"misere":false,"variant":"chess"}"#);
        assert_eq!(
            parse(unknown.as_bytes()).1,
            1,
            "a game not played here is a damaged line"
        );
    }

    fn line_with(rules: &str) -> String {
        format!(
            r#"{{"time":"t",{rules},"x":"human","o":"human","winner":null,"result":null,"moves":[]}}"#
        )
    }

    #[test]
    fn damaged_lines_are_counted_and_skipped() {
        let good = r#"{"time":"t","rules":"","x":"human","o":"easy","winner":"X","result":"won","moves":["7","1","8","2","9"]}"#;
        let unfinished = good.replace(r#","9"]"#, "]");
        let illegal = good.replace(r#""9""#, r#""7""#);
        let unknown = good.replace("easy", "grandmaster");
        let text =
            format!("{good}\n{{\"time\n\n{unfinished}\n{illegal}\n{unknown}\n\u{0}\u{ff}\n{good}");
        let escape = good.replace(r#""time":"t""#, r#""time":"\u001b[2Jt""#);
        let (entries, _) = parse(escape.as_bytes());
        assert_eq!(
            entries[0].time, "\u{fffd}[2Jt",
            "no escape character reaches the terminal"
        );
        let (entries, damaged) = parse(text.as_bytes());
        assert_eq!((entries.len(), damaged), (2, 5));
    }
}
