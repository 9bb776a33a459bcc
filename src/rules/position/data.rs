//! A game's rules as data ([`RulesData`]): how the network and the history write a
//! [`Variant`], and read it back checked.

use serde::{Deserialize, Serialize};

use crate::rules::classic::{Rules, RulesError};
use crate::rules::gomoku::opening::Opening;
use crate::rules::position::Variant;
use crate::text::printable;

/// A game's rules as data, the one form they take outside the program (on the network, in
/// the history): the classic rules, and `variant` for the others, named as [`Variant::name`]
/// names them: `"ultimate"`, where the other fields mean nothing (written 9, 3 and false);
/// `"gomoku"` with the board's side (the line is five, whatever `k` says); `"in-a-row"`,
/// Gomoku's rules with the line `k`; `"renju"`, `"caro"`. A game opened by a swap rule adds
/// it to the name, `"gomoku+swap2"`, so a program without swap openings refuses the game
/// as one it does not know, rather than play it by other rules. A classic game leaves
/// `variant` out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RulesData {
    pub size: u8,
    pub k: u8,
    pub misere: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    /// The rows of a board whose rows are not its side (Connect Four's; `size` is then its
    /// columns).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rows: Option<u8>,
}

impl From<Rules> for RulesData {
    fn from(rules: Rules) -> RulesData {
        RulesData {
            size: rules.size(),
            k: rules.k(),
            misere: rules.misere(),
            variant: None,
            rows: None,
        }
    }
}

impl From<Variant> for RulesData {
    fn from(variant: Variant) -> RulesData {
        if let Variant::ConnectFour { columns, rows } = variant {
            return RulesData {
                size: columns,
                k: crate::rules::connect_four::FOUR,
                misere: false,
                variant: Some(variant.name().into()),
                rows: Some(rows),
            };
        }
        match variant.rules() {
            Some(rules) => rules.into(),
            None => RulesData {
                variant: Some(match variant.opening() {
                    Opening::Free => variant.name().into(),
                    opening => format!("{}+{opening}", variant.name()),
                }),
                size: variant.start().grid_side(),
                k: variant.k().unwrap_or(Rules::CLASSIC.k()),
                ..Rules::CLASSIC.into()
            },
        }
    }
}

/// Why rules read as data are not playable here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesDataError {
    /// A classic board this program does not play.
    Classic(RulesError),
    /// A variant this program does not know (its name, cut to 20 characters).
    Variant(String),
}

impl std::fmt::Display for RulesDataError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RulesDataError::Classic(e) => write!(f, "{e}"),
            RulesDataError::Variant(name) => write!(f, "the variant {name:?} is not known here"),
        }
    }
}

impl std::error::Error for RulesDataError {}

impl TryFrom<RulesData> for Variant {
    type Error = RulesDataError;

    fn try_from(w: RulesData) -> Result<Variant, RulesDataError> {
        match w.variant.as_deref() {
            None | Some("classic") => Rules::new(w.size, w.k, w.misere)
                .map(Variant::from)
                .map_err(RulesDataError::Classic),
            Some("connect-four") => {
                let rows = w.rows.unwrap_or(crate::rules::connect_four::ROWS);
                crate::rules::connect_four::ConnectFour::new(w.size, rows)
                    .map(|board| super::Position::from(board).variant())
                    .ok_or_else(|| RulesDataError::Variant("connect-four".into()))
            }
            Some(name) => {
                let (game, opening) = match name.split_once('+') {
                    Some((game, opening)) => (game, Opening::named(opening)),
                    None => (name, Some(Opening::Free)),
                };
                let opened = |v: Variant| Some(v).zip(opening).and_then(|(v, o)| v.opened(o).ok());
                Variant::named_on(game, w.size, w.k)
                    .and_then(opened)
                    .ok_or_else(|| {
                        RulesDataError::Variant(printable(
                            &name.chars().take(20).collect::<String>(),
                        ))
                    })
            }
        }
    }
}
