//! Finding a host on the same network: a host advertises its game by mDNS (DNS-SD, service
//! `_tictactoe._tcp`) while it waits for a player, and `join` with no address browses for a
//! bounded time. An announcement names the game's rules and the machine; a TCP host's port
//! and addresses come with the service itself, an online host's ticket (without its join
//! code) in a TXT entry. The join code is never announced: a joiner still needs it.

use std::collections::BTreeMap;
use std::fmt;
use std::net::{IpAddr, SocketAddr};
use std::time::{Duration, Instant};

use mdns_sd::{ResolvedService, ServiceDaemon, ServiceEvent, ServiceInfo};

use crate::net::protocol::{self, cut};
use crate::rules::position::Variant;

/// The DNS-SD service type every host advertises.
pub const SERVICE: &str = "_tictactoe._tcp.local.";

/// How long `join` with no address looks for hosts at most.
pub const BROWSE_FOR: Duration = Duration::from_secs(3);

/// Once a host is found, how long to go on looking for others before choosing: past the
/// second query (sent 1 s after the first), which finds a host whose first answer was lost.
const SETTLE: Duration = Duration::from_millis(1500);

/// The version of the announcement's TXT entries.
const VERSION: &str = "1";

/// At most this many characters of a name or rules text from the network are shown.
const MAX_TEXT: usize = 40;

/// At most this many hosts are kept from one browse: enough that a network full of
/// announcements, real or not, still lists the game a friend hosts (with a code, each is
/// tried, several at once), and a bound on what strangers can make the joiner hold.
const MAX_FOUND: usize = 256;

/// How to reach a host that was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Way {
    /// A TCP host at this address.
    Tcp(SocketAddr),
    /// An online host, by its ticket as announced (its join code left empty).
    #[cfg(feature = "online")]
    Online(crate::net::online::Ticket),
}

/// A host found on the network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The machine's name as it announced it, made safe to print.
    pub name: String,
    /// The game's rules as the host wrote them (`3×3`), made safe to print.
    pub rules: String,
    pub way: Way,
}

impl fmt::Display for Found {
    /// `kitchen-pc at 192.168.1.20:7373 (3×3)`, or `kitchen-pc online, y5g5rjzqzu (3×3)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.way {
            Way::Tcp(addr) => write!(f, "{} at {addr} ({})", self.name, self.rules),
            #[cfg(feature = "online")]
            Way::Online(ticket) => write!(
                f,
                "{} online, {} ({})",
                self.name,
                ticket.short_name(),
                self.rules
            ),
        }
    }
}

/// Why an announcement was not taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unreadable {
    /// Another version of the announcement.
    Version(String),
    /// A TCP host with no address this side can use.
    NoAddress,
    /// An online host whose ticket does not read (or this build has no online play).
    Ticket,
}

/// Reads an announcement: the service's port and addresses, and its TXT entries. Texts
/// from the network are cut and their control characters dropped before anyone sees them.
pub fn read(port: u16, addrs: &[IpAddr], txt: &[(&str, &str)]) -> Result<Found, Unreadable> {
    let entry = |key: &str| {
        txt.iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|&(_, v)| v)
    };
    let version = entry("v").unwrap_or("");
    if version != VERSION {
        return Err(Unreadable::Version(printable(version)));
    }
    let name = printable(entry("name").unwrap_or("a host"));
    let rules = printable(entry("rules").unwrap_or("?"));
    let way = match entry("ticket") {
        Some(ticket) => online_way(ticket)?,
        None => Way::Tcp(SocketAddr::new(best_address(addrs)?, port)),
    };
    Ok(Found { name, rules, way })
}

#[cfg(feature = "online")]
fn online_way(ticket: &str) -> Result<Way, Unreadable> {
    ticket
        .parse()
        .map(Way::Online)
        .map_err(|_| Unreadable::Ticket)
}

#[cfg(not(feature = "online"))]
fn online_way(_: &str) -> Result<Way, Unreadable> {
    Err(Unreadable::Ticket)
}

