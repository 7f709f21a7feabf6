//! The games open on the server, each under a random id with the search
//! running for it and its last review: at most so many (a new game closes
//! the least recently used one that is not searching), and those unused
//! for long are closed. Closing a game stops its search; changing its moves
//! stops its search and forgets its review.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use dvonn_core::Game;
use serde::Serialize;

use crate::error::ApiError;
use crate::game::Opponent;
use crate::review::KeptReview;
use crate::search::SearchControl;

/// What a search of a game is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum SearchKind {
    /// The engine's move.
    Engine,
    /// An analysis the person started.
    Analysis,
    /// A review of the whole game.
    Review,
}

/// A search running for a game.
#[derive(Clone, Debug)]
pub(crate) struct ActiveSearch {
    /// Tells this search from the game's later ones.
    pub id: u64,
    /// What it is for.
    pub kind: SearchKind,
    /// Its stop.
    pub control: SearchControl,
}

/// An open game: the game, the engine it is played against (`None`: the
/// person plays both sides, as for an imported game), the tags of its
/// record, the search running for it, and the last review of its moves.
#[derive(Debug)]
pub(crate) struct Session {
    /// The game.
    pub game: Game,
    /// The engine the game is played against.
    pub opponent: Option<Opponent>,
    /// The tags of the game's record (event, date, players).
    pub tags: Vec<(String, String)>,
    /// Counts the changes of the game's moves, so that an engine move
    /// found for moves that were since changed is dropped.
    pub generation: u64,
    /// The search running for the game.
    pub search: Option<ActiveSearch>,
    /// The last review of the game's moves (one at most: a new review
    /// replaces it).
    pub review: Option<KeptReview>,
    last_used: Instant,
}

impl Session {
    /// `game`, played against `opponent`, with the tags of its record.
    pub(crate) fn new(game: Game, opponent: Option<Opponent>, tags: Vec<(String, String)>) -> Session {
        Session { game, opponent, tags, generation: 0, search: None, review: None, last_used: Instant::now() }
    }

    /// Records a change of the game's moves: the running search (for the
    /// old moves) is stopped and forgotten, and so is the review.
    pub(crate) fn changed(&mut self) {
        self.generation += 1;
        self.stop_search();
        self.review = None;
    }

    /// Stops and forgets the running search; returns whether there was one.
    pub(crate) fn stop_search(&mut self) -> bool {
        match self.search.take() {
            Some(search) => {
                search.control.stop();
                true
            }
            None => false,
        }
    }

    /// The kind of the running search.
    pub(crate) fn searching(&self) -> Option<SearchKind> {
        self.search.as_ref().map(|search| search.kind)
    }

    /// Whether `search_id` is the game's running search.
    pub(crate) fn is_searching(&self, search_id: u64) -> bool {
        self.search.as_ref().is_some_and(|search| search.id == search_id)
    }
}

/// The open games.
#[derive(Debug)]
pub(crate) struct Sessions {
    games: HashMap<String, Session>,
    max_games: usize,
    idle: Duration,
    max_reviews: usize,
    searches_started: u64,
}

impl Sessions {
    /// At most `max_games` games, each closed after `idle` unused, and at
    /// most `max_reviews` of them reviewed at once.
    pub(crate) fn new(max_games: usize, idle: Duration, max_reviews: usize) -> Sessions {
        Sessions {
            games: HashMap::new(),
            max_games: max_games.max(1),
            idle,
            max_reviews: max_reviews.max(1),
            searches_started: 0,
        }
    }

    /// The number of open games.
    pub(crate) fn len(&self) -> usize {
        self.games.len()
    }

    /// The number of games being reviewed.
    pub(crate) fn reviews_running(&self) -> usize {
        self.games.values().filter(|session| session.searching() == Some(SearchKind::Review)).count()
    }

