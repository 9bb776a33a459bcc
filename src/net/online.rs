//! Online play through a peer-to-peer layer (iroh): QUIC connections between two endpoints
//! named by their keys, direct where a path is found (hole punching) and through a relay
//! otherwise, encrypted and authenticated end to end. A [`Ticket`] carries what the joiner
//! needs: the host's key, its relay, its direct addresses and the join code.
//!
//! The game's own connection code, with its deadlines, limits and fairness, works on a
//! [`Wire`]; each QUIC stream is one ([`Quic`]), read and written by blocking on the layer's
//! runtime, which never leaves this module. The host shares its handshake places by the
//! peer's endpoint key, as it does by address.

use std::collections::HashMap;
use std::fmt;
use std::io;
use std::net::{IpAddr, Shutdown, SocketAddr};
use std::str::FromStr;
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Condvar, Mutex, PoisonError, Weak};
use std::time::Duration;

use anyhow::Context;
use iroh::endpoint::{Connection, Incoming, RecvStream, SendStream, presets};
use iroh::{Endpoint, EndpointAddr, EndpointId, RelayMode, RelayUrl, TransportAddr};
use tokio::runtime::Runtime;
use tokio::sync::Semaphore;
use tokio::time::timeout;

use crate::net::failure::HELLO_WITHIN;
use crate::net::host::Host;
use crate::net::join::Route;
use crate::net::peer::Peer;
use crate::net::protocol::MAX_CODE;
use crate::net::stream::{Stream, Wire};
use crate::rules::position::Variant;

/// The protocol name both endpoints agree on in the QUIC handshake.
const ALPN: &[u8] = b"tictactoe/1";
/// How long the host waits to reach its relay before saying it could not.
const RELAY_WITHIN: Duration = Duration::from_secs(5);
/// How long a joiner tries to reach the host, by any path, each time it connects.
const DIAL_WITHIN: Duration = Duration::from_secs(15);
/// How long a program that is ending waits for what it sent last to be acknowledged.
const DRAIN_WITHIN: Duration = Duration::from_secs(1);
/// Connections the host takes in at once, until each has opened its stream.
const BRIDGES: usize = 64;
/// Direct addresses a ticket carries, at most.
const TICKET_ADDRS: usize = 4;
/// The longest ticket read, in characters.
const MAX_TICKET: usize = 600;
/// The environment variable that keeps both sides to the relay (no direct path), for tests
/// of relayed play.
pub const RELAY_ONLY: &str = "TICTACTOE_RELAY_ONLY";

/// What `tictactoe join <ticket>` needs: the host's endpoint key, its relay, its direct
/// addresses and the join code. Written as lowercase base32 with a checksum, so a ticket
/// mistyped is told apart from a host that does not answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ticket {
    id: [u8; 32],
    code: String,
    relay: Option<String>,
    addrs: Vec<SocketAddr>,
}

/// Why a text is not a ticket.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TicketError {
    TooLong(usize),
    /// A character that base32 does not use, at this place (from 1).
    Character(usize, char),
    /// The checksum does not match: a character is wrong, missing or extra.
    Checksum,
    /// Well formed but not a ticket of this version or shape.
    Malformed,
}

impl fmt::Display for TicketError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TicketError::TooLong(n) => write!(
                f,
                "a ticket is at most {MAX_TICKET} characters, and this one has {n}"
            ),
            TicketError::Character(at, c) => write!(
                f,
                "{c:?} at character {at} is not part of a ticket (letters a-z and digits 2-7)"
            ),
            TicketError::Checksum => write!(
                f,
                "the ticket is mistyped: a character is wrong, missing or extra; copy the whole line the host printed"
            ),
            TicketError::Malformed => write!(
                f,
                "this is not a ticket of this version; copy the whole line the host printed"
            ),
        }
    }
}

impl std::error::Error for TicketError {}

/// The ticket's format version, its first byte.
const TICKET_VERSION: u8 = 1;

