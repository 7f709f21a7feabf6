//! Reviewing a game on the server ([`dvonn_ai::review`]): the review runs
//! as one of the game's searches, streams each ply as it is judged, ends
//! with the whole review, and is kept with the game (one per game, its
//! last) for its view and for `GET /api/games/{id}/review`.
//!
//! Bounds: a review takes a search slot like any search, at most
//! [`ServerConfig::max_reviews`] games are reviewed at once, a review ends
//! after [`ServerConfig::max_review_time`] with the plies it finished, and
//! it stops when its client goes away, when another search of the game
//! starts (a second review, an analysis, an engine move), when the game's
//! moves change, and when the game is closed.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::extract::{Path, State};
use axum::response::sse::{Event, Sse};
use dvonn_ai::review::{DEFAULT_TIME, GameReview, PlyReview, ReviewOptions, graph, review};
use dvonn_ai::{EngineConfig, Limits};
use dvonn_core::{Game, Move};
use futures_util::Stream;
use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;

use crate::ServerConfig;
use crate::api::{AppState, SearchTicket, event, event_stream, seconds};
use crate::error::{ApiError, QueryArgs};
use crate::sessions::{ActiveSearch, SearchKind};

/// Why a review ended before the first ply of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Cut {
    /// Stopped: by the person, or by another search of the game.
    Stopped,
    /// It ran out of the server's time for a review.
    TimeLimit,
}

/// The review of a game's moves, kept with the game.
#[derive(Clone, Debug)]
pub(crate) struct KeptReview {
    /// The review: every ply, or the last plies when it was cut short.
    pub review: GameReview,
    /// The search time per position.
    pub time: Duration,
    /// Why it was cut short, if it was.
    pub cut: Option<Cut>,
}

/// A review as the page gets it: how it was run, the review in the JSON
/// form of `dvonn_ai::review::json`, and the evaluation graph.
#[derive(Debug, Serialize)]
struct ReviewDocument<'a> {
    /// Seconds of search per position.
    time: f64,
    /// Why the review was cut short (`stopped`, `time_limit`), or null.
    cut: Option<Cut>,
    /// The evaluation graph, an SVG picture whose bands and marks carry
    /// the `data-ply` of their ply.
    graph: String,
    #[serde(flatten)]
    review: &'a GameReview,
}

impl KeptReview {
    /// The engine's choice in the position after `ply` plies, when that
    /// position's move was reviewed.
    pub(crate) fn engine_move(&self, ply: usize) -> Option<Move> {
        self.review.ply(ply)?.engine_move
    }

    fn document(&self) -> ReviewDocument<'_> {
        ReviewDocument {
            time: self.time.as_secs_f64(),
            cut: self.cut,
            graph: graph::evaluation_graph(&self.review),
            review: &self.review,
        }
    }
}

/// The search time per position of a review when the request gives none.
pub(crate) fn default_time(config: &ServerConfig) -> Duration {
    DEFAULT_TIME.min(config.max_move_time)
}

/// The query of `POST /api/games/{id}/review`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ReviewQuery {
    time: Option<f64>,
}

/// A `ply` event: a ply judged, and how many are.
#[derive(Debug, Serialize)]
struct Progress<'a> {
    /// The plies judged so far.
    reviewed: usize,
    /// The plies of the game.
    total: usize,
    ply: &'a PlyReview,
}

/// `POST /api/games/{id}/review`: reviews the game, streaming its plies.
pub(crate) async fn start_review(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    QueryArgs(query): QueryArgs<ReviewQuery>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let time = match query.time {
        Some(time) => seconds("a review of", time, state.config.max_move_time)?,
        None => default_time(&state.config),
    };
    let (game, search) = {
        let mut sessions = state.sessions();
        let session = sessions.get(&id)?;
        if session.game.is_empty() {
            return Err(ApiError::unprocessable("the game has no moves yet: there is nothing to review"));
        }
        let game = session.game.clone();
        (game, sessions.begin_search(&id, SearchKind::Review)?)
    };
    let ticket = SearchTicket { state: Arc::clone(&state), game: id.clone(), search: search.id };
    let (events, receiver) = mpsc::unbounded_channel();
    tokio::spawn(run_review(state, id, game, time, search, events));
    Ok(event_stream(receiver, ticket))
}

/// Reviews `game` (the game `id`'s moves) at `time` a position within the
/// server's time for a review, sending a `ply` event per ply judged, then
/// keeps the review with the game, while it is still the game's search,
/// and sends it as a `done` event (or an `error` event).
async fn run_review(
    state: Arc<AppState>,
    id: String,
    game: Game,
    time: Duration,
    search: ActiveSearch,
    events: mpsc::UnboundedSender<Event>,
) {
    let total = game.len();
    let progress = events.clone();
    let mut reviewed = 0;
    let mut on_ply = move |ply: &PlyReview| {
        reviewed += 1;
        // A closed stream has stopped the review already.
        let _ = progress.send(event("ply", &Progress { reviewed, total, ply }));
    };
    let options = ReviewOptions::new(Limits::move_time(time));
    let job = state.searcher.run_with_engine(EngineConfig::default(), search.control.clone(), move |engine| {
        let stop = engine.stop_handle();
        review(engine, &game, &options, &stop, &mut on_ply)
    });
    tokio::pin!(job);
    let mut timed_out = false;
    let result = tokio::select! {
        result = &mut job => result,
        () = tokio::time::sleep(state.config.max_review_time) => {
            timed_out = true;
            search.control.stop();
            job.await
        }
    };
    let reviewed = match result {
        Ok(reviewed) => reviewed,
        Err(error) => {
            let _ = events.send(event("error", &serde_json::json!({ "error": error.message })));
            return;
        }
    };
    let cut = match (reviewed.complete, timed_out) {
        (true, _) => None,
        (false, true) => Some(Cut::TimeLimit),
        (false, false) => Some(Cut::Stopped),
    };
    let kept = KeptReview { review: reviewed, time, cut };
    let done = event("done", &kept.document());
    // Kept (before the page hears of it) only while it is the game's
    // search: not once the game's moves changed, another search began,
    // the game was closed, or the client went away.
    if let Ok(session) = state.sessions().get(&id)
        && session.is_searching(search.id)
    {
        session.review = Some(kept);
    }
    let _ = events.send(done);
}

/// `GET /api/games/{id}/review`: the game's last review.
pub(crate) async fn kept_review(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let mut sessions = state.sessions();
    let session = sessions.get(&id)?;
    let kept = session.review.as_ref().ok_or_else(|| {
        ApiError::not_found("the game has no review: review it first (POST to this address), or its moves changed")
    })?;
    let document =
        serde_json::to_value(kept.document()).map_err(|error| ApiError::internal(format!("the review: {error}")))?;
    Ok(Json(document))
}
