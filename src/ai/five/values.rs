//! What an empty point is worth to the estimate, by its *code*: the four classes its
//! directions have for one side, as a set (the order of the directions does not matter),
//! 1,001 of them, and one more for a point renju forbids black. For each code, a value for
//! the side to move (`mine`) and one for the other side (`theirs`); a position's estimate is
//! the side to move's values summed over the empty points less the other side's.
//!
//! The values are kept in `values.txt`, one code a line, its classes (largest first) and its
//! two values. Today they are exactly the weighted count the estimate was before (a weight for
//! each class in each direction and one for each threat, fitted to the results of games);
//! `examples/gomoku_fit.rs` fits them code by code, which predicted results better but won no
//! more games (`docs/ai.md`).

use std::sync::OnceLock;

use super::codes::class;

/// How many codes there are: every set of four classes, and the forbidden point.
pub const CODES: usize = 1002;
/// The code of a point renju forbids black.
pub const FORBIDDEN: u16 = 1001;

/// `BINOMIAL[k][n]` is n choose k, for the codes' numbering.
const BINOMIAL: [[u16; 15]; 5] = {
    let mut b = [[0u16; 15]; 5];
    let mut n = 0;
    while n < 15 {
        b[0][n] = 1;
        let mut k = 1;
        while k < 5 {
            b[k][n] = if n == 0 {
                0
            } else {
                b[k][n - 1] + b[k - 1][n - 1]
            };
            k += 1;
        }
        n += 1;
    }
    b
};

/// The code of four directions' classes: their set's place among all sets of four, counted as
/// combinations with repetition. Read from two small tables (each pair's set, then the code of
/// two pairs' sets), which every point of every move asks.
pub fn code(classes: [u8; 4]) -> u16 {
    let [a, b, c, d] = classes.map(usize::from);
    let coder = coder();
    coder.quads[usize::from(coder.pairs[a][b]) * PAIRS + usize::from(coder.pairs[c][d])]
}

/// How many sets of two classes there are.
const PAIRS: usize = class::COUNT * (class::COUNT + 1) / 2;

struct Coder {
    pairs: [[u8; class::COUNT]; class::COUNT],
    quads: Vec<u16>,
}

fn coder() -> &'static Coder {
    static CODER: OnceLock<Coder> = OnceLock::new();
    CODER.get_or_init(|| {
        let count = class::COUNT as u8;
        let mut pairs = [[0u8; class::COUNT]; class::COUNT];
        let mut sets = Vec::new();
        for a in 0..count {
            for b in 0..=a {
                pairs[usize::from(a)][usize::from(b)] = sets.len() as u8;
                pairs[usize::from(b)][usize::from(a)] = sets.len() as u8;
                sets.push([a, b]);
            }
        }
        let quads = (0..PAIRS * PAIRS)
            .map(|i| {
                let ([a, b], [c, d]) = (sets[i / PAIRS], sets[i % PAIRS]);
                counted_code([a, b, c, d])
            })
            .collect();
        Coder { pairs, quads }
    })
}

/// [`code`], counted.
fn counted_code(classes: [u8; 4]) -> u16 {
    let mut c = classes;
    c.sort_unstable_by(|a, b| b.cmp(a));
    let [a, b, c, d] = c.map(usize::from);
    BINOMIAL[4][a + 3] + BINOMIAL[3][b + 2] + BINOMIAL[2][c + 1] + BINOMIAL[1][d]
}

/// Every set of four classes, largest first, in the codes' order.
pub fn all_classes() -> impl Iterator<Item = [u8; 4]> {
    let n = class::COUNT as u8;
    (0..n).flat_map(move |a| {
        (0..=a).flat_map(move |b| (0..=b).flat_map(move |c| (0..=c).map(move |d| [a, b, c, d])))
    })
}

/// Why a table of values does not read: the line and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadTable(String);

impl std::fmt::Display for BadTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadTable {}

/// Each code's value for the side to move and for the other side.
#[derive(Clone, Debug, PartialEq)]
pub struct Values {
    pub mine: [i32; CODES],
    pub theirs: [i32; CODES],
}

