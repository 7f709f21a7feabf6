//! The routes of the server and the handlers of the JSON API (see the
//! table in [`super`]).

use std::convert::Infallible;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use axum::Json;
use axum::Router;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::routing::{get, post};
use dvonn_ai::{EngineConfig, Level, Limits, SearchInfo, SearchResult, UnknownLevel};
use dvonn_core::{Color, Game, Move, Position};
use dvonn_notation::{Format, read_any, write};
use futures_util::Stream;
use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;

use crate::ServerConfig;
use crate::assets;
use crate::error::{ApiError, JsonBody, QueryArgs};
use crate::game::{GameError, Opponent, Turn, new_game_tags};
use crate::review;
use crate::search::{SearchControl, Searcher, capped};
use crate::sessions::{SearchKind, Session, Sessions};
use crate::view::{EXPORTS, View, color_name};

/// What the handlers share: the open games, the searches, the limits. One
/// per server, shared by [`router`] and [`sweep_idle_games`].
#[derive(Debug)]
pub struct AppState {
    sessions: Mutex<Sessions>,
    pub(crate) searcher: Arc<Searcher>,
    pub(crate) config: ServerConfig,
}

impl AppState {
    /// A server with no game open yet, within the limits of `config`.
    pub fn new(config: ServerConfig) -> AppState {
        AppState {
            sessions: Mutex::new(Sessions::new(config.max_games, config.game_idle, config.max_reviews)),
            searcher: Arc::new(Searcher::new(config.max_searches, config.hash_mb, rand::random())),
            config,
        }
    }

    /// Closes every game, stopping their searches: when the server stops.
    pub fn close_all(&self) {
        self.sessions().close_all();
    }

    pub(crate) fn sessions(&self) -> MutexGuard<'_, Sessions> {
        // Every change to the games is made whole under the lock.
        self.sessions.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// The server's routes: the page, its assets and the API, at absolute
/// paths (`/`, `/assets/...`, `/api/...`, the paths the page asks for).
/// An `axum` 0.8 router with its state: serve it at the root of a server,
/// with routes and layers of your own beside it.
pub fn router(state: Arc<AppState>) -> Router {
    let max_body = state.config.max_body_bytes;
    Router::new()
        .route("/api/status", get(status))
        .route("/api/games", post(new_game))
        .route("/api/games/import", post(import_game))
        .route("/api/games/{id}", get(view_game).delete(close_game))
        .route("/api/games/{id}/moves", post(play_move))
        .route("/api/games/{id}/engine-move", post(engine_move))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/stop", post(stop))
        .route("/api/games/{id}/analysis", get(analysis))
        .route("/api/games/{id}/review", get(review::kept_review).post(review::start_review))
        .route("/api/games/{id}/export", get(export))
        .merge(assets::routes())
        .fallback(|| async { ApiError::not_found("no such page or API endpoint") })
        .method_not_allowed_fallback(|| async {
            ApiError::new(StatusCode::METHOD_NOT_ALLOWED, "this endpoint does not take that method")
        })
        .layer(DefaultBodyLimit::max(max_body))
        .with_state(state)
}

/// Closes the games left unused longer than the configuration's
/// [`game_idle`](crate::ServerConfig::game_idle), checking every `every`;
/// runs until dropped. Spawn it beside the [`router`] on the same state.
pub async fn sweep_idle_games(state: Arc<AppState>, every: Duration) {
    let mut interval = tokio::time::interval(every);
    loop {
        interval.tick().await;
        state.sessions().close_idle(Instant::now());
    }
}

impl From<GameError> for ApiError {
    fn from(error: GameError) -> ApiError {
        let message = error.to_string();
        match error {
            GameError::PastTheEnd { .. } => ApiError::bad_request(message),
            GameError::NotYourTurn | GameError::NothingToUndo => ApiError::conflict(message),
            GameError::Illegal { .. } => ApiError::unprocessable(message),
        }
    }
}

/// The answer of `GET /api/status`.
#[derive(Debug, Serialize)]
struct Status {
    version: &'static str,
    games: usize,
    max_games: usize,
    searches_running: usize,
    max_searches: usize,
    levels: Vec<&'static str>,
    default_level: &'static str,
    max_move_time: f64,
    max_analysis_time: f64,
    reviews_running: usize,
    max_reviews: usize,
    max_review_time: f64,
    default_review_time: f64,
    max_body_bytes: usize,
}

async fn status(State(state): State<Arc<AppState>>) -> Json<Status> {
    let config = &state.config;
    let (games, reviews_running) = {
        let sessions = state.sessions();
        (sessions.len(), sessions.reviews_running())
    };
    Json(Status {
        version: env!("CARGO_PKG_VERSION"),
        games,
        max_games: config.max_games,
        searches_running: state.searcher.running(),
        max_searches: config.max_searches,
        levels: Level::ALL.iter().map(|level| level.name()).collect(),
        default_level: Level::Club.name(),
        max_move_time: config.max_move_time.as_secs_f64(),
        max_analysis_time: config.max_analysis_time.as_secs_f64(),
        reviews_running,
        max_reviews: config.max_reviews,
        max_review_time: config.max_review_time.as_secs_f64(),
        default_review_time: review::default_time(config).as_secs_f64(),
        max_body_bytes: config.max_body_bytes,
    })
}

/// Who the person plays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Side {
    /// White, against the engine.
    #[default]
    White,
    /// Black, against the engine.
    Black,
    /// Both sides: no engine.
    Both,
}

