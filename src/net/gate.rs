//! Who gets the host's attention, and when: the handshake places, the key exchanges' slots
//! and the line for them, and the delay every answer waits after wrong codes.
//!
//! Strangers cost the host a place while their hello comes ([`PLACES`]), a slot while their
//! key exchange runs and its answer waits ([`SLOTS`]), and a place in line while every slot
//! is busy answering ([`WAITING`]). Each is shared between addresses, an address holding at
//! most its share, and when all are taken the address holding the most gives way its oldest:
//! a place whose hello has not come, a slot whose `join` has not come (to its own address
//! only after [`OWN_GIVES_WAY_AFTER`]), a connection in line.
//! A slot whose `join` has come never gives way (its answer would tell right from wrong), so
//! a freed slot goes to the connection in line whose address holds the fewest: strangers on
//! a few addresses cannot keep a friend on another out. Every answer after the exchange,
//! welcome or refusal, waits the same [`Gate::answer_delay`], longer for each wrong code in a
//! row from the address and for the wrong codes from anywhere, so the answer's time tells a
//! guesser nothing and hanging up early gains nothing.

use std::collections::HashMap;
use std::net::IpAddr;

use crate::net::stream::Wire;
use std::time::{Duration, Instant};

use crate::net::failure::ANSWER_DELAY_MAX;
use crate::net::peer::PeerKey;

/// Handshakes heard at once, and at most this many from one address (or online peer).
const PLACES: usize = 64;
const PLACES_PER_ADDRESS: usize = 4;
/// Key exchanges under way or waiting to give their answer, in all and from one address
/// (the online peers counting as one address, and an IPv6 network's /64 too).
const SLOTS: usize = 32;
const SLOTS_PER_ADDRESS: usize = 8;
/// Each wrong code in a row from an address makes the answers to that address wait this much
/// longer, up to [`PENALTY_MAX`]; so does each [`WRONG_PER_STEP`] wrong codes from anywhere.
/// An address forgets its wrong codes after [`FORGET`] without one, the host its count too.
const PENALTY_STEP: Duration = Duration::from_millis(250);
const PENALTY_MAX: Duration = ANSWER_DELAY_MAX;
const WRONG_PER_STEP: u32 = 4;
const FORGET: Duration = Duration::from_mins(1);
/// Addresses remembered for their wrong codes, at most.
const REMEMBERED: usize = 4096;
/// Connections in line for a slot, in all and from one address.
const WAITING: usize = 32;
const WAITING_PER_ADDRESS: usize = 8;
/// A key exchange gives way to a newcomer from its own address only once its `join` has been
/// this long coming: a proper joiner's comes within a round trip, so strangers sharing its
/// address cannot push it out.
const OWN_GIVES_WAY_AFTER: Duration = Duration::from_secs(1);

/// A connection holding a handshake place, or a place in line for a slot.
struct Place {
    id: u64,
    ip: PeerKey,
    stream: Wire,
}

/// A key exchange under way, or waiting to give its answer.
struct Slot {
    id: u64,
    ip: PeerKey,
    stream: Wire,
    /// Whether the joiner's sealed `join` has been read: from then on the slot waits for its
    /// answer, and never gives way (that the code was right or wrong is known here only).
    answering: bool,
    /// When the slot was taken.
    since: Instant,
}

/// What a connection in line finds when it looks.
pub(super) enum Turn {
    /// A slot is its: the slot's id, and the connection that gave way for it, if one did.
    Slot(u64, Option<Wire>),
    /// Others go first, or no slot is free.
    Wait,
    /// It gave way to a newer connection in line: the host is busy.
    Gone,
}

/// Room for one more key exchange.
enum Room {
    Free,
    /// The oldest slot of this address whose `join` has not come, and that is at least this
    /// old, gives way.
    From(PeerKey, Duration),
}

