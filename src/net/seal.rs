//! The join code, proven and never sent, and the lines it seals.
//!
//! Both sides run SPAKE2 (a password-authenticated key exchange) with the join code: each
//! sends one message, and each derives the same key only if both used the same code. The code
//! itself never travels, and a side that does not know it learns nothing it could test codes
//! against afterwards: one guess per connection, at most. From the key come two more, one for
//! each direction, and every line after the exchange is sealed with ChaCha20-Poly1305 under
//! its direction's key, numbered from 0: a line changed, replayed, dropped or sent by someone
//! without the key does not open.

use chacha20poly1305::aead::Aead;
use chacha20poly1305::{ChaCha20Poly1305, KeyInit, Nonce};
use data_encoding::BASE64;
use hkdf::Hkdf;
use sha2::Sha256;
use spake2::{Ed25519Group, Identity, Password, Spake2};

/// Which side of the exchange this is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Joiner,
    Host,
}

/// Why the exchange or a sealed line failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SealError {
    /// The other side's half of the exchange is not one.
    BadExchange,
    /// A line did not open: another key (another code), or changed on the way.
    Unopened,
}

impl std::fmt::Display for SealError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SealError::BadExchange => write!(f, "the key exchange was not one"),
            SealError::Unopened => write!(f, "a sealed message did not open"),
        }
    }
}

impl std::error::Error for SealError {}

/// One side's half of the exchange, waiting for the other's.
pub struct Exchange {
    role: Role,
    spake: Spake2<Ed25519Group>,
}

/// The code as both sides use it: read out or typed in any case, with spaces around it.
fn password(code: &str) -> Password {
    Password::new(code.trim().to_ascii_lowercase().as_bytes())
}

const JOINER: &[u8] = b"tictactoe joiner";
const HOST: &[u8] = b"tictactoe host";

impl Exchange {
    /// Starts the exchange with `code`; returns it and the message to send, in base64.
    pub fn start(role: Role, code: &str) -> (Exchange, String) {
        let (joiner, host) = (Identity::new(JOINER), Identity::new(HOST));
        let (spake, message) = match role {
            Role::Joiner => Spake2::<Ed25519Group>::start_a(&password(code), &joiner, &host),
            Role::Host => Spake2::<Ed25519Group>::start_b(&password(code), &joiner, &host),
        };
        (Exchange { role, spake }, BASE64.encode(&message))
    }

    /// Finishes with the other side's message: the keys for each direction. Matching keys
    /// are not proven here; the first sealed line that opens proves them.
    pub fn finish(self, theirs: &str) -> Result<Keys, SealError> {
        let theirs = BASE64
            .decode(theirs.as_bytes())
            .map_err(|_| SealError::BadExchange)?;
        let key = self
            .spake
            .finish(&theirs)
            .map_err(|_| SealError::BadExchange)?;
        Ok(Keys::derive(self.role, &key))
    }
}

/// The two directions' keys of one connection.
pub struct Keys {
    pub seal: Sealer,
    pub open: Opener,
}

impl Keys {
    fn derive(role: Role, key: &[u8]) -> Keys {
        let hkdf = Hkdf::<Sha256>::new(Some(b"tictactoe protocol 2"), key);
        let direction = |info: &[u8]| {
            let mut okm = [0u8; 32];
            hkdf.expand(info, &mut okm)
                .expect("32 bytes is a valid length for HKDF-SHA256");
            ChaCha20Poly1305::new(&okm.into())
        };
        let (to_host, to_joiner) = (direction(b"joiner to host"), direction(b"host to joiner"));
        let (seal, open) = match role {
            Role::Joiner => (to_host, to_joiner),
            Role::Host => (to_joiner, to_host),
        };
        Keys {
            seal: Sealer {
                cipher: seal,
                count: 0,
            },
            open: Opener {
                cipher: open,
                count: 0,
            },
        }
    }
}

