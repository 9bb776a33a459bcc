//! What sealing costs a move: the median of 1,000 round trips of a `move` message between two
//! threads over loopback TCP, written and read as the game does, in the clear (protocol 1's
//! way) and sealed with the key exchange's keys (protocol 2's), side by side in one run; and
//! the time of one key exchange (both halves, as a join does).
//!
//! ```text
//! cargo run --release --example seal_cost
//! ```

use std::io::BufReader;
use std::net::{TcpListener, TcpStream};
use std::thread;
use std::time::{Duration, Instant};

use tictactoe::net::link::{open_message, write_message, write_sealed};
use tictactoe::net::protocol::{Message, read_line};
use tictactoe::net::seal::{Exchange, Keys, Role};
use tictactoe::net::stream::Wire;

const TRIPS: usize = 1000;

/// Both ends' keys, from one exchange.
fn keys() -> (Keys, Keys) {
    let (joiner, to_host) = Exchange::start(Role::Joiner, "k7m2-qx4p");
    let (host, to_joiner) = Exchange::start(Role::Host, "k7m2-qx4p");
    (
        joiner.finish(&to_joiner).unwrap(),
        host.finish(&to_host).unwrap(),
    )
}

/// The median round trip of a move, sealed or not.
fn round_trips(sealed: bool) -> Duration {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let (mut near, mut far) = keys();
    let echo = thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        stream.set_nodelay(true).unwrap();
        let mut reader = BufReader::new(stream.try_clone().unwrap());
        let stream = Wire::from(stream);
        let mut buf = Vec::new();
        while read_line(&mut reader, &mut buf).unwrap_or(false) {
            let message = if sealed {
                open_message(&mut far.open, &buf).unwrap()
            } else {
                Message::parse(&buf).unwrap()
            };
            let sent = if sealed {
                write_sealed(&stream, &mut far.seal, &message)
            } else {
                write_message(&stream, &message)
            };
            sent.unwrap();
        }
    });
    let stream = TcpStream::connect(addr).unwrap();
    stream.set_nodelay(true).unwrap();
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let stream = Wire::from(stream);
    let mut buf = Vec::new();
    let mut times = Vec::with_capacity(TRIPS);
    for seq in 0..TRIPS as u32 {
        let message = Message::Move {
            seq,
            cell: "5".into(),
            spent_ms: None,
            left_ms: None,
        };
        let start = Instant::now();
        if sealed {
            write_sealed(&stream, &mut near.seal, &message).unwrap();
        } else {
            write_message(&stream, &message).unwrap();
        }
        assert!(read_line(&mut reader, &mut buf).unwrap());
        let back = if sealed {
            open_message(&mut near.open, &buf).unwrap()
        } else {
            Message::parse(&buf).unwrap()
        };
        times.push(start.elapsed());
        assert_eq!(back, message);
    }
    stream.shutdown(std::net::Shutdown::Both).unwrap();
    echo.join().unwrap();
    times.sort();
    times[TRIPS / 2]
}

fn main() {
    let start = Instant::now();
    let runs = 50;
    for _ in 0..runs {
        let _ = keys();
    }
    let exchange = start.elapsed() / runs;
    let clear = round_trips(false);
    let sealed = round_trips(true);
    println!("key exchange (both sides):         {exchange:?}");
    println!("move round trip, clear (median):   {clear:?}");
    println!("move round trip, sealed (median):  {sealed:?}");
}