    /// Opens `session` under a new id, first closing the least recently
    /// used game that is not searching when there are already as many as
    /// allowed (503 when every game is searching).
    pub(crate) fn open(&mut self, session: Session) -> Result<String, ApiError> {
        if self.games.len() >= self.max_games {
            let oldest = self
                .games
                .iter()
                .filter(|(_, session)| session.search.is_none())
                .min_by_key(|(_, session)| session.last_used)
                .map(|(id, _)| id.clone())
                .ok_or_else(|| {
                    ApiError::unavailable(format!("{} games are searching at once: try again later", self.games.len()))
                })?;
            self.close(&oldest)?;
        }
        let id = format!("{:032x}", rand::random::<u128>());
        self.games.insert(id.clone(), Session { last_used: Instant::now(), ..session });
        Ok(id)
    }

    /// The game `id`, marked as used now (404 when there is none).
    pub(crate) fn get(&mut self, id: &str) -> Result<&mut Session, ApiError> {
        let session = self.games.get_mut(id).ok_or_else(|| unknown(id))?;
        session.last_used = Instant::now();
        Ok(session)
    }

    /// Closes the game `id`, stopping its search.
    pub(crate) fn close(&mut self, id: &str) -> Result<(), ApiError> {
        let mut session = self.games.remove(id).ok_or_else(|| unknown(id))?;
        session.stop_search();
        Ok(())
    }

    /// Closes the games unused since `idle` before `now`.
    pub(crate) fn close_idle(&mut self, now: Instant) {
        let idle = self.idle;
        self.games.retain(|_, session| {
            let keep = now.saturating_duration_since(session.last_used) < idle;
            if !keep {
                session.stop_search();
            }
            keep
        });
    }

    /// Closes every game.
    pub(crate) fn close_all(&mut self) {
        for session in self.games.values_mut() {
            session.stop_search();
        }
        self.games.clear();
    }

    /// Registers a `kind` search for the game `id`. An analysis or a review
    /// running for it gives way (it is no longer wanted); an engine move
    /// does not (409). A review of a game beyond the reviews allowed at
    /// once is refused (503).
    pub(crate) fn begin_search(&mut self, id: &str, kind: SearchKind) -> Result<ActiveSearch, ApiError> {
        let others_reviewed =
            self.games.iter().filter(|(game, session)| *game != id && session.searching() == Some(SearchKind::Review));
        if kind == SearchKind::Review && others_reviewed.count() >= self.max_reviews {
            return Err(ApiError::unavailable(format!(
                "{} games are being reviewed, as many as the server allows at once: try again later",
                self.max_reviews
            )));
        }
        self.searches_started += 1;
        let search_id = self.searches_started;
        let session = self.get(id)?;
        if session.searching() == Some(SearchKind::Engine) {
            return Err(ApiError::conflict("the engine is thinking: stop it or wait for its move"));
        }
        session.stop_search();
        let search = ActiveSearch { id: search_id, kind, control: SearchControl::default() };
        session.search = Some(search.clone());
        Ok(search)
    }

    /// Forgets the search `search_id` of the game `id` (stopping it) if it
    /// is still the game's search.
    pub(crate) fn end_search(&mut self, id: &str, search_id: u64) {
        if let Some(session) = self.games.get_mut(id)
            && session.is_searching(search_id)
        {
            session.stop_search();
        }
    }
}

