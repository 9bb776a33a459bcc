//! Ratings from match results: a Bradley–Terry fit on the Elo scale (400 points of difference
//! mean odds of 10 to 1), with draws counted as half a win each way, anchored so that one
//! player is rated 0.

/// The results of one pairing: player `a` scored `score` points (1 a win, ½ a draw) in `games`
/// games against player `b`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pairing {
    pub a: usize,
    pub b: usize,
    pub score: f64,
    pub games: f64,
}

/// The expected score of a player rated `diff` points above its opponent.
pub fn expected(diff: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-diff / 400.0))
}

/// The ratings of `players` players that best explain `pairings` (maximum likelihood), with
/// `anchor` rated 0. Each pairing also counts one imaginary draw, so a player who won every
/// game gets a large but finite rating; a player in no pairing stays at 0.
pub fn fit(players: usize, pairings: &[Pairing], anchor: usize) -> Vec<f64> {
    let mut r = vec![0.0; players];
    let scale = 10f64.ln() / 400.0;
    for _ in 0..10_000 {
        // Newton's method on each rating alone: the gradient of the log-likelihood over its
        // second derivative (both with respect to the rating, in points).
        let mut grad = vec![0.0; players];
        let mut curve = vec![1e-9; players];
        for p in pairings {
            let (score, games) = (p.score + 0.5, p.games + 1.0);
            let e = expected(r[p.a] - r[p.b]);
            let surplus = score - games * e;
            grad[p.a] += surplus;
            grad[p.b] -= surplus;
            let c = games * e * (1.0 - e) * scale;
            curve[p.a] += c;
            curve[p.b] += c;
        }
        let mut moved = 0.0f64;
        for ((rating, g), c) in r.iter_mut().zip(&grad).zip(&curve) {
            let step = (0.7 * g / c).clamp(-100.0, 100.0);
            *rating += step;
            moved = moved.max(step.abs());
        }
        if moved < 1e-4 {
            break;
        }
    }
    let zero = r.get(anchor).copied().unwrap_or(0.0);
    r.iter().map(|x| x - zero).collect()
}

/// Wilson's 95% score interval for a proportion `p` of `n` trials (a draw counted as half a
/// win): the matches' error bars, kept within 0 and 1 (rounding would print a score of
/// none as `-0.000`).
pub fn wilson(p: f64, n: f64) -> (f64, f64) {
    let z = 1.96_f64;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z / (1.0 + z * z / n) * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_score_of_none_or_all_has_an_interval_that_ends_at_zero_or_one_and_prints_without_a_sign() {
        for games in [8.0, 32.0, 64.0, 128.0, 320.0] {
            let (low, high) = wilson(0.0, games);
            assert_eq!(format!("{low:.3}"), "0.000", "{games} games");
            assert!(high > 0.0 && high < 1.0);
            let (low, high) = wilson(1.0, games);
            assert_eq!(format!("{high:.3}"), "1.000", "{games} games");
            assert!(low > 0.0 && low < 1.0);
        }
    }

    #[test]
    fn the_fit_recovers_known_strengths_from_synthetic_results() {
        let truth = [0.0, 150.0, 400.0, 520.0];
        let mut pairings = Vec::new();
        for a in 0..truth.len() {
            for b in a + 1..truth.len() {
                let games = 4000.0;
                let score = games * expected(truth[a] - truth[b]);
                pairings.push(Pairing { a, b, score, games });
            }
        }
        let fitted = fit(truth.len(), &pairings, 0);
        for (f, t) in fitted.iter().zip(truth) {
            assert!((f - t).abs() < 10.0, "fitted {fitted:?}, truth {truth:?}");
        }
    }

    #[test]
    fn a_clean_sweep_gives_a_finite_rating_above_the_loser() {
        let pairings = [Pairing {
            a: 1,
            b: 0,
            score: 10.0,
            games: 10.0,
        }];
        let fitted = fit(2, &pairings, 0);
        assert!(fitted[0].abs() < 1e-9);
        assert!(fitted[1] > 200.0 && fitted[1].is_finite());
    }
}