/// An address's slots: how many, whether one of them can give way to another address, and
/// whether one can to its own (it has waited [`OWN_GIVES_WAY_AFTER`] for its `join`).
#[derive(Clone, Copy, Default)]
struct Held {
    slots: usize,
    yielding: bool,
    stale: bool,
}

/// The slots of each address; the address holding the most of those that have one that can
/// give way, and how many it holds.
struct Holdings {
    by_address: HashMap<PeerKey, Held>,
    most_yielding: Option<(PeerKey, usize)>,
}

impl Holdings {
    fn held(&self, ip: PeerKey) -> usize {
        self.by_address.get(&ip).map_or(0, |held| held.slots)
    }
}

/// The handshake places, the key exchanges' slots and the line for them, and the wrong codes
/// of each address and of all of them.
#[derive(Default)]
pub(super) struct Gate {
    /// Oldest first.
    places: Vec<Place>,
    next: u64,
    /// Oldest first.
    slots: Vec<Slot>,
    /// Oldest first.
    line: Vec<Place>,
    failures: HashMap<PeerKey, (u32, Instant)>,
    /// Wrong codes from anywhere, and when the last came.
    wrong: (u32, Option<Instant>),
}

impl Gate {
    /// A place for a connection from `ip`, and the connection that gave way for it, if one
    /// had to: the oldest of `ip`'s own when it holds its share, else when every place is
    /// taken the oldest of the address holding the most.
    pub(super) fn admit(&mut self, ip: PeerKey, stream: Wire) -> (u64, Option<Wire>) {
        let evicted = make_room(&mut self.places, ip, PLACES, PLACES_PER_ADDRESS);
        self.next += 1;
        self.places.push(Place {
            id: self.next,
            ip,
            stream,
        });
        (self.next, evicted)
    }

    /// Gives place `id` up; `false` if it had already given way to another.
    pub(super) fn release(&mut self, id: u64) -> bool {
        let before = self.places.len();
        self.places.retain(|p| p.id != id);
        self.places.len() < before
    }

    /// Puts a connection from `ip` whose hello came in line for a slot ([`Gate::turn`] tells
    /// when it has one); the oldest in line of the address with the most there gives way to
    /// it when the line is full, or `ip`'s own oldest when `ip` has its share there.
    pub(super) fn queue(&mut self, ip: PeerKey, stream: Wire) -> u64 {
        let ip = group(ip);
        make_room(&mut self.line, ip, WAITING, WAITING_PER_ADDRESS);
        self.next += 1;
        self.line.push(Place {
            id: self.next,
            ip,
            stream,
        });
        self.next
    }

    /// Whether connection `id` in line gets a slot now. Of those in line for whom a slot is
    /// free or one can give way, the connection of the address holding the fewest slots goes
    /// first, the oldest among equals: strangers answering in every slot from a few addresses
    /// do not keep out a joiner from another.
    pub(super) fn turn(&mut self, id: u64, now: Instant) -> Turn {
        let Some(me) = self.line.iter().position(|w| w.id == id) else {
            return Turn::Gone;
        };
        // Counted once for the whole line: every connection in line looks every few
        // milliseconds.
        let holdings = self.holdings(now);
        let first = self
            .line
            .iter()
            .enumerate()
            .filter(|(_, w)| self.room_for(&holdings, w.ip).is_some())
            .min_by_key(|&(i, w)| (holdings.held(w.ip), i))
            .map(|(i, _)| i);
        let room = (first == Some(me)).then(|| self.room_for(&holdings, self.line[me].ip));
        let Some(Some(room)) = room else {
            return Turn::Wait;
        };
        let evicted = match room {
            Room::Free => None,
            Room::From(victim, age) => {
                let at = self.slots.iter().position(|s| {
                    s.ip == victim && !s.answering && now.duration_since(s.since) >= age
                });
                at.map(|at| self.slots.remove(at).stream)
            }
        };
        let waiter = self.line.remove(me);
        self.next += 1;
        self.slots.push(Slot {
            id: self.next,
            ip: waiter.ip,
            stream: waiter.stream,
            answering: false,
            since: now,
        });
        Turn::Slot(self.next, evicted)
    }