impl Ticket {
    /// The host's short id, as people see it: the first ten characters of its key.
    fn short_id(&self) -> String {
        short(&self.id)
    }
}

/// A key's first ten base32 characters.
fn short(id: &[u8; 32]) -> String {
    let mut text = base32(id);
    text.truncate(10);
    text
}

fn base32(bytes: &[u8]) -> String {
    data_encoding::BASE32_NOPAD
        .encode(bytes)
        .to_ascii_lowercase()
}

/// FNV-1a, cut to three bytes: enough to tell a typo from a ticket.
fn checksum(bytes: &[u8]) -> [u8; 3] {
    let mut hash: u32 = 0x811c_9dc5;
    for &b in bytes {
        hash = (hash ^ u32::from(b)).wrapping_mul(0x0100_0193);
    }
    let [a, b, c, _] = hash.to_be_bytes();
    [a, b, c]
}

impl fmt::Display for Ticket {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut bytes = vec![TICKET_VERSION];
        bytes.extend_from_slice(&self.id);
        for text in [self.code.as_str(), self.relay.as_deref().unwrap_or("")] {
            bytes.push(text.len() as u8);
            bytes.extend_from_slice(text.as_bytes());
        }
        bytes.push(self.addrs.len() as u8);
        for addr in &self.addrs {
            match addr.ip() {
                IpAddr::V4(ip) => {
                    bytes.push(4);
                    bytes.extend_from_slice(&ip.octets());
                }
                IpAddr::V6(ip) => {
                    bytes.push(6);
                    bytes.extend_from_slice(&ip.octets());
                }
            }
            bytes.extend_from_slice(&addr.port().to_be_bytes());
        }
        let check = checksum(&bytes);
        bytes.extend_from_slice(&check);
        f.write_str(&base32(&bytes))
    }
}

/// Reads a ticket's bytes in order; `None` when they run out.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let (head, rest) = self.0.split_at_checked(n)?;
        self.0 = rest;
        Some(head)
    }

    fn byte(&mut self) -> Option<u8> {
        self.take(1).map(|b| b[0])
    }

    fn text(&mut self) -> Option<String> {
        let n = self.byte()?;
        String::from_utf8(self.take(usize::from(n))?.to_vec()).ok()
    }

    fn addr(&mut self) -> Option<SocketAddr> {
        let ip = match self.byte()? {
            4 => IpAddr::from(<[u8; 4]>::try_from(self.take(4)?).ok()?),
            6 => IpAddr::from(<[u8; 16]>::try_from(self.take(16)?).ok()?),
            _ => return None,
        };
        let port = u16::from_be_bytes(self.take(2)?.try_into().ok()?);
        Some(SocketAddr::new(ip, port))
    }
}

impl FromStr for Ticket {
    type Err = TicketError;

    fn from_str(text: &str) -> Result<Ticket, TicketError> {
        let text = text.trim();
        let count = text.chars().count();
        if count > MAX_TICKET {
            return Err(TicketError::TooLong(count));
        }
        if let Some((at, c)) = text
            .chars()
            .enumerate()
            .find(|(_, c)| !matches!(c.to_ascii_lowercase(), 'a'..='z' | '2'..='7'))
        {
            return Err(TicketError::Character(at + 1, c));
        }
        let bytes = data_encoding::BASE32_NOPAD
            .decode(text.to_ascii_uppercase().as_bytes())
            .map_err(|_| TicketError::Checksum)?;
        let (body, check) = bytes
            .split_at_checked(bytes.len().saturating_sub(3))
            .ok_or(TicketError::Checksum)?;
        if body.is_empty() || checksum(body) != check {
            return Err(TicketError::Checksum);
        }
        decode(body).ok_or(TicketError::Malformed)
    }
}