/// The values the estimate reads.
pub fn values() -> &'static Values {
    static VALUES: OnceLock<Values> = OnceLock::new();
    VALUES.get_or_init(|| Values::parse(include_str!("values.txt")).expect("values.txt reads"))
}

impl Values {
    /// Reads the table: `#` comments, then a line for each code, its four classes as
    /// numbers (or the word `forbidden`) and then its two values.
    pub fn parse(text: &str) -> Result<Values, BadTable> {
        let mut values = Values {
            mine: [0; CODES],
            theirs: [0; CODES],
        };
        let mut seen = [false; CODES];
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = || {
                BadTable(format!(
                    "line {}: {line:?} is not a code and two values",
                    n + 1
                ))
            };
            let words: Vec<&str> = line.split_whitespace().collect();
            let number = |w: &str| w.parse::<i32>().map_err(|_| bad());
            let (at, rest) = match words.as_slice() {
                ["forbidden", rest @ ..] => (FORBIDDEN, rest),
                [a, b, c, d, rest @ ..] => {
                    let mut four = [0u8; 4];
                    for (slot, w) in four.iter_mut().zip([a, b, c, d]) {
                        *slot = w
                            .parse()
                            .ok()
                            .filter(|&v: &u8| usize::from(v) < class::COUNT)
                            .ok_or_else(bad)?;
                    }
                    (code(four), rest)
                }
                _ => return Err(bad()),
            };
            let [mine, theirs] = rest else {
                return Err(bad());
            };
            let at = usize::from(at);
            if std::mem::replace(&mut seen[at], true) {
                return Err(BadTable(format!("line {}: a code given twice", n + 1)));
            }
            values.mine[at] = number(mine)?;
            values.theirs[at] = number(theirs)?;
        }
        match seen.iter().position(|&s| !s) {
            Some(missing) => Err(BadTable(format!("code {missing} has no line"))),
            None => Ok(values),
        }
    }

    /// The table as [`Values::parse`] reads it, `header` as its comments.
    pub fn write(&self, header: &str) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        for line in header.lines() {
            let _ = writeln!(out, "# {line}");
        }
        for four in all_classes() {
            let at = usize::from(code(four));
            let [a, b, c, d] = four;
            let _ = writeln!(out, "{a} {b} {c} {d} {} {}", self.mine[at], self.theirs[at]);
        }
        let f = usize::from(FORBIDDEN);
        let _ = writeln!(out, "forbidden {} {}", self.mine[f], self.theirs[f]);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_set_of_four_classes_has_its_own_code_in_any_order_and_the_codes_run_without_gaps() {
        let mut seen = [false; CODES];
        for four in all_classes() {
            let c = usize::from(code(four));
            assert!(!seen[c], "{four:?}");
            seen[c] = true;
            let [a, b, c2, d] = four;
            assert_eq!(code([d, b, a, c2]), code(four));
            assert_eq!(code([c2, a, d, b]), counted_code(four));
        }
        assert_eq!(seen.iter().filter(|&&s| s).count(), CODES - 1);
        assert!(!seen[usize::from(FORBIDDEN)]);
    }

    #[test]
    fn the_table_in_the_code_reads_and_writes_back_to_itself() {
        let v = values();
        assert_eq!(Values::parse(&v.write("a header")).as_ref(), Ok(v));
    }

    #[test]
    fn a_table_with_a_line_missing_doubled_or_unreadable_is_refused() {
        let whole = values().write("");
        let lines: Vec<&str> = whole.lines().collect();
        let missing = lines[1..].join("\n");
        assert!(
            Values::parse(&missing)
                .unwrap_err()
                .to_string()
                .contains("has no line")
        );
        let doubled = format!("{whole}{}\n", lines[3]);
        assert!(
            Values::parse(&doubled)
                .unwrap_err()
                .to_string()
                .contains("twice")
        );
        let unreadable = whole.replacen("0 0 0 0", "0 0 0 11", 1);
        assert!(
            Values::parse(&unreadable)
                .unwrap_err()
                .to_string()
                .contains("line 1")
        );
    }
}