/// The address to dial among those announced: IPv4 before IPv6, the network before
/// loopback; IPv6 link-local addresses need a scope and are left out.
fn best_address(addrs: &[IpAddr]) -> Result<IpAddr, Unreadable> {
    addrs
        .iter()
        .filter(|ip| match ip {
            IpAddr::V4(_) => true,
            IpAddr::V6(v6) => !v6.is_unicast_link_local(),
        })
        .min_by_key(|ip| (ip.is_ipv6(), ip.is_loopback(), **ip))
        .copied()
        .ok_or(Unreadable::NoAddress)
}

/// `text` cut to [`MAX_TEXT`] characters, its control and invisible format characters
/// (bidirectional overrides and isolates, direction marks) replaced as everywhere outside
/// text enters ([`protocol::printable`]).
fn printable(text: &str) -> String {
    cut(protocol::printable(text.trim()).trim(), MAX_TEXT)
}

/// What a browse came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Nothing found within the time.
    None,
    /// One host: join it.
    One(Found),
    /// Several: the player chooses.
    Several(Vec<Found>),
}

impl Choice {
    pub fn of(mut found: Vec<Found>) -> Choice {
        match found.len() {
            0 => Choice::None,
            1 => Choice::One(found.remove(0)),
            _ => Choice::Several(found),
        }
    }
}

/// `No game found on this network in 3 s. Ask your friend for the address: tictactoe join
/// ADDRESS`.
pub fn none_found(within: Duration) -> String {
    format!(
        "No game found on this network in {} s. Ask your friend for the address: tictactoe join ADDRESS",
        within.as_secs()
    )
}

/// Looks for hosts for at most `within`, or [`SETTLE`] past the last new one; `stop` is asked
/// every 50 ms and ends the search early with `None`.
pub fn browse(within: Duration, stop: &dyn Fn() -> bool) -> anyhow::Result<Option<Vec<Found>>> {
    let daemon = ServiceDaemon::new()
        .map_err(|e| anyhow::anyhow!("starting to look for games on this network: {e}"))?;
    let events = daemon
        .browse(SERVICE)
        .map_err(|e| anyhow::anyhow!("looking for games on this network: {e}"))?;
    let deadline = Instant::now() + within;
    let mut end = deadline;
    // Keyed by the instance's name and where it leads: a second announcer under a name
    // already seen is listed beside the first, never in its place.
    let mut found = Hosts::new();
    let outcome = loop {
        if stop() {
            break None;
        }
        let now = Instant::now();
        if now >= end {
            break Some(found.into_values().collect());
        }
        match events.recv_timeout((end - now).min(Duration::from_millis(50))) {
            Ok(ServiceEvent::ServiceResolved(service)) if found.len() < MAX_FOUND => {
                if let Ok(host) = read_resolved(&service) {
                    keep(&mut found, &service.fullname, &addresses(&service), host);
                    end = deadline.min(Instant::now() + SETTLE);
                }
            }
            Ok(ServiceEvent::ServiceRemoved(_, fullname)) => {
                found.retain(|(name, _), _| *name != fullname);
            }
            Ok(_) | Err(mdns_sd::RecvTimeoutError::Timeout) => {}
            Err(mdns_sd::RecvTimeoutError::Disconnected) => {
                break Some(found.into_values().collect());
            }
        }
    };
    let _ = daemon.shutdown();
    Ok(outcome)
}

/// The hosts found, by the instance's name and where it leads.
type Hosts = BTreeMap<(String, String), Found>;

/// Keeps `host`, announced as `fullname` with `addrs`. An instance heard again with more
/// addresses (its IPv6 after its IPv4, or the other way round) takes its earlier entry's
/// place where that entry dials one of them, so one host is listed once; an announcer under
/// a name already seen whose addresses are others is listed beside the first, never in its
/// place.
fn keep(found: &mut Hosts, fullname: &str, addrs: &[IpAddr], host: Found) {
    let heard_again = |old: &Found| match (&old.way, &host.way) {
        (Way::Tcp(was), Way::Tcp(now)) => was.port() == now.port() && addrs.contains(&was.ip()),
        #[cfg(feature = "online")]
        _ => false,
    };
    found.retain(|(name, _), old| name != fullname || !heard_again(old));
    found.insert((fullname.to_string(), host.to_string()), host);
}