/// A ticket's bytes, checksum removed.
fn decode(body: &[u8]) -> Option<Ticket> {
    let mut reader = Reader(body);
    if reader.byte()? != TICKET_VERSION {
        return None;
    }
    let id = reader.take(32)?.try_into().ok()?;
    let code = reader.text()?;
    let relay = Some(reader.text()?).filter(|r| !r.is_empty());
    let addrs = (0..reader.byte()?)
        .map(|_| reader.addr())
        .collect::<Option<Vec<_>>>()?;
    let valid = reader.0.is_empty()
        && !code.is_empty()
        && code.chars().count() <= MAX_CODE
        && relay.as_ref().is_none_or(|r| r.parse::<RelayUrl>().is_ok());
    valid.then_some(Ticket {
        id,
        code,
        relay,
        addrs,
    })
}

/// The layer's runtime, shut down without waiting for its tasks when the last user goes.
struct Rt(Option<Runtime>);

impl Rt {
    fn new() -> io::Result<Arc<Rt>> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("net-online")
            .enable_all()
            .build()?;
        Ok(Arc::new(Rt(Some(runtime))))
    }

    fn get(&self) -> &Runtime {
        self.0.as_ref().expect("present until dropped")
    }
}

impl Drop for Rt {
    fn drop(&mut self) {
        if let Some(runtime) = self.0.take() {
            runtime.shutdown_background();
        }
    }
}

/// Counts the streams still sending, so an ending program can let them finish.
#[derive(Default)]
struct Streams {
    sending: Mutex<usize>,
    done: Condvar,
    /// The host's open connections by the peer's key, so that how the player is connected
    /// can be told at any time ([`Keep::path_to`]).
    open: Mutex<HashMap<[u8; 32], Connection>>,
}

impl Streams {
    fn start(&self) {
        *self.sending.lock().unwrap_or_else(PoisonError::into_inner) += 1;
    }

    fn stop(&self) {
        *self.sending.lock().unwrap_or_else(PoisonError::into_inner) -= 1;
        self.done.notify_all();
    }

    fn opened(&self, connection: &Connection) {
        let key = *connection.remote_id().as_bytes();
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        open.insert(key, connection.clone());
    }

    fn closed(&self, connection: &Connection) {
        let key = *connection.remote_id().as_bytes();
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        if open
            .get(&key)
            .is_some_and(|c| c.stable_id() == connection.stable_id())
        {
            open.remove(&key);
        }
    }

    /// Waits, at most `within`, for every stream to have sent everything.
    fn wait(&self, within: Duration) {
        let sending = self.sending.lock().unwrap_or_else(PoisonError::into_inner);
        let _ = self.done.wait_timeout_while(sending, within, |n| *n > 0);
    }
}

/// A QUIC stream as the game's connection code uses a socket: each call blocks on the layer's
/// runtime, at most as long as its timeout. Closing its writing half (or dropping it) lets
/// what was sent be acknowledged, at most [`DRAIN_WITHIN`], then closes the connection.
struct Quic {
    runtime: Arc<Rt>,
    connection: Connection,
    /// `None` once the writing half is closed.
    send: Mutex<Option<SendStream>>,
    recv: tokio::sync::Mutex<RecvStream>,
    /// A byte [`Stream::has_input`] took to see that one had come, read first.
    early: Mutex<Option<u8>>,
    read_within: Mutex<Option<Duration>>,
    write_within: Mutex<Option<Duration>>,
    streams: Arc<Streams>,
}

fn locked<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A wait that ran out, as a socket's timeout says it.
fn ran_out() -> io::Error {
    io::ErrorKind::WouldBlock.into()
}

impl Quic {
    fn wire(
        runtime: &Arc<Rt>,
        connection: Connection,
        (send, recv): (SendStream, RecvStream),
        streams: &Arc<Streams>,
    ) -> Wire {
        streams.start();
        Wire::new(Quic {
            runtime: Arc::clone(runtime),
            connection,
            send: Mutex::new(Some(send)),
            recv: tokio::sync::Mutex::new(recv),
            early: Mutex::new(None),
            read_within: Mutex::new(None),
            write_within: Mutex::new(None),
            streams: Arc::clone(streams),
        })
    }

