//! `tictactoe host`, `join` and `watch`: the network game in the chosen front end.

use std::io::{self, IsTerminal, Write};
use std::net::IpAddr;
use std::process::ExitCode;

use super::{
    Tee, after_screen, brain, exit_code, full_screen, opening, plain_options, screen_options,
    usage_error,
};
use crate::ai::player::Brain;
use crate::cli::{Cli, HostArgs, JoinArgs};
use crate::game::record::Record;
use crate::net::join::DEFAULT_PORT;
use crate::net::setup::{Listen, Target};
use crate::ui::plain::{self, Ending};
use crate::ui::tui;

/// Where a game hosted from the start screen listens: online, or every interface on the
/// default port.
pub(super) fn menu_listen(online: bool) -> Listen {
    #[cfg(feature = "online")]
    if online {
        return Listen::Online { relay: None };
    }
    let _ = online;
    Listen::Tcp {
        bind: IpAddr::from([0, 0, 0, 0]),
        port: DEFAULT_PORT,
    }
}

/// `tictactoe host`: the chosen front end listens, says how to join, and plays.
pub(super) fn host(cli: &Cli, args: &HostArgs) -> anyhow::Result<ExitCode> {
    #[cfg(feature = "online")]
    if args.online {
        let listen = Listen::Online {
            relay: args.relay.clone(),
        };
        return host_at(cli, (listen, opening(cli)), args);
    }
    if args.relay.is_some() {
        usage_error("--relay goes with --online");
    }
    let listen = Listen::Tcp {
        bind: args.bind,
        port: args.port,
    };
    host_at(cli, (listen, opening(cli)), args)
}

/// Hosts, as `Listen` says, a game that starts at the end of a record, asking for hints and
/// taking watchers as `args` say.
fn host_at(cli: &Cli, setup: (Listen, Record), args: &HostArgs) -> anyhow::Result<ExitCode> {
    let setup_again = setup.clone();
    let watchers = usize::from(args.watchers);
    network(
        (cli, args.hints),
        |brain, options| {
            let options = tui::Options {
                watchers,
                ..options
            };
            tui::host(setup, brain, options)
        },
        |brain, input, out, options| {
            let options = plain::Options {
                watchers,
                ..options
            };
            plain::host(setup_again, brain, input, out, options)
        },
    )
}

/// `tictactoe join`: the chosen front end connects with the code and plays the host's game.
pub(super) fn join(cli: &Cli, args: &JoinArgs, watch: bool) -> anyhow::Result<ExitCode> {
    // A ticket holds its own code: the environment's is for an address or a search.
    let ticket = args
        .target
        .as_ref()
        .is_some_and(|t| !t.contains(['.', ':']));
    let mut args = JoinArgs {
        code: args
            .code
            .clone()
            .or_else(|| code_from_environment().filter(|_| !ticket)),
        ..args.clone()
    };
    let Some(address) = args.target.clone() else {
        return join_found(cli, &args, watch);
    };
    let terminal = io::stdin().is_terminal() && io::stdout().is_terminal();
    if args.code.is_none() && address.contains(['.', ':']) && terminal {
        let Some(code) = plain::find::ask_code(&mut io::stdin().lock(), &mut io::stdout().lock())?
        else {
            println!("Cancelled.");
            return Ok(ExitCode::FAILURE);
        };
        args.code = Some(code);
    }
    let args = &args;
    let target = match &args.code {
        Some(code) if args.relay.is_none() => Target::Address {
            target: address.clone(),
            code: code.clone(),
        },
        Some(_) => usage_error("--relay goes with a ticket, not with an address and --code"),
        None => online_target(&address, args),
    };
    join_at(cli, target, (args.hints, watch))
}

/// The join code in [`CODE_VAR`], where it is set and not empty: a code given there is not
/// in the command line, which any user of the machine can read while the game runs.
fn code_from_environment() -> Option<String> {
    std::env::var(CODE_VAR)
        .ok()
        .filter(|code| !code.trim().is_empty())
}

/// The environment variable `join` takes its code from when `--code` is not given.
const CODE_VAR: &str = "TICTACTOE_CODE";

/// `tictactoe join` with no address: joins a host found on this network.
fn join_found(cli: &Cli, args: &JoinArgs, watch: bool) -> anyhow::Result<ExitCode> {
    let terminal = io::stdin().is_terminal() && io::stdout().is_terminal();
    let found = plain::find::target(
        args.code.as_deref(),
        args.relay.as_deref(),
        terminal,
        &mut io::stdin().lock(),
        &mut io::stdout().lock(),
    )?;
    match found {
        plain::find::Outcome::Join(target) => join_at(cli, target, (args.hints, watch)),
        plain::find::Outcome::Failed(why) => {
            eprintln!("tictactoe: {why}");
            Ok(ExitCode::from(2))
        }
        plain::find::Outcome::Cancelled => {
            println!("Cancelled.");
            Ok(ExitCode::FAILURE)
        }
    }
}

/// `join <ticket>`: the ticket read, or a usage error that says what is wrong with it.
#[cfg(feature = "online")]
fn online_target(address: &str, args: &JoinArgs) -> Target {
    if address.contains(['.', ':']) {
        usage_error(
            "joining HOST[:PORT] needs --code CODE, the code the host printed (or it in TICTACTOE_CODE)",
        );
    }
    match address.parse() {
        Ok(ticket) => Target::Ticket {
            ticket,
            relay: args.relay.clone(),
        },
        Err(e) => usage_error(&format!(
            "not a ticket: {e} (joining an address needs --code)"
        )),
    }
}

#[cfg(not(feature = "online"))]
fn online_target(_: &str, _: &JoinArgs) -> Target {
    usage_error("joining needs --code (this build has no online play: tickets are not read)")
}

/// Joins the game at `target`, asking for hints if `hints`, or watches it.
fn join_at(cli: &Cli, target: Target, (hints, watch): (bool, bool)) -> anyhow::Result<ExitCode> {
    let target_again = target.clone();
    if watch {
        return network(
            (cli, false),
            |brain, options| tui::watch(target, brain, options),
            |brain, input, out, options| plain::watch(target_again, brain, input, out, options),
        );
    }
    network(
        (cli, hints),
        |brain, options| tui::join(target, brain, options),
        |brain, input, out, options| plain::join(target_again, brain, input, out, options),
    )
}

/// A network game in the chosen front end: `screen` plays it full-screen, `lines` in lines.
/// `hints`: this side asks for hints (`--hints`; the settings' `hints` does not apply).
fn network(
    (cli, hints): (&Cli, bool),
    screen: impl FnOnce(Brain, tui::Options) -> anyhow::Result<tui::Summary>,
    lines: impl FnOnce(
        &mut Brain,
        io::BufReader<io::Stdin>,
        &mut dyn Write,
        plain::Options,
    ) -> anyhow::Result<Ending>,
) -> anyhow::Result<ExitCode> {
    if full_screen(cli) {
        let options = tui::Options {
            hints,
            ..screen_options(cli)
        };
        let summary = screen(brain(cli), options)?;
        return after_screen(cli, &summary);
    }
    let options = plain::Options {
        no_hints: !hints,
        ..plain_options(cli)
    };
    let ending = lines(
        &mut brain(cli),
        io::BufReader::new(io::stdin()),
        &mut Tee::new(),
        options,
    )?;
    Ok(exit_code(ending))
}
