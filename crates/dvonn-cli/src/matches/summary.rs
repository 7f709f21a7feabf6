//! The results of a match and its summary, the same whether the games were
//! just played, found in a records directory, or gathered from the shards
//! of a cluster: every game counts through its record, in the order of the
//! games' numbers, and the SPRT decides on the games in that order (so its
//! decision does not depend on which game happened to finish first).

use std::collections::BTreeMap;
use std::time::Duration;

use anyhow::{Result, bail};
use dvonn_core::{Color, Outcome};
use dvonn_notation::GameRecord;

use super::definition::Definition;
use super::stats::{Sprt, Tally, Verdict, elo_estimate};

/// The tag of a record that says why a game was forfeited.
const TERMINATION: &str = "Termination";

/// The tags of a record that give the time each side used, on the
/// referee's clock, in seconds (White's first).
pub(crate) const TIME_USED: [&str; 2] = ["WhiteTimeUsed", "BlackTimeUsed"];

/// A game of the match as its summary counts it, read from its record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct MatchGame {
    /// A's colour: White in the first game of each pair.
    pub a_color: Color,
    /// How it ended: the score of a game played to the end, or the
    /// resignation of a player who lost by breaking the rules of the match
    /// (time, an illegal move, a crash).
    pub outcome: Outcome,
    /// Why the loser lost, for a resignation.
    pub forfeit_reason: Option<String>,
    /// The time each side used on the referee's clock, White's first, when
    /// the record gives it.
    pub time_used: Option<[Duration; 2]>,
}

impl MatchGame {
    /// The colour of player A in game `game` (from 0).
    pub(crate) fn a_color(game: usize) -> Color {
        if game.is_multiple_of(2) { Color::White } else { Color::Black }
    }

    /// Game `game` (from 0) as its record gives it: a score, or a loss by
    /// forfeit with its reason in the `Termination` tag.
    pub(crate) fn of_record(game: usize, record: &GameRecord) -> Result<MatchGame> {
        let forfeit_reason = match record.result {
            Outcome::Score { .. } => None,
            Outcome::Resigned(loser) => Some(
                record
                    .tag(TERMINATION)
                    .and_then(|text| text.strip_prefix(&format!("{loser} forfeits: ")))
                    .unwrap_or("resigned")
                    .to_string(),
            ),
            Outcome::Unfinished => bail!("game {} has no result", game + 1),
        };
        let seconds = |tag: &str| record.tag(tag).and_then(|text| Duration::try_from_secs_f64(text.parse().ok()?).ok());
        let time_used = match TIME_USED.map(seconds) {
            [Some(white), Some(black)] => Some([white, black]),
            _ => None,
        };
        Ok(MatchGame { a_color: MatchGame::a_color(game), outcome: record.result, forfeit_reason, time_used })
    }

    /// The loser and the reason, for a game lost by forfeit.
    fn forfeit(&self) -> Option<(Color, &str)> {
        match (self.outcome, &self.forfeit_reason) {
            (Outcome::Resigned(loser), Some(reason)) => Some((loser, reason)),
            _ => None,
        }
    }

    /// A's result as a tally of one game.
    fn tally(&self) -> Tally {
        match self.outcome.winner() {
            Some(color) if color == self.a_color => Tally { wins: 1, draws: 0, losses: 0 },
            Some(_) => Tally { wins: 0, draws: 0, losses: 1 },
            None => Tally { wins: 0, draws: 1, losses: 0 },
        }
    }
}

/// The games of a match so far, by number, and the SPRT's decision on them
/// in that order: it decides at the first complete run of games 1 to n
/// whose results cross one of its bounds.
#[derive(Clone, Debug)]
pub(crate) struct Results {
    games: BTreeMap<usize, MatchGame>,
    sprt: Option<Sprt>,
    /// A's results over all the games.
    total: Tally,
    /// Games 0 to `prefix - 1` are all in, and A's results over them.
    prefix: usize,
    prefix_tally: Tally,
    /// A's results over the games when the SPRT decided.
    decided_at: Option<Tally>,
}