/// The error for an id that names no open game.
fn unknown(id: &str) -> ApiError {
    let shown: String = id.chars().take(40).collect();
    ApiError::not_found(format!("no game {shown:?}: it was closed or never opened; start a new one"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::Cut;
    use dvonn_ai::review::{GameReview, ReviewOptions, review};
    use dvonn_ai::{Engine, EngineConfig, Limits, StopHandle};
    use dvonn_core::{Author, Position};

    fn game() -> Session {
        Session::new(Game::new(Position::new()), None, Vec::new())
    }

    /// The review of a game stopped before it began: no plies.
    fn stopped_review() -> GameReview {
        let mut engine = Engine::new(EngineConfig::default().with_hash_mb(1)).unwrap();
        let stop = StopHandle::default();
        stop.stop();
        let mut game = Game::new(Position::new());
        game.play("E3".parse().unwrap(), Author::Person).unwrap();
        let reviewed = review(&mut engine, &game, &ReviewOptions::new(Limits::depth(1)), &stop, &mut ());
        assert!(reviewed.plies.is_empty() && !reviewed.complete);
        reviewed
    }

    #[test]
    fn a_full_server_closes_the_least_recently_used_idle_game() {
        let mut sessions = Sessions::new(2, Duration::from_secs(60), 1);
        let a = sessions.open(game()).unwrap();
        let b = sessions.open(game()).unwrap();
        sessions.begin_search(&a, SearchKind::Analysis).unwrap();
        let c = sessions.open(game()).unwrap();
        assert!(sessions.get(&b).is_err(), "b was idle and least recently used");
        assert!(sessions.get(&a).is_ok() && sessions.get(&c).is_ok());
        sessions.begin_search(&c, SearchKind::Engine).unwrap();
        assert_eq!(sessions.open(game()).unwrap_err().status, axum::http::StatusCode::SERVICE_UNAVAILABLE);
    }

    #[test]
    fn searches_give_way_to_each_other_but_not_to_an_engine_move() {
        let mut sessions = Sessions::new(4, Duration::from_secs(60), 1);
        let id = sessions.open(game()).unwrap();
        let analysis = sessions.begin_search(&id, SearchKind::Analysis).unwrap();
        let engine = sessions.begin_search(&id, SearchKind::Engine).unwrap();
        assert!(analysis.control.is_stopped());
        assert_eq!(
            sessions.begin_search(&id, SearchKind::Analysis).unwrap_err().status,
            axum::http::StatusCode::CONFLICT
        );
        sessions.end_search(&id, analysis.id);
        assert!(!engine.control.is_stopped(), "an old search's end leaves the new one");
        sessions.end_search(&id, engine.id);
        assert!(engine.control.is_stopped() && sessions.get(&id).unwrap().search.is_none());
    }

    #[test]
    fn idle_games_are_closed_and_their_searches_stopped() {
        let mut sessions = Sessions::new(4, Duration::from_secs(60), 1);
        let id = sessions.open(game()).unwrap();
        let search = sessions.begin_search(&id, SearchKind::Analysis).unwrap();
        sessions.close_idle(Instant::now());
        assert_eq!(sessions.len(), 1);
        sessions.close_idle(Instant::now() + Duration::from_secs(61));
        assert_eq!(sessions.len(), 0);
        assert!(search.control.is_stopped());
        assert_eq!(sessions.get(&id).unwrap_err().status, axum::http::StatusCode::NOT_FOUND);
    }

    #[test]
    fn reviews_are_bounded_and_a_game_keeps_one() {
        let mut sessions = Sessions::new(4, Duration::from_secs(60), 2);
        let ids: Vec<String> = (0..3).map(|_| sessions.open(game()).unwrap()).collect();
        let first = sessions.begin_search(&ids[0], SearchKind::Review).unwrap();
        sessions.begin_search(&ids[1], SearchKind::Review).unwrap();
        assert_eq!(sessions.reviews_running(), 2);
        let refused = sessions.begin_search(&ids[2], SearchKind::Review).unwrap_err();
        assert_eq!(refused.status, axum::http::StatusCode::SERVICE_UNAVAILABLE);
        // A second review of a game replaces its first, within the bound.
        let second = sessions.begin_search(&ids[0], SearchKind::Review).unwrap();
        assert!(first.control.is_stopped() && !second.control.is_stopped());
        assert_eq!(sessions.reviews_running(), 2);
        // A game holds one review, forgotten when its moves change.
        let kept = KeptReview { review: stopped_review(), time: Duration::from_secs(1), cut: Some(Cut::Stopped) };
        let session = sessions.get(&ids[0]).unwrap();
        session.review = Some(kept);
        session.changed();
        assert!(session.review.is_none() && session.search.is_none());
        assert!(second.control.is_stopped());
        assert_eq!(sessions.reviews_running(), 1);
    }
}