    /// Finishes the writing half, once: what was sent is acknowledged (or a second passes)
    /// before the connection closes, in the runtime.
    fn finish(&self) {
        let Some(mut send) = locked(&self.send).take() else {
            return;
        };
        let (connection, streams) = (self.connection.clone(), Arc::clone(&self.streams));
        self.runtime.get().spawn(async move {
            let _ = send.finish();
            let _ = timeout(DRAIN_WITHIN, send.stopped()).await;
            streams.stop();
            streams.closed(&connection);
            connection.close(0u32.into(), b"bye");
        });
    }
}

impl Stream for Quic {
    fn read(&self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        if let Some(byte) = locked(&self.early).take() {
            buf[0] = byte;
            return Ok(1);
        }
        let within = *locked(&self.read_within);
        self.runtime.get().block_on(async {
            let mut recv = self.recv.lock().await;
            let read = recv.read(buf);
            let got = match within {
                Some(within) => timeout(within, read).await.map_err(|_| ran_out())?,
                None => read.await,
            };
            Ok(got.map_err(io::Error::other)?.unwrap_or(0))
        })
    }

    fn write_all(&self, bytes: &[u8]) -> io::Result<()> {
        let within = *locked(&self.write_within);
        let mut guard = locked(&self.send);
        let send = guard.as_mut().ok_or(io::ErrorKind::BrokenPipe)?;
        self.runtime.get().block_on(async {
            let write = send.write_all(bytes);
            match within {
                Some(within) => timeout(within, write).await.map_err(|_| ran_out())?,
                None => write.await,
            }
            .map_err(io::Error::other)
        })
    }

    fn set_read_timeout(&self, within: Option<Duration>) -> io::Result<()> {
        *locked(&self.read_within) = within;
        Ok(())
    }

    fn set_write_timeout(&self, within: Option<Duration>) -> io::Result<()> {
        *locked(&self.write_within) = within;
        Ok(())
    }

    fn shutdown(&self, how: Shutdown) -> io::Result<()> {
        self.finish();
        if how != Shutdown::Write
            && let Ok(mut recv) = self.recv.try_lock()
        {
            let _ = recv.stop(0u32.into());
        }
        Ok(())
    }

    /// Takes one byte if it has come, to read it first.
    fn has_input(&self) -> bool {
        let mut early = locked(&self.early);
        if early.is_some() {
            return true;
        }
        let Ok(mut recv) = self.recv.try_lock() else {
            return false;
        };
        let mut byte = [0u8; 1];
        let got = self
            .runtime
            .get()
            .block_on(async { timeout(Duration::ZERO, recv.read(&mut byte)).await });
        if let Ok(Ok(Some(1))) = got {
            *early = Some(byte[0]);
        }
        early.is_some()
    }

    fn closed_already(&self) -> bool {
        self.connection.close_reason().is_some()
    }
}

impl Drop for Quic {
    fn drop(&mut self) {
        self.finish();
    }
}

/// One side's endpoint and runtime. Dropped, it lets what was sent last arrive (at most
/// [`DRAIN_WITHIN`]) and closes the endpoint.
struct Side {
    runtime: Arc<Rt>,
    endpoint: Endpoint,
    streams: Arc<Streams>,
}

impl Drop for Side {
    fn drop(&mut self) {
        self.streams.wait(DRAIN_WITHIN);
        let endpoint = self.endpoint.clone();
        let _ = self
            .runtime
            .get()
            .block_on(async { timeout(Duration::from_millis(200), endpoint.close()).await });
    }
}

/// What keeps an online game's transport alive: the game's network holds it until the end.
#[derive(Clone)]
pub struct Keep(Arc<Side>);

impl Keep {
    /// How the host is connected now to the peer with this key, if it is: `direct, round
    /// trip 0.4 ms` or `relayed, round trip 31 ms`.
    pub fn path_to(&self, key: &[u8; 32]) -> Option<String> {
        let open = self
            .0
            .streams
            .open
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        path_of(open.get(key)?)
    }
}