/// The nonce of line `count`: its number, big-endian, in the last eight bytes.
fn nonce(count: u64) -> Nonce {
    let mut bytes = [0u8; 12];
    bytes[4..].copy_from_slice(&count.to_be_bytes());
    bytes.into()
}

/// Seals the lines one side sends.
pub struct Sealer {
    cipher: ChaCha20Poly1305,
    count: u64,
}

impl Sealer {
    /// `message` (one line's text, without its newline) sealed, in base64, with the newline.
    pub fn seal(&mut self, message: &[u8]) -> String {
        let sealed = self
            .cipher
            .encrypt(&nonce(self.count), message)
            .expect("a line is far below ChaCha20-Poly1305's length limit");
        self.count += 1;
        let mut line = BASE64.encode(&sealed);
        line.push('\n');
        line
    }
}

/// Opens the lines the other side sends, in order.
pub struct Opener {
    cipher: ChaCha20Poly1305,
    count: u64,
}

impl Opener {
    /// The message in `line` (without its newline), or [`SealError::Unopened`].
    pub fn open(&mut self, line: &[u8]) -> Result<Vec<u8>, SealError> {
        let sealed = BASE64.decode(line).map_err(|_| SealError::Unopened)?;
        let message = self
            .cipher
            .decrypt(&nonce(self.count), sealed.as_slice())
            .map_err(|_| SealError::Unopened)?;
        self.count += 1;
        Ok(message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::protocol::{MAX_LINE, MAX_WIRE};

    fn pair(joiner_code: &str, host_code: &str) -> (Keys, Keys) {
        let (joiner, to_host) = Exchange::start(Role::Joiner, joiner_code);
        let (host, to_joiner) = Exchange::start(Role::Host, host_code);
        (
            joiner.finish(&to_joiner).unwrap(),
            host.finish(&to_host).unwrap(),
        )
    }

    #[test]
    fn the_same_code_in_any_case_opens_both_ways_and_the_code_is_not_in_the_exchange() {
        let (joiner, to_host) = Exchange::start(Role::Joiner, "K7M2-QX4P");
        let (host, to_joiner) = Exchange::start(Role::Host, "k7m2-qx4p");
        for text in [&to_host, &to_joiner] {
            assert!(!text.to_lowercase().contains("k7m2"), "{text}");
        }
        let (mut j, mut h) = (
            joiner.finish(&to_joiner).unwrap(),
            host.finish(&to_host).unwrap(),
        );
        for n in 0..3 {
            let line = j.seal.seal(format!("move {n}").as_bytes());
            assert!(line.len() <= MAX_WIRE && line.ends_with('\n'));
            assert_eq!(
                h.open.open(line.trim_end().as_bytes()).unwrap(),
                format!("move {n}").as_bytes()
            );
            let back = h.seal.seal(b"ok");
            assert_eq!(j.open.open(back.trim_end().as_bytes()).unwrap(), b"ok");
        }
    }

    #[test]
    fn a_wrong_code_opens_nothing() {
        let (mut j, mut h) = pair("k7m2-qx4p", "k7m2-qx4q");
        let line = j.seal.seal(b"{\"type\":\"join\"}");
        assert_eq!(
            h.open.open(line.trim_end().as_bytes()),
            Err(SealError::Unopened)
        );
        let line = h.seal.seal(b"{\"type\":\"welcome\"}");
        assert_eq!(
            j.open.open(line.trim_end().as_bytes()),
            Err(SealError::Unopened)
        );
    }

    #[test]
    fn a_changed_replayed_reflected_or_skipped_line_does_not_open() {
        let (mut j, mut h) = pair("abcd-efgh", "abcd-efgh");
        let first = j.seal.seal(b"one");
        let second = j.seal.seal(b"two");
        let mut changed = first.trim_end().as_bytes().to_vec();
        changed[3] ^= 1;
        assert!(h.open.open(&changed).is_err(), "changed");
        assert!(
            h.open.open(second.trim_end().as_bytes()).is_err(),
            "skipped"
        );
        assert!(h.open.open(first.trim_end().as_bytes()).is_ok());
        assert!(
            h.open.open(first.trim_end().as_bytes()).is_err(),
            "replayed"
        );
        // A line sent back to its sender is under the other direction's key.
        let mut j2 = pair("abcd-efgh", "abcd-efgh").0;
        let mine = j2.seal.seal(b"hi");
        assert!(
            j2.open.open(mine.trim_end().as_bytes()).is_err(),
            "reflected"
        );
        assert!(h.open.open(b"not base64 at all!").is_err());
    }

    #[test]
    fn a_broken_or_reflected_exchange_message_is_refused() {
        let (joiner, to_host) = Exchange::start(Role::Joiner, "abcd-efgh");
        assert_eq!(joiner.finish("@@@").err(), Some(SealError::BadExchange));
        let (joiner, _) = Exchange::start(Role::Joiner, "abcd-efgh");
        // The joiner's own message sent back: SPAKE2 messages say which side made them.
        assert_eq!(joiner.finish(&to_host).err(), Some(SealError::BadExchange));
        let (host, _) = Exchange::start(Role::Host, "abcd-efgh");
        assert_eq!(
            host.finish(&BASE64.encode(&[0x41; 5])).err(),
            Some(SealError::BadExchange)
        );
    }

    #[test]
    fn the_longest_message_fits_the_longest_line() {
        let (mut j, _) = pair("a", "a");
        let line = j.seal.seal(&[b'x'; MAX_LINE]);
        assert_eq!(line.len(), MAX_WIRE);
    }

    /// Hands out fixed bytes, then zeros: a SPAKE2 scalar chosen in advance.
    struct Fixed([u8; 32]);

    impl spake2::rand_core::TryRng for Fixed {
        type Error = std::convert::Infallible;

        fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
            Ok(0)
        }

        fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
            Ok(0)
        }

        fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
            dst.fill(0);
            let n = dst.len().min(32);
            dst[..n].copy_from_slice(&self.0[..n]);
            self.0 = [0; 32];
            Ok(())
        }
    }

    impl spake2::rand_core::TryCryptoRng for Fixed {}

    fn scalar(hex: &str) -> Fixed {
        let bytes = data_encoding::HEXLOWER.decode(hex.as_bytes()).unwrap();
        Fixed(bytes.try_into().unwrap())
    }

    /// The published SPAKE2 Ed25519 vector (the one python-spake2 and magic-wormhole check):
    /// the exchange linked here gives the same messages and key from the same scalars.
    #[test]
    fn the_exchange_gives_the_published_spake2_vector() {
        let hex = |bytes: &[u8]| data_encoding::HEXLOWER.encode(bytes);
        let (pw, a, b) = (
            Password::new(b"password"),
            Identity::new(b"idA"),
            Identity::new(b"idB"),
        );
        let (s1, msg1) = Spake2::<Ed25519Group>::start_a_with_rng(
            &pw,
            &a,
            &b,
            scalar("25184061a70b1142f1a9f043a52cf7033dc308b5a0a32e42b003ecd59c2ac605"),
        );
        let (s2, msg2) = Spake2::<Ed25519Group>::start_b_with_rng(
            &pw,
            &a,
            &b,
            scalar("9fb5e845084e0cbe27ac8b4d3af139b33f3f8a047d4234e2d45d33c5cd367b0f"),
        );
        assert_eq!(
            hex(&msg1),
            "416fc960df73c9cf8ed7198b0c9534e2e96a5984bfc5edc023fd24dacf371f2af9"
        );
        assert_eq!(
            hex(&msg2),
            "42354e97b88406922b1df4bea1d7870f17aed3dba7c720b313edae315b00959309"
        );
        let key = "712295de7219c675ddd31942184aa26e0a957cf216bc230d165b215047b520c1";
        assert_eq!(hex(&s1.finish(&msg2).unwrap()), key);
        assert_eq!(hex(&s2.finish(&msg1).unwrap()), key);
    }
}