/// The board a new game starts from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Setup {
    /// The empty board: the placement phase.
    #[default]
    Empty,
    /// The 49 pieces laid at random: the movement phase.
    Random,
}

/// The body of `POST /api/games`.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct NewGame {
    you: Side,
    level: Option<String>,
    time: Option<f64>,
    setup: Setup,
    seed: Option<u64>,
    position: Option<String>,
}

/// Reads a time in seconds, more than 0 and at most `max`.
pub(crate) fn seconds(what: &str, seconds: f64, max: Duration) -> Result<Duration, ApiError> {
    if !(seconds > 0.0 && seconds <= max.as_secs_f64()) {
        return Err(ApiError::bad_request(format!(
            "{what} {seconds} s: it must be more than 0 and at most {} s",
            max.as_secs_f64()
        )));
    }
    Ok(Duration::from_secs_f64(seconds))
}

/// Reads a position string.
fn parse_position(text: &str) -> Result<Position, ApiError> {
    text.trim().parse().map_err(|error| ApiError::bad_request(format!("cannot read the position: {error}")))
}

async fn new_game(
    State(state): State<Arc<AppState>>,
    JsonBody(request): JsonBody<NewGame>,
) -> Result<(StatusCode, Json<View>), ApiError> {
    let opponent = match request.you {
        Side::Both if request.level.is_some() || request.time.is_some() => {
            return Err(ApiError::bad_request("a game of both sides has no engine: leave out level and time"));
        }
        Side::Both => None,
        side => {
            let engine = if side == Side::White { Color::Black } else { Color::White };
            Some(match (&request.level, request.time) {
                (Some(_), Some(_)) => {
                    return Err(ApiError::bad_request("give the engine a level or a time per move, not both"));
                }
                (None, Some(time)) => {
                    Opponent::timed(engine, seconds("a time per move of", time, state.config.max_move_time)?)
                }
                (None, None) => Opponent::level(engine, Level::Club),
                (Some(name), None) => {
                    let level = name.parse().map_err(|error: UnknownLevel| ApiError::bad_request(error.to_string()))?;
                    Opponent::level(engine, level)
                }
            })
        }
    };
    let start = match (&request.position, request.setup, request.seed) {
        (Some(_), Setup::Random, _) => {
            return Err(ApiError::bad_request("give a position or a random setup, not both"));
        }
        (_, Setup::Empty, Some(_)) => return Err(ApiError::bad_request("a seed is for a random setup only")),
        (Some(text), Setup::Empty, None) => parse_position(text)?,
        (None, Setup::Empty, None) => Position::new(),
        (None, Setup::Random, seed) => Position::random_setup_from_seed(seed.unwrap_or_else(rand::random)),
    };
    let tags = new_game_tags(opponent.as_ref());
    open_game(&state, Session::new(Game::new(start), opponent, tags))
}

