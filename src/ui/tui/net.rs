//! The terminal game over the network: set up through [`crate::net::setup`] before the
//! screen is taken, then the usual loop with the connection beside it.

use std::io;
use std::sync::mpsc::Sender;
use std::thread;
use std::time::Duration;

use super::{Message, Network, Options, Summary, channel, run_with};
use crate::ai::player::Brain;
use crate::game::record::Record;
use crate::net::link::sink;
use crate::net::setup::{self, Listen, PathWatch, Target};
use crate::ui::waiting;

/// `tictactoe host` in the terminal game: prints the join line, then plays on the screen,
/// which shows the line until a player joins.
pub fn host(
    (how, opening): (Listen, Record),
    brain: Brain,
    options: Options,
) -> anyhow::Result<Summary> {
    let keys = waiting::keys_cancel();
    let said = keys && how.is_online();
    if said {
        println!("Reaching a relay (q cancels)…");
    }
    let listening = waiting::cancellable(keys, move || setup::listen(how, opening));
    if said {
        unsay()?;
    }
    let Some(listening) = listening? else {
        return Ok(Summary::cancelled());
    };
    let mut listening = listening?;
    listening.ask_hints(options.hints);
    listening.set_clock(options.clock);
    listening.limit_watchers(options.watchers);
    // Everything a friend needs, on the screen while it waits (and nothing left behind on the
    // terminal after): the ticket or address and code, and an online host's code on this
    // network beside it.
    let join_line = [
        listening.note().map(|note| format!("{note}.")),
        Some(listening.join_line().to_string()),
        listening.local_line(),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join("\n");
    let (tx, rx) = channel();
    let network = listening.start(sink(tx.clone(), Message::Net))?;
    watch_path(network.watch.clone(), &tx)?;
    let net = Network {
        game: network.net,
        connection: network.connection,
        join_line: Some(join_line),
    };
    let session = network.session.kept_in(options.journal.clone());
    run_with(session, brain, options, (tx, rx), Some(net))
}

/// `tictactoe join` in the terminal game: connects with the code, then plays the host's game
/// on the screen.
pub fn join(target: Target, brain: Brain, options: Options) -> anyhow::Result<Summary> {
    enter(target, brain, options, false)
}

/// `tictactoe watch` in the terminal game: connects with the code, then shows the host's
/// game as it is played, keeping nothing in the history.
pub fn watch(target: Target, brain: Brain, options: Options) -> anyhow::Result<Summary> {
    enter(target, brain, options, true)
}

/// Joins the game at `target` to play it, or to watch it.
fn enter(target: Target, brain: Brain, options: Options, watch: bool) -> anyhow::Result<Summary> {
    let (tx, rx) = channel();
    println!("Connecting to {} (q cancels)…", target.name());
    let into = sink(tx.clone(), Message::Net);
    let keys = waiting::keys_cancel();
    let asks = options.hints;
    let joined = waiting::cancellable(keys, move || {
        if watch {
            setup::watch(target, into)
        } else {
            setup::join(target, asks, into)
        }
    });
    unsay()?;
    let Some(joined) = joined? else {
        return Ok(Summary::cancelled());
    };
    let (network, line) = joined?;
    watch_path(network.watch.clone(), &tx)?;
    let join_line = if watch {
        Some(line)
    } else {
        network.path.map(|path| format!("Connected: {path}."))
    };
    let net = Network {
        game: network.net,
        connection: network.connection,
        join_line,
    };
    let session = if watch {
        network.session
    } else {
        network.session.kept_in(options.journal.clone())
    };
    run_with(session, brain, options, (tx, rx), Some(net))
}

/// Takes back the line just printed while waiting (`Connecting to …`), so that it is not left
/// on the terminal after the game.
fn unsay() -> io::Result<()> {
    use crossterm::{cursor::MoveToPreviousLine, execute, terminal};
    execute!(
        io::stdout(),
        MoveToPreviousLine(1),
        terminal::Clear(terminal::ClearType::CurrentLine)
    )
}

/// How often the path between two online players is looked at again.
const PATH_EVERY: Duration = Duration::from_secs(1);

/// Sends how the two sides are connected to the loop whenever it reads differently (the way,
/// or the round trip to a tenth of a millisecond), until the loop is gone.
fn watch_path(watch: Option<PathWatch>, tx: &Sender<Message>) -> io::Result<()> {
    let Some(watch) = watch else {
        return Ok(());
    };
    let tx = tx.clone();
    thread::Builder::new()
        .name("net-path".into())
        .spawn(move || {
            let mut last = String::new();
            loop {
                if let Some(path) = watch()
                    && path != last
                {
                    last.clone_from(&path);
                    if tx.send(Message::Path(path)).is_err() {
                        return;
                    }
                }
                thread::sleep(PATH_EVERY);
            }
        })?;
    Ok(())
}