    /// Leaves the line, having waited long enough.
    pub(super) fn leave_line(&mut self, id: u64) {
        self.line.retain(|w| w.id != id);
    }

    /// The slots each address holds, and which of them can give way.
    fn holdings(&self, now: Instant) -> Holdings {
        let mut by_address: HashMap<PeerKey, Held> = HashMap::new();
        for slot in &self.slots {
            let held = by_address.entry(slot.ip).or_default();
            held.slots += 1;
            held.yielding |= !slot.answering;
            held.stale |= !slot.answering && now.duration_since(slot.since) >= OWN_GIVES_WAY_AFTER;
        }
        let most_yielding = by_address
            .iter()
            .filter(|(_, held)| held.yielding)
            .max_by_key(|(_, held)| held.slots)
            .map(|(&ip, held)| (ip, held.slots));
        Holdings {
            by_address,
            most_yielding,
        }
    }

    /// Room for a key exchange from (grouped) `ip`: a free slot, a slot giving way (of those
    /// whose `join` has not come yet, the oldest of `ip`'s own that has waited
    /// [`OWN_GIVES_WAY_AFTER`] when `ip` holds its share, else when every slot is taken the
    /// oldest of the address holding the most, if that is more than `ip` would hold with
    /// it), or none.
    fn room_for(&self, holdings: &Holdings, ip: PeerKey) -> Option<Room> {
        let held = holdings.by_address.get(&ip).copied().unwrap_or_default();
        if held.slots >= SLOTS_PER_ADDRESS {
            held.stale.then_some(Room::From(ip, OWN_GIVES_WAY_AFTER))
        } else if self.slots.len() >= SLOTS {
            let (most, most_held) = holdings.most_yielding?;
            (most_held > held.slots + 1).then_some(Room::From(most, Duration::ZERO))
        } else {
            Some(Room::Free)
        }
    }

    /// Slot `id`'s `join` has come: it waits for its answer; `false` if it gave way before.
    pub(super) fn answering(&mut self, id: u64) -> bool {
        self.slots
            .iter_mut()
            .find(|s| s.id == id)
            .map(|s| s.answering = true)
            .is_some()
    }

    pub(super) fn release_slot(&mut self, id: u64) {
        self.slots.retain(|s| s.id != id);
    }

    /// How long an answer to `ip` waits now: longer for each of its wrong codes in a row and
    /// for every [`WRONG_PER_STEP`] from anywhere, up to [`PENALTY_MAX`]. The same for a right
    /// code as for a wrong one, so the time of an answer tells nothing.
    pub(super) fn answer_delay(&self, ip: PeerKey, now: Instant) -> Duration {
        let mine = match self.failures.get(&group(ip)) {
            Some(&(n, at)) if now.duration_since(at) < FORGET => n,
            _ => 0,
        };
        let all = match self.wrong {
            (n, Some(at)) if now.duration_since(at) < FORGET => n / WRONG_PER_STEP,
            _ => 0,
        };
        (PENALTY_STEP * mine.max(all)).min(PENALTY_MAX)
    }

    /// `ip` proved the code: its wrong codes are forgotten.
    pub(super) fn forgive(&mut self, ip: PeerKey) {
        self.failures.remove(&group(ip));
    }

    /// A wrong code from `ip`, counted as soon as it is known, whether or not its sender waits
    /// for the answer.
    pub(super) fn count_wrong(&mut self, ip: PeerKey, now: Instant) {
        if self.failures.len() >= REMEMBERED {
            self.failures
                .retain(|_, (_, at)| now.duration_since(*at) < FORGET);
        }
        let entry = self.failures.entry(group(ip)).or_insert((0, now));
        if now.duration_since(entry.1) >= FORGET {
            entry.0 = 0;
        }
        *entry = (entry.0.saturating_add(1), now);
        let quiet = self
            .wrong
            .1
            .is_none_or(|at| now.duration_since(at) >= FORGET);
        self.wrong = (
            if quiet {
                1
            } else {
                self.wrong.0.saturating_add(1)
            },
            Some(now),
        );
    }
}