/// The addresses mDNS resolved for `service`.
fn addresses(service: &ResolvedService) -> Vec<IpAddr> {
    service
        .addresses
        .iter()
        .map(mdns_sd::ScopedIp::to_ip_addr)
        .collect()
}

/// Reads an announcement as mDNS resolved it.
fn read_resolved(service: &ResolvedService) -> Result<Found, Unreadable> {
    let addrs = addresses(service);
    let txt: Vec<(&str, &str)> = service
        .txt_properties
        .iter()
        .map(|p| (p.key(), p.val_str()))
        .collect();
    read(service.port, &addrs, &txt)
}

/// A host's announcement, sent while it waits for a player; dropping it says goodbye.
pub struct Advert {
    daemon: ServiceDaemon,
    fullname: String,
}

/// What a host announces besides its rules.
pub enum Offer {
    /// A TCP host listening on this port (on every address this machine has, or `bound`).
    Tcp { port: u16, bound: Option<IpAddr> },
    /// An online host, by its ticket without the code.
    Online { ticket: String, port: u16 },
}

/// Starts announcing a game of `rules`. `None` where this network cannot carry it (no
/// multicast, say): the host goes on, joined by its address as before.
pub fn advertise(offer: &Offer, rules: Variant) -> Option<Advert> {
    let daemon = ServiceDaemon::new().ok()?;
    let name = machine_name();
    let instance = format!("{name} {}", crate::net::host::new_code());
    let host_name = format!("tictactoe-{}.local.", fastrand::u32(..));
    let rules = rules.to_string();
    let mut txt = vec![
        ("v", VERSION),
        ("name", name.as_str()),
        ("rules", rules.as_str()),
    ];
    let (port, addrs) = match offer {
        Offer::Tcp { port, bound } => (*port, bound.filter(|ip| !ip.is_unspecified())),
        Offer::Online { ticket, port } => {
            txt.push(("ticket", ticket.as_str()));
            (*port, None)
        }
    };
    let info = ServiceInfo::new(
        SERVICE,
        &instance,
        &host_name,
        addrs.as_slice(),
        port,
        &txt[..],
    );
    let info = if addrs.is_some() {
        info.ok()?
    } else {
        info.ok()?.enable_addr_auto()
    };
    let fullname = info.get_fullname().to_string();
    daemon.register(info).ok()?;
    Some(Advert { daemon, fullname })
}

impl Drop for Advert {
    fn drop(&mut self) {
        if let Ok(said) = self.daemon.unregister(&self.fullname) {
            let _ = said.recv_timeout(Duration::from_millis(200));
        }
        let _ = self.daemon.shutdown();
    }
}