impl Results {
    /// No games yet, for a match with the test `sprt`.
    pub(crate) fn new(sprt: Option<Sprt>) -> Results {
        Results {
            games: BTreeMap::new(),
            sprt,
            total: Tally::default(),
            prefix: 0,
            prefix_tally: Tally::default(),
            decided_at: None,
        }
    }

    /// Counts game `game` (from 0); a game counted already is left alone.
    pub(crate) fn insert(&mut self, game: usize, counted: MatchGame) {
        if self.games.contains_key(&game) {
            return;
        }
        self.total = self.total + counted.tally();
        self.games.insert(game, counted);
        while let Some(next) = self.games.get(&self.prefix) {
            self.prefix_tally = self.prefix_tally + next.tally();
            self.prefix += 1;
            if let Some(sprt) = &self.sprt
                && self.decided_at.is_none()
                && sprt.verdict(&self.prefix_tally) != Verdict::Continue
            {
                self.decided_at = Some(self.prefix_tally);
            }
        }
    }

    /// Whether game `game` is counted.
    pub(crate) fn contains(&self, game: usize) -> bool {
        self.games.contains_key(&game)
    }

    /// A's results over all the games.
    pub(crate) fn total(&self) -> Tally {
        self.total
    }

    /// A's results over the games when the SPRT decided (they give its
    /// verdict); `None` while it has not.
    pub(crate) fn decided_at(&self) -> Option<Tally> {
        self.decided_at
    }

    /// The summary printed at the end of a match, or by a merge, for the
    /// match of `definition`.
    pub(crate) fn report(&self, definition: &Definition) -> String {
        report(definition, &self.summary(), self.decided_at)
    }

    /// The figures of the summary.
    fn summary(&self) -> Summary {
        let mut summary = Summary::default();
        for (&game, counted) in &self.games {
            let a = counted.a_color;
            let tally = &mut summary.a_by_color[a.index()];
            *tally = *tally + counted.tally();
            if let Some(margin) = counted.outcome.white_margin() {
                summary.margin_sum += if a == Color::White { margin } else { -margin };
                summary.finished += 1;
            }
            if let Some((loser, reason)) = counted.forfeit() {
                summary.forfeits.push(Forfeit { game: game + 1, by_a: loser == a, reason: reason.to_string() });
            }
            if let Some(used) = counted.time_used {
                summary.time_used[0].add(game + 1, used[a.index()]);
                summary.time_used[1].add(game + 1, used[(!a).index()]);
            }
        }
        summary
    }
}

/// The figures of a summary.
#[derive(Clone, Debug, Default)]
struct Summary {
    /// A's results as White and as Black.
    a_by_color: [Tally; 2],
    /// Sum of A's margins over the finished games, and their number.
    margin_sum: i64,
    finished: u32,
    /// The games lost by forfeit, in order.
    forfeits: Vec<Forfeit>,
    /// The time A and B used per game, over the games whose records give it.
    time_used: [TimeUsed; 2],
}

/// A player's time per game on the referee's clock, over some games.
#[derive(Clone, Debug, Default)]
struct TimeUsed {
    games: u32,
    total: Duration,
    /// The longest game's time and its number (from 1).
    longest: Option<(Duration, usize)>,
}

impl TimeUsed {
    /// Counts `time`, the time used in game `game` (from 1).
    fn add(&mut self, game: usize, time: Duration) {
        self.games += 1;
        self.total += time;
        if self.longest.is_none_or(|(longest, _)| time > longest) {
            self.longest = Some((time, game));
        }
    }

    /// `3.981 s on average, 4.612 s at most (game 17)`.
    fn describe(&self) -> Option<String> {
        let (longest, game) = self.longest?;
        let average = self.total.as_secs_f64() / f64::from(self.games);
        Some(format!("{average:.3} s on average, {:.3} s at most (game {game})", longest.as_secs_f64()))
    }
}

/// A game lost by breaking the rules of the match (time, illegal move,
/// crash).
#[derive(Clone, Debug)]
struct Forfeit {
    /// The game's number, from 1.
    game: usize,
    /// Whether A (not B) lost it.
    by_a: bool,
    reason: String,
}