/// The body of `POST /api/games/import`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Import {
    text: String,
    format: Option<String>,
}

async fn import_game(
    State(state): State<Arc<AppState>>,
    JsonBody(request): JsonBody<Import>,
) -> Result<(StatusCode, Json<View>), ApiError> {
    let format = match &request.format {
        Some(name) => Some(name.parse::<Format>().map_err(|error| ApiError::bad_request(error.to_string()))?),
        None => None,
    };
    if request.text.trim().is_empty() {
        return Err(ApiError::bad_request("the text is empty: paste or upload a game"));
    }
    let record = read_any(&request.text, format)
        .map_err(|error| ApiError::bad_request(format!("cannot read the game: {error}")))?;
    let game = record.replay().map_err(|error| ApiError::unprocessable(error.to_string()))?;
    record.check_result(&game).map_err(|error| ApiError::unprocessable(error.to_string()))?;
    open_game(&state, Session::new(game, None, record.tags))
}

/// Opens `session`: 201 and its view.
fn open_game(state: &AppState, session: Session) -> Result<(StatusCode, Json<View>), ApiError> {
    let mut sessions = state.sessions();
    let id = sessions.open(session)?;
    Ok((StatusCode::CREATED, end_view(&id, sessions.get(&id)?)))
}

/// The view of the end of the game `id`.
fn end_view(id: &str, session: &Session) -> Json<View> {
    Json(session.view(id, session.game.len()))
}

/// The query of the requests that show a ply of a game.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PlyQuery {
    ply: Option<usize>,
}

async fn view_game(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    QueryArgs(query): QueryArgs<PlyQuery>,
) -> Result<Json<View>, ApiError> {
    let mut sessions = state.sessions();
    let session = sessions.get(&id)?;
    let ply = session.checked_ply(query.ply)?;
    Ok(Json(session.view(&id, ply)))
}

async fn close_game(State(state): State<Arc<AppState>>, Path(id): Path<String>) -> Result<StatusCode, ApiError> {
    state.sessions().close(&id)?;
    Ok(StatusCode::NO_CONTENT)
}

/// The body of `POST /api/games/{id}/moves`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayMove {
    #[serde(rename = "move")]
    mv: String,
    ply: Option<usize>,
}

async fn play_move(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<PlayMove>,
) -> Result<Json<View>, ApiError> {
    let mv: Move = request.mv.trim().parse().map_err(|error| ApiError::bad_request(format!("{error}")))?;
    let mut sessions = state.sessions();
    let session = sessions.get(&id)?;
    let ply = session.checked_ply(request.ply)?;
    session.play_yours(ply, mv)?;
    session.changed();
    Ok(end_view(&id, session))
}

/// Forgets a search of a game when dropped: when its request ends, however
/// it ends.
pub(crate) struct SearchTicket {
    pub(crate) state: Arc<AppState>,
    pub(crate) game: String,
    pub(crate) search: u64,
}

impl Drop for SearchTicket {
    fn drop(&mut self) {
        self.state.sessions().end_search(&self.game, self.search);
    }
}