/// Makes room in `list` (oldest first) for a connection from `ip`, and returns the one that
/// gave way for it, if one had to: the oldest of `ip`'s own when it holds `per_address`, else
/// when the list holds `total` the oldest of the address holding the most (of several, the
/// one holding the oldest); of those, one that has sent nothing yet before one whose next
/// line is waiting.
fn make_room(list: &mut Vec<Place>, ip: PeerKey, total: usize, per_address: usize) -> Option<Wire> {
    let count = |ip: PeerKey| list.iter().filter(|p| p.ip == ip).count();
    let victim = if count(ip) >= per_address {
        ip
    } else if list.len() >= total {
        // Of the addresses holding the most, the one with the oldest: a newcomer's place
        // lasts while as many come after it as the list holds.
        let most = list.iter().map(|p| count(p.ip)).max()?;
        list.iter().find(|p| count(p.ip) == most)?.ip
    } else {
        return None;
    };
    let theirs = || list.iter().enumerate().filter(move |(_, p)| p.ip == victim);
    let at = theirs()
        .find(|(_, p)| !p.stream.has_input())
        .or_else(|| theirs().next())
        .map(|(i, _)| i)?;
    Some(list.remove(at).stream)
}

/// The key under which a peer's slots and wrong codes are counted: an online peer's key costs
/// nothing to make, so all online peers count as one; an IPv6 address as its /64, which one
/// machine may hold whole.
fn group(ip: PeerKey) -> PeerKey {
    match ip {
        PeerKey::Endpoint(_) => PeerKey::Endpoint([0; 32]),
        PeerKey::Ip(IpAddr::V6(v6)) => {
            let mut octets = v6.octets();
            octets[8..].fill(0);
            PeerKey::Ip(IpAddr::from(octets))
        }
        ip @ PeerKey::Ip(IpAddr::V4(_)) => ip,
    }
}

#[cfg(test)]
mod tests {
    use std::net::{TcpListener, TcpStream};

    use super::*;

    fn key(ip: [u8; 4]) -> PeerKey {
        PeerKey::Ip(IpAddr::from(ip))
    }

    /// A slot for `ip` if one is free or can give way, as a connection alone in line gets it.
    fn take_slot(gate: &mut Gate, ip: PeerKey, stream: Wire) -> Option<(u64, Option<Wire>)> {
        take_slot_at(gate, ip, stream, Instant::now())
    }

    /// [`take_slot`] at `now`.
    fn take_slot_at(
        gate: &mut Gate,
        ip: PeerKey,
        stream: Wire,
        now: Instant,
    ) -> Option<(u64, Option<Wire>)> {
        let id = gate.queue(ip, stream);
        match gate.turn(id, now) {
            Turn::Slot(slot, evicted) => Some((slot, evicted)),
            Turn::Wait | Turn::Gone => {
                gate.leave_line(id);
                None
            }
        }
    }

    /// A connected pair of loopback streams, the server's end first.
    fn pair(listener: &TcpListener) -> Wire {
        let _client = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        Wire::from(listener.accept().unwrap().0)
    }