/// Binds an endpoint that talks to `relay` (the public relays when `None`).
fn bind(runtime: &Rt, relay: Option<&RelayUrl>) -> anyhow::Result<Endpoint> {
    let mode = relay.map_or(RelayMode::Default, |url| RelayMode::custom([url.clone()]));
    let mut builder = Endpoint::builder(presets::Minimal)
        .alpns(vec![ALPN.to_vec()])
        .relay_mode(mode);
    if std::env::var_os(RELAY_ONLY).is_some() {
        builder = builder.clear_ip_transports();
    }
    runtime
        .get()
        .block_on(builder.bind())
        .context("starting the peer-to-peer endpoint")
}

/// `--relay URL`, checked.
pub fn relay_url(text: &str) -> anyhow::Result<RelayUrl> {
    text.parse().with_context(|| {
        format!("--relay {text:?} is not a relay URL (like https://relay.example.org)")
    })
}

/// A host online: the [`Host`] to start, the ticket to give a friend, and a note when the
/// relay could not be reached.
pub struct Hosting {
    pub host: Host,
    pub ticket: Ticket,
    pub note: Option<String>,
    pub keep: Keep,
}

/// Starts an online host of `rules` through `relay` (the public relays when `None`): waits at
/// most [`RELAY_WITHIN`] to reach it, then serves connections whatever happened.
pub fn host(relay: Option<RelayUrl>, rules: Variant) -> anyhow::Result<Hosting> {
    let runtime = Rt::new().context("starting the network runtime")?;
    let endpoint = bind(&runtime, relay.as_ref())?;
    let reached = runtime
        .get()
        .block_on(async { timeout(RELAY_WITHIN, endpoint.online()).await })
        .is_ok();
    let addr = endpoint.addr();
    let home = addr.relay_urls().next().cloned().or(relay.clone());
    let (feed, handed) = mpsc::channel();
    let host = Host::fed(handed, rules);
    let ticket = Ticket {
        id: *endpoint.id().as_bytes(),
        code: host.code().to_string(),
        relay: home.as_ref().map(ToString::to_string),
        addrs: direct_addrs(&addr),
    };
    let note = (!reached).then(|| {
        let which = relay.map_or_else(|| "the public relays".into(), |url| url.to_string());
        format!(
            "Could not reach a relay ({which}) within {} s: a friend on this network can still join with this ticket",
            RELAY_WITHIN.as_secs()
        )
    });
    let streams = Arc::new(Streams::default());
    let weak = Arc::downgrade(&runtime);
    runtime
        .get()
        .spawn(serve(endpoint.clone(), feed, weak, Arc::clone(&streams)));
    let side = Side {
        runtime,
        endpoint,
        streams,
    };
    Ok(Hosting {
        host,
        ticket,
        note,
        keep: Keep(Arc::new(side)),
    })
}

/// The direct addresses worth putting in a ticket: IPv4 first, at most [`TICKET_ADDRS`].
fn direct_addrs(addr: &EndpointAddr) -> Vec<SocketAddr> {
    let mut addrs: Vec<SocketAddr> = addr.ip_addrs().copied().collect();
    addrs.sort_by_key(|a| (a.is_ipv6(), a.ip().is_loopback()));
    addrs.truncate(TICKET_ADDRS);
    addrs
}

/// The host's accepting task: each connection that opens a stream within [`HELLO_WITHIN`]
/// is handed to the host as a [`Wire`]; past [`BRIDGES`] at once, newcomers are refused.
/// It holds the runtime weakly: the runtime it runs on ends when the host's side does.
async fn serve(
    endpoint: Endpoint,
    feed: Sender<(Wire, Peer)>,
    runtime: Weak<Rt>,
    streams: Arc<Streams>,
) {
    let places = Arc::new(Semaphore::new(BRIDGES));
    while let Some(incoming) = endpoint.accept().await {
        let Ok(place) = Arc::clone(&places).try_acquire_owned() else {
            incoming.refuse();
            continue;
        };
        let (feed, runtime, streams) = (feed.clone(), runtime.clone(), Arc::clone(&streams));
        tokio::spawn(async move {
            let _ = timeout(HELLO_WITHIN, admit(incoming, feed, runtime, streams)).await;
            drop(place);
        });
    }
}

