//! Values in JSON, the same in `analyze --json` and `review --json`.

use serde::Serialize;

use crate::ai::search::Value;

/// A value in JSON: its words, its result, the plies to the end when decided, whether it is
/// proven, the score of a heuristic estimate, and, where the AI reads values as win rates, the
/// rate (1 for a proven win, ½ for a draw, 0 for a loss). A proven bound has the result
/// `at_least_draw` or `at_most_draw`, is proven, and keeps the search's estimate.
#[derive(Clone, Debug, Serialize)]
pub struct JsonValue {
    value: String,
    result: &'static str,
    plies: Option<u32>,
    proven: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    estimate: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    win_rate: Option<f32>,
}

impl JsonValue {
    /// `value` in JSON; `rates` says whether its AI reads values as win rates.
    pub fn new(value: Value, rates: bool) -> JsonValue {
        let (result, plies, estimate) = match value {
            Value::Win(n) => ("win", Some(n), None),
            Value::Draw => ("draw", None, None),
            Value::Loss(n) => ("loss", Some(n), None),
            Value::Estimate(e) => ("estimate", None, Some(e)),
            Value::WinRate(_) => ("estimate", None, None),
            Value::AtLeastDraw(e) => ("at_least_draw", None, Some(e)),
            Value::AtMostDraw(e) => ("at_most_draw", None, Some(e)),
        };
        JsonValue {
            value: value.to_string(),
            result,
            plies,
            proven: value.is_proven() || value.is_bound(),
            estimate,
            win_rate: value
                .rate()
                .filter(|_| rates)
                .map(|r| (r * 1000.0).round() / 1000.0),
        }
    }
}
