//! Match statistics: score, Elo difference with a confidence interval, and
//! the sequential probability ratio test (SPRT).
//!
//! Formulas (the usual ones of engine testing, e.g. cutechess-cli and
//! fishtest), for `N = W + D + L` games counted from player A's side:
//!
//! - score `s = (W + D/2) / N`;
//! - Elo difference `elo(s) = -400 log10(1/s - 1)` (the logistic model,
//!   infinite at `s = 0` or `1`);
//! - per-game variance of the score
//!   `σ² = (W (1 - s)² + D (1/2 - s)² + L (0 - s)²) / N` (trinomial results,
//!   no draw model), standard error of the mean `σ / √N`;
//! - 95% interval: `elo(s ± 1.959964 σ/√N)`;
//! - SPRT of H0: `elo = elo0` against H1: `elo = elo1`, with the expected
//!   scores `s0 = 1 / (1 + 10^(-elo0/400))` and `s1` alike, by the normal
//!   approximation of the generalized log-likelihood ratio (M. Van den
//!   Bergh, as used by fishtest and OpenBench; no BayesElo draw model):
//!   `LLR = N (s1 - s0) (2 s - s0 - s1) / (2 σ²)`;
//!   H1 is accepted when `LLR >= ln((1 - β) / α)`, H0 when
//!   `LLR <= ln(β / (1 - α))` (with `α = β = 0.05`: ±2.944); otherwise the
//!   test goes on. With `σ² = 0` (every result the same so far) the LLR is
//!   taken as 0: there is no evidence yet.

/// The 97.5% quantile of the standard normal distribution.
const Z_95: f64 = 1.959_963_984_540_054;

/// Results counted from one player's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl Tally {
    /// Games counted.
    pub(crate) fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points: a win 1, a draw 1/2.
    pub(crate) fn points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }

    /// The mean score `s` (`None` before any game).
    pub(crate) fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.points() / f64::from(n))
    }

    /// The per-game variance of the score, `σ²` (`None` before any game).
    pub(crate) fn variance(&self) -> Option<f64> {
        let s = self.score()?;
        let n = f64::from(self.games());
        let sum = f64::from(self.wins) * (1.0 - s).powi(2)
            + f64::from(self.draws) * (0.5 - s).powi(2)
            + f64::from(self.losses) * s.powi(2);
        Some(sum / n)
    }

    /// The same results from the other player's side.
    pub(crate) fn mirrored(&self) -> Tally {
        Tally { wins: self.losses, draws: self.draws, losses: self.wins }
    }
}

impl std::ops::Add for Tally {
    type Output = Tally;

    /// The results of both sets of games together.
    fn add(self, other: Tally) -> Tally {
        Tally { wins: self.wins + other.wins, draws: self.draws + other.draws, losses: self.losses + other.losses }
    }
}

/// The Elo difference that gives the expected score `score` (infinite at 0
/// and 1).
pub(crate) fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The expected score of an Elo difference.
pub(crate) fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo difference and its 95% confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct EloEstimate {
    /// The estimate.
    pub elo: f64,
    /// The lower end of the interval.
    pub low: f64,
    /// The upper end of the interval.
    pub high: f64,
}

/// The Elo difference of `tally` with its 95% interval (`None` before any
/// game).
pub(crate) fn elo_estimate(tally: &Tally) -> Option<EloEstimate> {
    let s = tally.score()?;
    let margin = Z_95 * (tally.variance()? / f64::from(tally.games())).sqrt();
    Some(EloEstimate { elo: elo_from_score(s), low: elo_from_score(s - margin), high: elo_from_score(s + margin) })
}

/// The verdict of a sequential test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// Neither bound is crossed: play on.
    Continue,
    /// H0 (`elo0`) accepted.
    H0,
    /// H1 (`elo1`) accepted.
    H1,
}

/// A sequential probability ratio test of `elo0` against `elo1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Sprt {
    /// The Elo difference of H0.
    pub elo0: f64,
    /// The Elo difference of H1.
    pub elo1: f64,
    /// The probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The probability of accepting H0 when H1 holds.
    pub beta: f64,
}

impl Sprt {
    /// A test with `α = β = 0.05`.
    pub(crate) fn new(elo0: f64, elo1: f64) -> Sprt {
        Sprt { elo0, elo1, alpha: 0.05, beta: 0.05 }
    }