/// One incoming connection: its handshake and its first stream, handed to the host.
async fn admit(
    incoming: Incoming,
    feed: Sender<(Wire, Peer)>,
    runtime: Weak<Rt>,
    streams: Arc<Streams>,
) -> io::Result<()> {
    let connection = incoming
        .accept()
        .map_err(io::Error::other)?
        .await
        .map_err(io::Error::other)?;
    let pair = connection.accept_bi().await.map_err(io::Error::other)?;
    let runtime = runtime
        .upgrade()
        .ok_or_else(|| io::Error::other("the host is ending"))?;
    let id = connection.remote_id();
    let label = short(id.as_bytes());
    let name = match path_of(&connection) {
        Some(path) => format!("{label} ({path})"),
        None => label.clone(),
    };
    let peer = Peer::online(*id.as_bytes(), label, name);
    streams.opened(&connection);
    let wire = Quic::wire(&runtime, connection, pair, &streams);
    feed.send((wire, peer)).map_err(io::Error::other)
}

/// How a connection goes now: `direct, round trip 0.4 ms` or `relayed, round trip 31 ms`.
fn path_of(connection: &Connection) -> Option<String> {
    let paths = connection.paths();
    let path = paths.iter().find(iroh::endpoint::Path::is_selected)?;
    let how = if path.is_relay() { "relayed" } else { "direct" };
    let rtt = path.rtt().as_secs_f64() * 1000.0;
    Some(format!("{how}, round trip {rtt:.1} ms"))
}

/// A joiner's way to an online host: each [`Route::open`] is a new connection through the
/// layer, by whatever path it finds within [`DIAL_WITHIN`].
pub struct Dialer {
    side: Arc<Side>,
    addr: EndpointAddr,
    label: String,
    last: Mutex<Option<Connection>>,
}

impl Dialer {
    /// A joiner's endpoint for `ticket`, through `relay` or else the ticket's relay.
    pub fn new(ticket: &Ticket, relay: Option<RelayUrl>) -> anyhow::Result<(Dialer, Keep)> {
        let ticket_relay = ticket.relay.as_deref().and_then(|r| r.parse().ok());
        let relay = relay.or(ticket_relay);
        let runtime = Rt::new().context("starting the network runtime")?;
        let endpoint = bind(&runtime, relay.as_ref())?;
        let id =
            EndpointId::from_bytes(&ticket.id).context("the ticket's host key is not valid")?;
        let mut addrs: Vec<TransportAddr> = ticket
            .addrs
            .iter()
            .copied()
            .map(TransportAddr::Ip)
            .collect();
        if std::env::var_os(RELAY_ONLY).is_some() {
            addrs.clear();
        }
        addrs.extend(relay.map(TransportAddr::Relay));
        let side = Arc::new(Side {
            runtime,
            endpoint,
            streams: Arc::default(),
        });
        let dialer = Dialer {
            side: Arc::clone(&side),
            addr: EndpointAddr::from_parts(id, addrs),
            label: ticket.short_id(),
            last: Mutex::new(None),
        };
        Ok((dialer, Keep(side)))
    }

    async fn connect(&self) -> io::Result<Wire> {
        let endpoint = &self.side.endpoint;
        let connection = endpoint
            .connect(self.addr.clone(), ALPN)
            .await
            .map_err(|e| io::Error::new(io::ErrorKind::ConnectionRefused, e.to_string()))?;
        let pair = connection.open_bi().await.map_err(io::Error::other)?;
        let side = &self.side;
        let wire = Quic::wire(&side.runtime, connection.clone(), pair, &side.streams);
        let old = self
            .last
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .replace(connection);
        if let Some(old) = old {
            old.close(0u32.into(), b"replaced");
        }
        Ok(wire)
    }
}