    #[test]
    fn an_address_holding_its_share_gives_way_its_own_oldest_place() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let mut gate = Gate::default();
        let (a, b) = (key([10, 0, 0, 1]), PeerKey::Endpoint([7; 32]));
        let (first_b, _) = gate.admit(b, pair(&listener));
        let ids: Vec<u64> = (0..PLACES_PER_ADDRESS)
            .map(|_| gate.admit(a, pair(&listener)).0)
            .collect();
        let (_, evicted) = gate.admit(a, pair(&listener));
        assert!(evicted.is_some(), "a fifth place from one address evicts");
        assert!(!gate.release(ids[0]), "the oldest of that address gave way");
        assert!(gate.release(first_b), "another address keeps its place");
    }

    #[test]
    fn a_full_gate_takes_from_the_address_with_the_most_places() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let mut gate = Gate::default();
        let mut first = None;
        let mut second = None;
        for i in 0..PLACES {
            // 10.0.0.0 takes every sixteenth place, four in all; the others one each.
            let ip = if i % 16 == 0 {
                key([10, 0, 0, 0])
            } else {
                key([10, 0, 1, i as u8])
            };
            let (id, evicted) = gate.admit(ip, pair(&listener));
            assert!(evicted.is_none());
            if i == 1 {
                second = Some(id);
            }
            first.get_or_insert(id);
        }
        let (_, evicted) = gate.admit(key([10, 0, 2, 9]), pair(&listener));
        assert!(evicted.is_some());
        assert!(!gate.release(first.unwrap()), "10.0.0.0 held the most");
        assert_eq!(gate.places.len(), PLACES);
        // Two more take 10.0.0.0's next two; then every address holds one, and the oldest
        // of all gives way.
        for last in 10..13 {
            gate.admit(key([10, 0, 2, last]), pair(&listener));
        }
        assert!(!gate.release(second.unwrap()), "the oldest gave way");
        assert_eq!(gate.places.len(), PLACES);
    }

    #[test]
    fn answers_wait_longer_for_each_wrong_code_in_a_row_and_for_wrong_codes_from_anywhere() {
        let mut gate = Gate::default();
        let now = Instant::now();
        let (ip, other) = (key([10, 0, 0, 1]), key([10, 0, 0, 2]));
        let delays: Vec<Duration> = (0..3)
            .map(|_| {
                let delay = gate.answer_delay(ip, now);
                gate.count_wrong(ip, now);
                delay
            })
            .collect();
        assert_eq!(delays, [Duration::ZERO, PENALTY_STEP, PENALTY_STEP * 2]);
        assert_eq!(
            gate.answer_delay(other, now),
            Duration::ZERO,
            "3 from anywhere"
        );
        gate.count_wrong(ip, now);
        assert_eq!(
            gate.answer_delay(other, now),
            PENALTY_STEP,
            "4 from anywhere"
        );
        for _ in 0..100 {
            gate.count_wrong(ip, now);
        }
        assert_eq!(gate.answer_delay(ip, now), PENALTY_MAX);
        assert_eq!(
            gate.answer_delay(ip, now + FORGET),
            Duration::ZERO,
            "forgotten"
        );
    }

    #[test]
    fn online_peers_share_one_address_and_an_ipv6_network_its_64() {
        assert_eq!(
            group(PeerKey::Endpoint([1; 32])),
            group(PeerKey::Endpoint([2; 32]))
        );
        let a: IpAddr = "2001:db8::1".parse().unwrap();
        let b: IpAddr = "2001:db8::ffff:2".parse().unwrap();
        let c: IpAddr = "2001:db8:0:1::1".parse().unwrap();
        assert_eq!(group(PeerKey::Ip(a)), group(PeerKey::Ip(b)));
        assert_ne!(group(PeerKey::Ip(a)), group(PeerKey::Ip(c)));
    }

    #[test]
    fn a_key_exchange_not_yet_answering_gives_way_and_one_answering_never_does() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let mut gate = Gate::default();
        let a = key([10, 0, 0, 1]);
        let ids: Vec<u64> = (0..SLOTS_PER_ADDRESS)
            .map(|_| take_slot(&mut gate, a, pair(&listener)).unwrap().0)
            .collect();
        assert!(gate.answering(ids[0]));
        assert!(
            take_slot(&mut gate, a, pair(&listener)).is_none(),
            "a key exchange just begun does not give way to its own address"
        );
        let later = Instant::now() + OWN_GIVES_WAY_AFTER;
        let (_, evicted) = take_slot_at(&mut gate, a, pair(&listener), later).unwrap();
        assert!(
            evicted.is_some(),
            "past its share, an address gives way its own that waited for its join"
        );
        assert!(!gate.answering(ids[1]), "the oldest not answering gave way");
        assert!(gate.answering(ids[0]), "one answering stays");
        // Fill the rest from other addresses, none past its share: a full host takes from
        // the address with the most.
        let mut n = 2u8;
        while gate.slots.len() < SLOTS {
            let ip = key([10, 0, 1, n / 8]);
            n += 1;
            take_slot(&mut gate, ip, pair(&listener)).unwrap();
        }
        let (_, evicted) = take_slot(&mut gate, key([10, 0, 0, 3]), pair(&listener)).unwrap();
        assert!(evicted.is_some());
        assert_eq!(gate.slots.len(), SLOTS);
        // Where every slot answers, none gives way: busy.
        let all: Vec<u64> = gate.slots.iter().map(|s| s.id).collect();
        for id in all {
            gate.answering(id);
        }
        assert!(take_slot(&mut gate, key([10, 0, 0, 4]), pair(&listener)).is_none());
    }

    #[test]
    fn a_freed_slot_goes_to_the_one_in_line_whose_address_holds_the_fewest() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let mut gate = Gate::default();
        // Four strangers' addresses answer in every slot.
        let attackers: Vec<PeerKey> = (1..=4).map(|n| key([10, 0, 0, n])).collect();
        let mut first_of_b = None;
        for i in 0..SLOTS {
            let ip = attackers[i % 4];
            let (id, evicted) = take_slot(&mut gate, ip, pair(&listener)).unwrap();
            assert!(evicted.is_none());
            assert!(gate.answering(id));
            if ip == attackers[1] {
                first_of_b.get_or_insert(id);
            }
        }
        let stranger = gate.queue(attackers[0], pair(&listener));
        let friend = gate.queue(key([192, 168, 1, 9]), pair(&listener));
        assert!(
            matches!(gate.turn(stranger, Instant::now()), Turn::Wait),
            "every slot answers"
        );
        assert!(
            matches!(gate.turn(friend, Instant::now()), Turn::Wait),
            "every slot answers"
        );
        gate.release_slot(first_of_b.unwrap());
        assert!(
            matches!(gate.turn(stranger, Instant::now()), Turn::Wait),
            "the stranger came first but its address holds a quarter of the slots"
        );
        assert!(matches!(
            gate.turn(friend, Instant::now()),
            Turn::Slot(_, None)
        ));
        assert!(
            matches!(gate.turn(stranger, Instant::now()), Turn::Wait),
            "full again"
        );
    }

    #[test]
    fn the_line_is_shared_between_addresses_as_the_places_are() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let mut gate = Gate::default();
        let a = key([10, 0, 0, 1]);
        let first = gate.queue(a, pair(&listener));
        for _ in 1..WAITING_PER_ADDRESS {
            gate.queue(a, pair(&listener));
        }
        assert!(
            matches!(gate.turn(first, Instant::now()), Turn::Slot(..)),
            "slots are free"
        );
        let oldest = gate.queue(a, pair(&listener));
        for _ in 0..WAITING_PER_ADDRESS {
            gate.queue(a, pair(&listener));
        }
        assert!(
            matches!(gate.turn(oldest, Instant::now()), Turn::Gone),
            "its own oldest gave way"
        );
        // One each from other addresses: once the line is full, `a`, holding the most,
        // gives way.
        for n in 0..WAITING - WAITING_PER_ADDRESS + 3 {
            gate.queue(key([10, 1, 0, n as u8]), pair(&listener));
        }
        assert_eq!(gate.line.len(), WAITING);
        let a_in_line = gate.line.iter().filter(|w| w.ip == a).count();
        assert_eq!(a_in_line, WAITING_PER_ADDRESS - 3);
    }
}