    /// The lower and upper bounds of the log-likelihood ratio.
    pub(crate) fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The log-likelihood ratio of the results (see the module
    /// documentation).
    pub(crate) fn llr(&self, tally: &Tally) -> f64 {
        let (Some(s), Some(variance)) = (tally.score(), tally.variance()) else { return 0.0 };
        if variance <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        f64::from(tally.games()) * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * variance)
    }

    /// What the results say.
    pub(crate) fn verdict(&self, tally: &Tally) -> Verdict {
        let llr = self.llr(tally);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Verdict::H1
        } else if llr <= lower {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }
}

/// Reads `elo0,elo1` (elo0 < elo1).
pub(crate) fn parse_sprt(text: &str) -> Result<Sprt, String> {
    let error = || format!("{text:?} is not elo0,elo1 (like 0,10)");
    let (elo0, elo1) = text.split_once(',').ok_or_else(error)?;
    let elo0: f64 = elo0.trim().parse().map_err(|_| error())?;
    let elo1: f64 = elo1.trim().parse().map_err(|_| error())?;
    if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1 && elo0.abs() < 2000.0 && elo1.abs() < 2000.0) {
        return Err(format!("{text:?}: elo0 must be below elo1, both finite and under 2000"));
    }
    Ok(Sprt::new(elo0, elo1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn elo_of_known_scores() {
        assert_eq!(elo_from_score(0.5), 0.0);
        assert!(close(elo_from_score(0.75), 190.848_501_887_864_9, 1e-9));
        assert!(close(elo_from_score(0.25), -190.848_501_887_864_9, 1e-9));
        assert!(close(score_from_elo(190.848_501_887_864_9), 0.75, 1e-12));
        assert!(close(score_from_elo(10.0), 0.514_387_184_165_998_7, 1e-12));
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn interval_of_a_known_tally() {
        // 60 wins, 20 draws, 20 losses: s = 0.7, σ² = 0.16, σ/√N = 0.04.
        let tally = Tally { wins: 60, draws: 20, losses: 20 };
        assert!(close(tally.score().unwrap(), 0.7, 1e-12));
        assert!(close(tally.variance().unwrap(), 0.16, 1e-12));
        let estimate = elo_estimate(&tally).unwrap();
        assert!(close(estimate.elo, 147.190_714_117_837_8, 1e-9));
        assert!(close(estimate.low, 86.225_015_200_304_2, 1e-6));
        assert!(close(estimate.high, 218.251_777_641_074_8, 1e-6));
        assert_eq!(tally.mirrored(), Tally { wins: 20, draws: 20, losses: 60 });
        assert!(elo_estimate(&Tally::default()).is_none());
    }

    #[test]
    fn sprt_of_known_tallies() {
        let sprt = Sprt::new(0.0, 10.0);
        let (lower, upper) = sprt.bounds();
        assert!(close(lower, -2.944_438_979_166_44, 1e-12));
        assert!(close(upper, 2.944_438_979_166_44, 1e-12));
        let strong = Tally { wins: 60, draws: 20, losses: 20 };
        assert!(close(sprt.llr(&strong), 1.733_713_311_929_1, 1e-9));
        assert_eq!(sprt.verdict(&strong), Verdict::Continue);
        let even = Tally { wins: 510, draws: 480, losses: 490 };
        assert!(close(sprt.llr(&even), -0.055_080_055_560_429, 1e-9));
        // Twice the strong results: the LLR doubles and crosses the bound.
        let stronger = Tally { wins: 120, draws: 40, losses: 40 };
        assert!(close(sprt.llr(&stronger), 2.0 * 1.733_713_311_929_1, 1e-9));
        assert_eq!(sprt.verdict(&stronger), Verdict::H1);
        assert_eq!(sprt.verdict(&stronger.mirrored()), Verdict::H0);
        // No variance yet: no evidence.
        assert_eq!(sprt.llr(&Tally { wins: 3, draws: 0, losses: 0 }), 0.0);
    }

    #[test]
    fn sprt_arguments() {
        assert_eq!(parse_sprt("0,10").unwrap(), Sprt::new(0.0, 10.0));
        assert_eq!(parse_sprt(" -5 , 5 ").unwrap(), Sprt::new(-5.0, 5.0));
        assert!(parse_sprt("10,0").is_err());
        assert!(parse_sprt("10").is_err());
        assert!(parse_sprt("a,b").is_err());
    }
}
