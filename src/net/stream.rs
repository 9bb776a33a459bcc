//! A connection's bytes, whatever carries them: a TCP socket on the LAN, or a QUIC stream
//! online ([`crate::net::online`]). The game's connection code (the gate, the host's and the
//! joiner's handshakes, the link) reads, writes, waits and closes through a [`Wire`], with the
//! deadlines a socket has, and never asks which transport is under it.

use std::io;
use std::net::{Shutdown, TcpStream};
use std::sync::Arc;
use std::time::Duration;

/// What a transport does for a connection. Every call takes `&self`: the reading thread, the
/// writers and the host's gate hold the same stream at once, as they hold a socket's clones.
pub trait Stream: Send + Sync {
    /// Reads what has arrived, waiting at most the read timeout; `Ok(0)` once the other side
    /// has finished, and a `WouldBlock` or `TimedOut` error when the wait ran out.
    fn read(&self, buf: &mut [u8]) -> io::Result<usize>;
    /// Writes all of `bytes`, waiting at most the write timeout.
    fn write_all(&self, bytes: &[u8]) -> io::Result<()>;
    /// How long a read waits; `None`: for ever.
    fn set_read_timeout(&self, within: Option<Duration>) -> io::Result<()>;
    /// How long a write waits; `None`: for ever.
    fn set_write_timeout(&self, within: Option<Duration>) -> io::Result<()>;
    /// Closes the writing half (what was written still arrives), or both: a thread waiting
    /// to read then stops.
    fn shutdown(&self, how: Shutdown) -> io::Result<()>;
    /// Whether bytes wait to be read, looked at without waiting and without taking them.
    fn has_input(&self) -> bool;
    /// Whether the other side closed (or reset) the connection before anything arrived,
    /// found without waiting.
    fn closed_already(&self) -> bool;
}

/// One connection's stream, shared by the threads that use it (cloning shares it).
#[derive(Clone)]
pub struct Wire(Arc<dyn Stream>);

impl Wire {
    pub fn new(stream: impl Stream + 'static) -> Wire {
        Wire(Arc::new(stream))
    }

    pub fn write_all(&self, bytes: &[u8]) -> io::Result<()> {
        self.0.write_all(bytes)
    }

    pub fn set_read_timeout(&self, within: Option<Duration>) -> io::Result<()> {
        self.0.set_read_timeout(within)
    }

    pub fn set_write_timeout(&self, within: Option<Duration>) -> io::Result<()> {
        self.0.set_write_timeout(within)
    }

    pub fn shutdown(&self, how: Shutdown) -> io::Result<()> {
        self.0.shutdown(how)
    }

    pub fn has_input(&self) -> bool {
        self.0.has_input()
    }

    pub fn closed_already(&self) -> bool {
        self.0.closed_already()
    }
}

impl io::Read for Wire {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf)
    }
}

impl From<TcpStream> for Wire {
    fn from(stream: TcpStream) -> Wire {
        Wire::new(stream)
    }
}

impl Stream for TcpStream {
    fn read(&self, buf: &mut [u8]) -> io::Result<usize> {
        io::Read::read(&mut &*self, buf)
    }

    fn write_all(&self, bytes: &[u8]) -> io::Result<()> {
        io::Write::write_all(&mut &*self, bytes)
    }

    fn set_read_timeout(&self, within: Option<Duration>) -> io::Result<()> {
        TcpStream::set_read_timeout(self, within)
    }

    fn set_write_timeout(&self, within: Option<Duration>) -> io::Result<()> {
        TcpStream::set_write_timeout(self, within)
    }

    fn shutdown(&self, how: Shutdown) -> io::Result<()> {
        TcpStream::shutdown(self, how)
    }

    /// Peeks without changing the socket's mode: a handshake thread may be reading it.
    #[cfg(unix)]
    fn has_input(&self) -> bool {
        use rustix::net::{RecvFlags, recv};
        let mut byte = [0u8; 1];
        matches!(
            recv(self, &mut byte, RecvFlags::PEEK | RecvFlags::DONTWAIT),
            Ok((n, _)) if n > 0
        )
    }

    /// Elsewhere nothing is taken to be waiting.
    #[cfg(not(unix))]
    fn has_input(&self) -> bool {
        false
    }

    fn closed_already(&self) -> bool {
        if self.set_nonblocking(true).is_err() {
            return false;
        }
        let closed = match self.peek(&mut [0u8; 1]) {
            Ok(n) => n == 0,
            Err(e) => e.kind() != io::ErrorKind::WouldBlock,
        };
        closed || self.set_nonblocking(false).is_err()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;
    use std::net::TcpListener;

    fn pair() -> (Wire, Wire) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let client = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let (server, _) = listener.accept().unwrap();
        (Wire::from(client), Wire::from(server))
    }

    #[test]
    fn a_tcp_wire_sees_input_waiting_without_taking_it() {
        let (client, mut server) = pair();
        assert!(!server.has_input());
        client.write_all(b"hi").unwrap();
        let start = std::time::Instant::now();
        while !server.has_input() && start.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(5));
        }
        let mut buf = [0u8; 2];
        server.read_exact(&mut buf).unwrap();
        assert_eq!(&buf, b"hi");
    }

    #[test]
    fn a_tcp_wire_closed_by_the_other_side_says_so_and_reads_end() {
        let (client, mut server) = pair();
        assert!(!server.closed_already());
        drop(client);
        let start = std::time::Instant::now();
        while !server.closed_already() && start.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(server.closed_already());
        assert_eq!(server.read(&mut [0u8; 4]).unwrap(), 0);
    }
}