impl Route for Dialer {
    fn open(&self) -> io::Result<Wire> {
        let runtime = self.side.runtime.get();
        runtime
            .block_on(async { timeout(DIAL_WITHIN, self.connect()).await })
            .map_err(|_| {
                io::Error::new(
                    io::ErrorKind::TimedOut,
                    format!(
                        "no path to the host within {} s (directly or through a relay)",
                        DIAL_WITHIN.as_secs()
                    ),
                )
            })?
    }

    fn name(&self) -> String {
        self.label.clone()
    }

    fn label(&self) -> String {
        self.label.clone()
    }

    fn path(&self) -> Option<String> {
        let last = self.last.lock().unwrap_or_else(PoisonError::into_inner);
        path_of(last.as_ref()?)
    }
}

impl Ticket {
    /// The join code inside.
    pub fn code(&self) -> &str {
        &self.code
    }

    /// The same host with another join code (a friend told a code of another game).
    pub fn with_code(self, code: &str) -> Ticket {
        Ticket {
            code: code.to_string(),
            ..self
        }
    }

    /// The ticket as a host announces it on its network: its code replaced by `-`, so that
    /// a joiner still needs the code the host printed ([`Ticket::with_code`]).
    pub fn announced(&self) -> String {
        self.clone().with_code("-").to_string()
    }

    /// The host's short id, as people see it.
    pub fn short_name(&self) -> String {
        self.short_id()
    }

    /// The port of its first direct address, if it has one.
    pub fn port(&self) -> Option<u16> {
        self.addrs.first().map(SocketAddr::port)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ticket() -> Ticket {
        Ticket {
            id: [7; 32],
            code: "k7m2-qx4p".into(),
            relay: Some("https://relay.example.org./".into()),
            addrs: vec![
                "192.168.1.20:51820".parse().unwrap(),
                "[fe80::1]:51820".parse().unwrap(),
            ],
        }
    }

    #[test]
    fn an_announced_ticket_leaves_the_code_out_and_takes_the_one_typed() {
        let announced: Ticket = ticket().announced().parse().unwrap();
        assert_eq!(announced.code(), "-");
        assert_eq!(announced.with_code("k7m2-qx4p"), ticket());
        let found = crate::net::discover::read(
            9,
            &[],
            &[
                ("v", "1"),
                ("name", "pc"),
                ("ticket", &ticket().announced()),
            ],
        )
        .unwrap();
        assert_eq!(
            found.to_string(),
            format!("pc online, {} (?)", ticket().short_id())
        );
    }

    #[test]
    fn a_ticket_reads_back_as_written_in_any_case() {
        let text = ticket().to_string();
        assert!(text.chars().all(|c| c.is_ascii_alphanumeric()), "{text}");
        assert_eq!(text.parse(), Ok(ticket()));
        assert_eq!(text.to_ascii_uppercase().parse(), Ok(ticket()));
        let bare = Ticket {
            relay: None,
            addrs: Vec::new(),
            ..ticket()
        };
        assert_eq!(bare.to_string().parse(), Ok(bare));
    }

    #[test]
    fn a_mistyped_ticket_is_told_apart() {
        let text = ticket().to_string();
        let mut changed: Vec<char> = text.chars().collect();
        changed[20] = if changed[20] == 'a' { 'b' } else { 'a' };
        let changed: String = changed.into_iter().collect();
        assert_eq!(changed.parse::<Ticket>(), Err(TicketError::Checksum));
        let short = &text[..text.len() - 1];
        assert_eq!(short.parse::<Ticket>(), Err(TicketError::Checksum));
        assert_eq!(
            "127.0.0.1:7373".parse::<Ticket>(),
            Err(TicketError::Character(1, '1'))
        );
        assert_eq!("".parse::<Ticket>(), Err(TicketError::Checksum));
        let long = "a".repeat(970);
        assert_eq!(long.parse::<Ticket>(), Err(TicketError::TooLong(970)));
    }
}