async fn engine_move(State(state): State<Arc<AppState>>, Path(id): Path<String>) -> Result<Json<View>, ApiError> {
    let (position, opponent, generation, search) = {
        let mut sessions = state.sessions();
        let session = sessions.get(&id)?;
        match session.turn(session.game.len()) {
            Turn::Engine => {}
            Turn::You => return Err(ApiError::conflict("it is your turn, not the engine's")),
            Turn::Over => return Err(ApiError::conflict("the game is over")),
        }
        let opponent =
            session.opponent.clone().ok_or_else(|| ApiError::internal("the engine's turn with no engine"))?;
        let (position, generation) = (*session.game.position(), session.generation);
        (position, opponent, generation, sessions.begin_search(&id, SearchKind::Engine)?)
    };
    let _ticket = SearchTicket { state: Arc::clone(&state), game: id.clone(), search: search.id };
    let limits = capped(opponent.limits, state.config.max_move_time);
    let result = state.searcher.run(position, opponent.config, limits, search.control, |_: &SearchInfo| {}).await?;
    let mut sessions = state.sessions();
    let session = sessions.get(&id)?;
    if session.generation != generation {
        return Err(ApiError::conflict("the game changed while the engine was thinking: its move was dropped"));
    }
    let mv = result.best_move.ok_or_else(|| ApiError::internal("the engine found no move"))?;
    session.play_engine(mv)?;
    session.changed();
    Ok(end_view(&id, session))
}

async fn undo(State(state): State<Arc<AppState>>, Path(id): Path<String>) -> Result<Json<View>, ApiError> {
    let mut sessions = state.sessions();
    let session = sessions.get(&id)?;
    session.undo()?;
    session.changed();
    Ok(end_view(&id, session))
}

/// The answer of `POST /api/games/{id}/stop`.
#[derive(Debug, Serialize)]
struct Stopped {
    /// Whether a search was running.
    stopped: bool,
}

async fn stop(State(state): State<Arc<AppState>>, Path(id): Path<String>) -> Result<Json<Stopped>, ApiError> {
    let mut sessions = state.sessions();
    let session = sessions.get(&id)?;
    // The search stays the game's until its request ends: an engine move
    // is still played.
    let stopped = match &session.search {
        Some(search) => {
            search.control.stop();
            true
        }
        None => false,
    };
    Ok(Json(Stopped { stopped }))
}

/// The query of `GET /api/games/{id}/analysis`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct AnalysisQuery {
    ply: Option<usize>,
    time: Option<f64>,
}

/// An `info` or `done` event of an analysis: the search so far, the score
/// for the side to move.
#[derive(Debug, Serialize)]
struct AnalysisReport {
    /// The side the score is for.
    side: &'static str,
    depth: u32,
    /// The score in pieces of final margin.
    score: f64,
    /// The score as `dvonn analyze` writes it (`-1.25`).
    score_text: String,
    /// Whether the score is proven: the final margin with best play.
    exact: bool,
    pv: Vec<String>,
    nodes: u64,
    nps: u64,
    /// Milliseconds since the search started.
    time_ms: u128,
}

impl AnalysisReport {
    fn of_info(side: Color, info: &SearchInfo) -> AnalysisReport {
        AnalysisReport {
            side: color_name(side),
            depth: info.depth,
            score: info.score.pieces(),
            score_text: info.score.to_string(),
            exact: info.exact,
            pv: info.pv.iter().map(Move::to_string).collect(),
            nodes: info.nodes,
            nps: info.nps,
            time_ms: info.elapsed.as_millis(),
        }
    }

    fn of_result(side: Color, result: &SearchResult) -> AnalysisReport {
        let nps = (result.nodes as f64 / result.elapsed.as_secs_f64().max(1e-6)) as u64;
        AnalysisReport {
            side: color_name(side),
            depth: result.depth,
            score: result.score.pieces(),
            score_text: result.score.to_string(),
            exact: result.exact,
            pv: result.pv.iter().map(Move::to_string).collect(),
            nodes: result.nodes,
            nps,
            time_ms: result.elapsed.as_millis(),
        }
    }
}