impl Summary {
    /// A's results in all games.
    fn a(&self) -> Tally {
        let [white, black] = self.a_by_color;
        white + black
    }

    /// White's results in all games (whoever played White).
    fn white(&self) -> Tally {
        let [a_white, a_black] = self.a_by_color;
        a_white + a_black.mirrored()
    }
}

/// `w-d-l`.
fn wdl(tally: &Tally) -> String {
    format!("{}-{}-{}", tally.wins, tally.draws, tally.losses)
}

/// An Elo value with its sign (`+inf` and `-inf` at the extremes).
pub(crate) fn signed(elo: f64) -> String {
    if elo.is_infinite() { if elo > 0.0 { "+inf".into() } else { "-inf".into() } } else { format!("{elo:+.1}") }
}

/// The summary printed at the end.
fn report(definition: &Definition, summary: &Summary, decided_at: Option<Tally>) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let a = &summary.a();
    let b = a.mirrored();
    let [a_white, a_black] = summary.a_by_color;
    let games = a.games();
    let _ = writeln!(out, "A: {}", definition.a);
    let _ = writeln!(out, "B: {}", definition.b);
    let _ = writeln!(out, "Games: {games} (seed {}; results as wins-draws-losses)", definition.seed);
    let _ = writeln!(out, "Openings: {}", definition.openings);
    let _ = writeln!(
        out,
        "A: {} wins, {} draws, {} losses (as White {}, as Black {})",
        a.wins,
        a.draws,
        a.losses,
        wdl(&a_white),
        wdl(&a_black)
    );
    let _ = writeln!(
        out,
        "B: {} wins, {} draws, {} losses (as White {}, as Black {})",
        b.wins,
        b.draws,
        b.losses,
        wdl(&a_black.mirrored()),
        wdl(&a_white.mirrored())
    );
    let white = summary.white();
    let _ = writeln!(out, "White won {}, Black won {}, {} drawn", white.wins, white.losses, white.draws);
    if summary.finished > 0 {
        let margin = summary.margin_sum as f64 / f64::from(summary.finished);
        let _ = writeln!(
            out,
            "Average margin: A {margin:+.2} pieces per game ({} games played to the end)",
            summary.finished
        );
    } else {
        let _ = writeln!(out, "Average margin: no game was played to the end");
    }
    if let [Some(a_time), Some(b_time)] = summary.time_used.each_ref().map(TimeUsed::describe) {
        let _ = writeln!(
            out,
            "Time used per game on the referee's clock: A {a_time}; B {b_time} ({} games)",
            summary.time_used[0].games
        );
    }
    let by_a = summary.forfeits.iter().filter(|forfeit| forfeit.by_a).count();
    let _ = writeln!(out, "Forfeits: A {by_a}, B {}", summary.forfeits.len() - by_a);
    for Forfeit { game, by_a, reason } in &summary.forfeits {
        let who = if *by_a { "A" } else { "B" };
        let _ = writeln!(out, "  game {game}: {who} {reason}");
    }
    if let (Some(score), Some(estimate)) = (a.score(), elo_estimate(a)) {
        let _ = writeln!(out, "Score of A: {:.1}% ({} of {games})", score * 100.0, a.points());
        let _ = writeln!(
            out,
            "Elo difference (A - B): {}, 95% interval [{}, {}]",
            signed(estimate.elo),
            signed(estimate.low),
            signed(estimate.high)
        );
    }
    if let Some(sprt) = &definition.sprt {
        let (lower, upper) = sprt.bounds();
        // The verdict that stopped the match, with the LLR that crossed the
        // bound; games already under way when it came are in the tally and
        // the LLR over all games, but do not reopen the decision.
        let decided = |accepted: &str, favoured: f64, over: f64, at: &Tally| {
            format!(
                "{accepted} accepted after {} games at LLR {:.2} (A - B = {favoured} Elo favoured over {over})",
                at.games(),
                sprt.llr(at)
            )
        };
        let verdict = match decided_at.map(|at| (sprt.verdict(&at), at)) {
            Some((Verdict::H0, at)) => decided("H0", sprt.elo0, sprt.elo1, &at),
            Some((Verdict::H1, at)) => decided("H1", sprt.elo1, sprt.elo0, &at),
            _ if a.variance().is_some_and(|v| v > 0.0) => "no decision yet".to_string(),
            _ => "no decision yet (every result alike: no variance to test)".to_string(),
        };
        let _ = writeln!(
            out,
            "SPRT elo0={} elo1={} (alpha=beta=0.05): LLR {:.2} over all {} games, bounds [{lower:.2}, {upper:.2}]: {verdict}",
            sprt.elo0,
            sprt.elo1,
            sprt.llr(a),
            a.games()
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counted(game: usize, a_wins: bool) -> MatchGame {
        let a_color = MatchGame::a_color(game);
        let (white, black) = if a_wins == (a_color == Color::White) { (5, 0) } else { (0, 5) };
        let outcome = Outcome::Score { white, black };
        MatchGame { a_color, outcome, forfeit_reason: None, time_used: None }
    }

    #[test]
    fn the_sprt_decides_on_the_games_in_their_order() {
        // A wins every game but game 1 (numbered from 0): the test needs
        // some variance, and decides at the same game whatever the order in
        // which the games come in.
        let sprt = Sprt::new(0.0, 200.0);
        let games: Vec<(usize, MatchGame)> = (0..60).map(|game| (game, counted(game, game != 1))).collect();
        let mut in_order = Results::new(Some(sprt));
        for (game, counted) in games.clone() {
            in_order.insert(game, counted);
        }
        let at = in_order.decided_at().expect("decided");
        assert!(at.games() < 60);
        let mut reversed = Results::new(Some(sprt));
        for (game, counted) in games.into_iter().rev() {
            reversed.insert(game, counted);
            if game > 0 {
                assert_eq!(reversed.decided_at(), None, "game 1 is missing: no complete run of games yet");
            }
        }
        assert_eq!(reversed.decided_at(), Some(at));
        assert_eq!(reversed.total(), Tally { wins: 59, draws: 0, losses: 1 });
    }

    #[test]
    fn records_give_scores_and_forfeits() {
        let mut record = GameRecord::default();
        record.result = Outcome::Score { white: 10, black: 12 };
        let counted = MatchGame::of_record(1, &record).unwrap();
        assert_eq!(counted.a_color, Color::Black);
        assert_eq!((counted.forfeit(), counted.tally().wins), (None, 1));
        record.result = Outcome::Resigned(Color::White);
        record.set_tag(TERMINATION, "White forfeits: wrote no move within 0.6 s");
        let counted = MatchGame::of_record(0, &record).unwrap();
        assert_eq!(counted.forfeit(), Some((Color::White, "wrote no move within 0.6 s")));
        assert_eq!(counted.tally().losses, 1);
        record.set_tag(TERMINATION, "");
        let counted = MatchGame::of_record(0, &record).unwrap();
        assert_eq!(counted.forfeit(), Some((Color::White, "resigned")));
        record.result = Outcome::Unfinished;
        assert!(MatchGame::of_record(0, &record).is_err());
    }

    #[test]
    fn records_give_the_time_each_side_used() {
        let mut record = GameRecord::default();
        record.result = Outcome::Score { white: 10, black: 12 };
        assert_eq!(MatchGame::of_record(0, &record).unwrap().time_used, None);
        record.set_tag(TIME_USED[0], "4.250");
        record.set_tag(TIME_USED[1], "3.5");
        let mut results = Results::new(None);
        // A is White in game 1 and Black in game 2; game 3's time is unreadable.
        results.insert(0, MatchGame::of_record(0, &record).unwrap());
        results.insert(1, MatchGame::of_record(1, &record).unwrap());
        record.set_tag(TIME_USED[1], "soon");
        results.insert(2, MatchGame::of_record(2, &record).unwrap());
        let summary = results.summary();
        let [a, b] = summary.time_used.each_ref().map(|time| time.describe().unwrap());
        assert_eq!(a, "3.875 s on average, 4.250 s at most (game 1)");
        assert_eq!(b, "3.875 s on average, 4.250 s at most (game 2)");
        assert_eq!(summary.time_used[0].games, 2);
    }
}