/// This machine's name, as the system has it (`kitchen-pc`), or `a host`.
fn machine_name() -> String {
    let name = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| std::fs::read_to_string("/etc/hostname"))
        .ok()
        .or_else(|| std::env::var("COMPUTERNAME").ok())
        .unwrap_or_default();
    let name = printable(&name);
    if name.is_empty() {
        "a host".into()
    } else {
        name.replace('.', "-")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn a_host_heard_again_with_its_ipv4_beside_its_ipv6_is_listed_once_and_a_stranger_beside_it() {
        let txt = [("v", "1"), ("name", "kitchen-pc"), ("rules", "3×3")];
        let name = "kitchen-pc._tictactoe._tcp.local.";
        let mut found = Hosts::new();
        let six = [ip("fd00::5")];
        keep(&mut found, name, &six, read(7373, &six, &txt).unwrap());
        let both = [ip("fd00::5"), ip("192.168.1.20")];
        keep(&mut found, name, &both, read(7373, &both, &txt).unwrap());
        let listed: Vec<String> = found.values().map(ToString::to_string).collect();
        assert_eq!(listed, ["kitchen-pc at 192.168.1.20:7373 (3×3)"]);
        // Another announcer under the same name, elsewhere: beside it, not in its place.
        let other = [ip("192.168.1.66")];
        keep(&mut found, name, &other, read(7373, &other, &txt).unwrap());
        assert_eq!(found.len(), 2, "{found:?}");
    }

    #[test]
    fn a_tcp_announcement_reads_as_its_best_address_and_port() {
        let addrs = [
            ip("fe80::1"),
            ip("127.0.0.1"),
            ip("192.168.1.20"),
            ip("fd00::5"),
        ];
        let txt = [("v", "1"), ("name", "kitchen-pc"), ("rules", "3×3")];
        let found = read(7373, &addrs, &txt).unwrap();
        assert_eq!(found.way, Way::Tcp("192.168.1.20:7373".parse().unwrap()));
        assert_eq!(found.to_string(), "kitchen-pc at 192.168.1.20:7373 (3×3)");
        let only_loopback = read(7373, &[ip("::1"), ip("127.0.0.1")], &txt).unwrap();
        assert_eq!(
            only_loopback.way,
            Way::Tcp("127.0.0.1:7373".parse().unwrap())
        );
    }

    #[test]
    fn announcements_of_another_version_or_without_an_address_are_left_out() {
        let txt = [("v", "2"), ("rules", "3×3")];
        assert_eq!(
            read(7373, &[ip("10.0.0.2")], &txt),
            Err(Unreadable::Version("2".into()))
        );
        assert_eq!(
            read(7373, &[ip("10.0.0.2")], &[]),
            Err(Unreadable::Version(String::new()))
        );
        assert_eq!(
            read(7373, &[ip("fe80::1")], &[("v", "1")]),
            Err(Unreadable::NoAddress)
        );
        assert_eq!(
            read(
                7373,
                &[ip("10.0.0.2")],
                &[("v", "1"), ("ticket", "not a ticket")]
            ),
            Err(Unreadable::Ticket)
        );
    }

    #[test]
    fn texts_from_the_network_are_cut_and_lose_control_characters() {
        let long = format!("\x1b[2J{}", "x".repeat(500));
        let txt = [("V", "1"), ("name", long.as_str()), ("rules", "3×3\r\n")];
        let found = read(1, &[ip("10.0.0.2")], &txt).unwrap();
        assert!(!found.name.contains('\x1b'));
        assert_eq!(found.name.chars().count(), MAX_TEXT);
        assert_eq!(found.rules, "3×3");
        let disguised = [
            ("v", "1"),
            ("name", "kitchen\u{202E}cp-\u{2066}x\u{200F}"),
            ("rules", "3\u{202E}×3"),
        ];
        let found = read(1, &[ip("10.0.0.2")], &disguised).unwrap();
        for hidden in ['\u{202E}', '\u{2066}', '\u{200F}'] {
            assert!(!found.to_string().contains(hidden), "{found}");
        }
        let unnamed = read(1, &[ip("10.0.0.2")], &[("v", "1")]).unwrap();
        assert_eq!(unnamed.to_string(), "a host at 10.0.0.2:1 (?)");
    }

    #[test]
    fn one_host_is_joined_and_several_are_a_choice() {
        let host = |n: &str| read(7373, &[ip(n)], &[("v", "1")]).unwrap();
        assert_eq!(Choice::of(vec![]), Choice::None);
        assert_eq!(
            Choice::of(vec![host("10.0.0.2")]),
            Choice::One(host("10.0.0.2"))
        );
        assert_eq!(
            Choice::of(vec![host("10.0.0.2"), host("10.0.0.3")]),
            Choice::Several(vec![host("10.0.0.2"), host("10.0.0.3")])
        );
    }

    #[test]
    fn finding_nothing_says_how_long_it_looked_and_what_to_do() {
        assert_eq!(
            none_found(BROWSE_FOR),
            "No game found on this network in 3 s. Ask your friend for the address: tictactoe join ADDRESS"
        );
    }

    #[test]
    fn a_browse_stopped_at_once_finds_nothing_and_says_so() {
        // Needs no network: the daemon starts, and the browse ends before anything arrives.
        if let Ok(outcome) = browse(BROWSE_FOR, &|| true) {
            assert_eq!(outcome, None);
        }
    }
}
