//! `tictactoe join` with no address: looks for hosts on this network ([`discover`]), joins
//! the one found or asks which of several, and asks for the join code when none was given.
//! Written in lines, before either front end takes over.

use std::io::{self, BufRead, Write};

use crate::net::discover::{self, BROWSE_FOR, Choice, Found, Way};
use crate::net::setup::{JoinCode, Target};
use crate::ui::waiting;

/// Where looking for a game led.
#[derive(Debug)]
pub enum Outcome {
    /// A host to join.
    Join(Target),
    /// Nothing to join, and why: the caller prints it and exits with status 2.
    Failed(String),
    /// The player cancelled (`q`, or the end of input).
    Cancelled,
}

/// Looks for a game on this network and makes a [`Target`] of it with `code` (asked for on a
/// terminal when `None`) and `relay` (for an online host). On a terminal `q`, Esc or Ctrl-C
/// cancels the search, and several hosts are offered by number; without one, several hosts
/// are listed and the search fails.
pub fn target(
    code: Option<&str>,
    relay: Option<&str>,
    terminal: bool,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> anyhow::Result<Outcome> {
    // A code that cannot be one is refused before anything is looked for or joined.
    if let Some(Err(e)) = code.map(str::parse::<JoinCode>) {
        return Ok(Outcome::Failed(e.to_string()));
    }
    let cancel = if terminal { "q" } else { "Ctrl-C" };
    writeln!(
        out,
        "Looking for a game on this network ({} s; {cancel} cancels)…",
        BROWSE_FOR.as_secs()
    )?;
    out.flush()?;
    let found = waiting::cancellable(terminal, || discover::browse(BROWSE_FOR, &|| false))?;
    let Some(found) = found.transpose()?.flatten() else {
        return Ok(Outcome::Cancelled);
    };
    let host = match Choice::of(found) {
        Choice::None => return Ok(Outcome::Failed(discover::none_found(BROWSE_FOR))),
        Choice::One(host) => host,
        Choice::Several(hosts) if code.is_some() => {
            // The code picks the host: each is tried, and only one that proves it is joined.
            list(&hosts, out)?;
            writeln!(out, "Trying the code with each…")?;
            let code = code.unwrap_or_default().to_string();
            let targets = hosts
                .into_iter()
                .map(|host| target_of(host, code.clone(), relay))
                .collect();
            return Ok(Outcome::Join(Target::Any(targets)));
        }
        Choice::Several(hosts) => {
            list(&hosts, out)?;
            if !terminal {
                return Ok(Outcome::Failed(format!(
                    "{} games on this network: join one by its address (tictactoe join ADDRESS --code CODE)",
                    hosts.len()
                )));
            }
            match pick(hosts, input, out)? {
                Some(host) => host,
                None => return Ok(Outcome::Cancelled),
            }
        }
    };
    writeln!(out, "Found {host}.")?;
    let code = match code {
        Some(code) => code.to_string(),
        None if terminal => match ask(input, out, "Join code (as the host printed it): ")? {
            Some(code) => code,
            None => return Ok(Outcome::Cancelled),
        },
        None => {
            return Ok(Outcome::Failed(
                "the host asks for its join code: tictactoe join --code CODE".into(),
            ));
        }
    };
    Ok(Outcome::Join(target_of(host, code, relay)))
}

/// Asks for the join code on a terminal; `None` where the player cancels (`q`, or the end of
/// input).
pub fn ask_code(input: &mut dyn BufRead, out: &mut dyn Write) -> io::Result<Option<String>> {
    ask(input, out, "Join code (as the host printed it): ")
}

/// The target `host` is joined at with `code`.
#[cfg_attr(not(feature = "online"), allow(clippy::needless_pass_by_value))]
fn target_of(host: Found, code: String, relay: Option<&str>) -> Target {
    let _ = relay;
    match host.way {
        Way::Tcp(addr) => Target::Address {
            target: addr.to_string(),
            code,
        },
        #[cfg(feature = "online")]
        Way::Online(ticket) => Target::Ticket {
            ticket: ticket.with_code(&code),
            relay: relay.map(str::to_string),
        },
    }
}

/// `  1. kitchen-pc at 192.168.1.20:7373 (3×3)`, one a line.
fn list(hosts: &[Found], out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "Games on this network:")?;
    for (n, host) in hosts.iter().enumerate() {
        writeln!(out, "  {}. {host}", n + 1)?;
    }
    Ok(())
}

/// Asks for a number until one names a host; `None` on `q` or the end of input.
fn pick(
    mut hosts: Vec<Found>,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> io::Result<Option<Found>> {
    let question = format!("Which game? (1-{}, q cancels) ", hosts.len());
    loop {
        let Some(answer) = ask(input, out, &question)? else {
            return Ok(None);
        };
        match answer.parse::<usize>() {
            Ok(n) if (1..=hosts.len()).contains(&n) => return Ok(Some(hosts.swap_remove(n - 1))),
            _ => writeln!(out, "Type a number from 1 to {}.", hosts.len())?,
        }
    }
}

/// Prints `question` and reads a line of at most 200 bytes, trimmed; `None` on `q` or the
/// end of input.
fn ask(input: &mut dyn BufRead, out: &mut dyn Write, question: &str) -> io::Result<Option<String>> {
    write!(out, "{question}")?;
    out.flush()?;
    let mut line = Vec::new();
    io::Read::take(&mut *input, 200).read_until(b'\n', &mut line)?;
    let line = String::from_utf8_lossy(&line).trim().to_string();
    Ok((!line.is_empty() && !line.eq_ignore_ascii_case("q")).then_some(line))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn host(n: u8) -> Found {
        let addr = format!("10.0.0.{n}").parse().unwrap();
        discover::read(
            7373,
            &[addr],
            &[("v", "1"), ("name", "pc"), ("rules", "3×3")],
        )
        .unwrap()
    }

    #[test]
    fn several_hosts_are_offered_by_number_until_one_is_chosen() {
        let mut input: &[u8] = b"7\nx\n2\n";
        let mut out = Vec::new();
        let chosen = pick(vec![host(2), host(3)], &mut input, &mut out).unwrap();
        assert_eq!(chosen, Some(host(3)));
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.matches("Type a number from 1 to 2.").count(), 2);
        let mut cancel: &[u8] = b"q\n";
        assert_eq!(
            pick(vec![host(2), host(3)], &mut cancel, &mut Vec::new()).unwrap(),
            None
        );
    }

    #[test]
    #[allow(irrefutable_let_patterns)] // without online play, an address is the only target
    fn a_found_tcp_host_is_joined_at_its_address_with_the_code() {
        let Target::Address { target, code } = target_of(host(2), "k7m2-qx4p".into(), None) else {
            panic!("a TCP host is joined at its address");
        };
        assert_eq!(
            (target.as_str(), code.as_str()),
            ("10.0.0.2:7373", "k7m2-qx4p")
        );
    }
}