/// An event of a stream (an analysis, a review).
pub(crate) fn event(name: &str, data: &impl Serialize) -> Event {
    Event::default().event(name).data(serde_json::to_string(data).unwrap_or_else(|_| "{}".to_string()))
}

async fn analysis(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    QueryArgs(query): QueryArgs<AnalysisQuery>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let max = state.config.max_analysis_time;
    let time = match query.time {
        Some(time) => seconds("an analysis of", time, max)?,
        None => max,
    };
    let (position, search) = {
        let mut sessions = state.sessions();
        let session = sessions.get(&id)?;
        let ply = session.checked_ply(query.ply)?;
        let position = session.game.positions()[ply];
        if position.is_game_over() {
            return Err(ApiError::unprocessable(format!(
                "the game is over after ply {ply}: there is nothing to analyse"
            )));
        }
        (position, sessions.begin_search(&id, SearchKind::Analysis)?)
    };
    let ticket = SearchTicket { state: Arc::clone(&state), game: id, search: search.id };
    let (events, receiver) = mpsc::unbounded_channel();
    let searcher = Arc::clone(&state.searcher);
    tokio::spawn(run_analysis(searcher, position, time, search.control, events));
    Ok(event_stream(receiver, ticket))
}

/// The server-sent events `receiver` gets, until its senders are gone.
/// The stream owns the search's `ticket`: when the client goes away the
/// stream is dropped, and the search with it.
pub(crate) fn event_stream(
    receiver: mpsc::UnboundedReceiver<Event>,
    ticket: SearchTicket,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let stream = futures_util::stream::unfold((receiver, ticket), |(mut receiver, ticket)| async move {
        let event = receiver.recv().await?;
        Some((Ok(event), (receiver, ticket)))
    });
    Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(1)))
}

/// Analyses `position` for `time` at most, sending an `info` event per
/// iteration and a `done` event (or an `error` event) at the end.
async fn run_analysis(
    searcher: Arc<Searcher>,
    position: Position,
    time: Duration,
    control: SearchControl,
    events: mpsc::UnboundedSender<Event>,
) {
    let side = position.side_to_move();
    let infos = events.clone();
    let report = move |info: &SearchInfo| {
        // A closed stream has stopped the search already.
        let _ = infos.send(event("info", &AnalysisReport::of_info(side, info)));
    };
    let limits = Limits::move_time(time);
    let result = match searcher.run(position, EngineConfig::default(), limits, control, report).await {
        Ok(result) => result,
        Err(error) => {
            let _ = events.send(event("error", &serde_json::json!({ "error": error.message })));
            return;
        }
    };
    let mut done = serde_json::to_value(AnalysisReport::of_result(side, &result)).unwrap_or_default();
    done["best"] = result.best_move.map(|mv| mv.to_string()).into();
    let _ = events.send(event("done", &done));
}

/// The query of `GET /api/games/{id}/export`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ExportQuery {
    format: Option<String>,
}

/// The answer of `GET /api/games/{id}/export`.
#[derive(Debug, Serialize)]
struct Exported {
    format: &'static str,
    text: String,
    filename: String,
}

async fn export(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    QueryArgs(query): QueryArgs<ExportQuery>,
) -> Result<Json<Exported>, ApiError> {
    let format = match query.format.as_deref() {
        None => Format::Record,
        Some(name) => name.parse::<Format>().map_err(|error| ApiError::bad_request(error.to_string()))?,
    };
    if !EXPORTS.contains(&format) {
        return Err(ApiError::bad_request(format!("a game is exported as a record or lg, not as a {format}")));
    }
    let record = state.sessions().get(&id)?.record();
    let text = write(&record, format).map_err(|error| ApiError::unprocessable(error.to_string()))?;
    let filename = format!("dvonn-game-{}.txt", format.short_name());
    Ok(Json(Exported { format: format.short_name(), text, filename }))
}
