//! The web server of `dvonn serve`: play and analyse DVONN in a web browser.
//!
//! A local web server (axum on tokio) serving one page, built into the
//! library, and the JSON API it uses. The board is the SVG of
//! [`dvonn_notation::svg`], sent by the server with every view of a game;
//! the page adds the clicks, the highlighted targets and the panels. The
//! server embeds the libraries of the workspace through their public API
//! only, like the examples. [`run`] serves until Ctrl-C, as the `dvonn`
//! command does.
//!
//! To serve the page from a server of your own (TLS, authentication,
//! routes of your own beside it), or to test it in-process: [`router`]
//! gives the routes on an [`AppState`], [`sweep_idle_games`] closes the
//! games left idle, and [`AppState::close_all`] stops every search at the
//! end. `axum` (0.8) is then a public dependency.
//!
//! ```no_run
//! use std::sync::Arc;
//! use std::time::Duration;
//!
//! use dvonn_serve::{AppState, ServerConfig, router, sweep_idle_games};
//!
//! #[tokio::main]
//! async fn main() -> std::io::Result<()> {
//!     let state = Arc::new(AppState::new(ServerConfig::default()));
//!     let sweeper = tokio::spawn(sweep_idle_games(Arc::clone(&state), Duration::from_secs(60)));
//!     let app = router(Arc::clone(&state)).route("/health", axum::routing::get(|| async { "ok" }));
//!     let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
//!     let served = axum::serve(listener, app).await;
//!     sweeper.abort();
//!     state.close_all();
//!     served
//! }
//! ```
//!
//! # The API
//!
//! Every answer is JSON (the page and the board excepted); every error is a
//! 4xx or 5xx status with a body `{"error": "..."}` that says what was wrong.
//!
//! | request | what it does |
//! |---|---|
//! | `GET /` | the page (`?position=<position string>` opens that position) |
//! | `GET /assets/{file}` | the page's script, style sheet and icon |
//! | `GET /api/status` | the server's limits, levels and load: games open, searches running |
//! | `POST /api/games` | a new game: `{"you": "white"\|"black"\|"both", "level": "club"` or `"time": 0.5, "setup": "empty"\|"random", "seed": 7, "position": "..."}` (every field optional) |
//! | `POST /api/games/import` | a game from a text: `{"text": "...", "format": "record"\|"lg"\|"sgf"\|"codecup"}` (format detected when left out) |
//! | `GET /api/games/{id}?ply=N` | the game seen after ply N (default: its end) |
//! | `DELETE /api/games/{id}` | closes the game, stopping its search |
//! | `POST /api/games/{id}/moves` | the player's move: `{"move": "C3E3", "ply": N}` (from ply N, dropping the moves after it; default: the end) |
//! | `POST /api/games/{id}/engine-move` | the engine's move; answers when it is played |
//! | `POST /api/games/{id}/undo` | takes back the player's last move and the engine's replies (the last move when the player plays both sides) |
//! | `POST /api/games/{id}/stop` | stops the game's search: the engine plays the best move found so far, an analysis ends |
//! | `GET /api/games/{id}/analysis?ply=N&time=S` | server-sent events: `info` after each iteration (score, `exact`, principal variation), then `done` |
//! | `POST /api/games/{id}/review?time=S` | reviews the whole game, `S` seconds per position (default 0.5): server-sent events, `ply` as each ply is judged (from the last back), then `done` with the review |
//! | `GET /api/games/{id}/review` | the game's last review: every ply judged, a summary per player and the evaluation graph (SVG) |
//! | `GET /api/games/{id}/export?format=record\|lg` | the game as a game record or a Little Golem transcript |
//!
//! # Limits
//!
//! [`ServerConfig`] bounds what a client can ask for: the body of a
//! request, the number of games open (the least recently used idle one is
//! closed to make room), the searches running at once (more wait their
//! turn), the time of each search, and the reviews running at once and
//! their time. A search belongs to the request that started it: when the
//! client goes away (a closed tab, a stopped browser) the request is
//! dropped and its search stopped. A game has one search at most (a new
//! analysis or review stops the one running) and keeps one review, its
//! last, until its moves change.

#![deny(missing_docs)]

mod api;
mod assets;
mod error;
mod game;
mod review;
mod search;
mod sessions;
mod view;

use std::io::Write as _;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

pub use api::{AppState, router, sweep_idle_games};

/// The crate README's example, compiled as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctest;

/// Why the server could not start or stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ServeError {
    /// The threads of the server could not be started.
    #[error("cannot start the server's threads")]
    Threads(#[source] std::io::Error),
    /// The address cannot be listened on (taken, or not this machine's).
    #[error("cannot listen on {address}")]
    Listen {
        /// The address and port asked for.
        address: String,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// Writing the page's address on standard output failed.
    #[error("cannot write the page's address")]
    Output(#[source] std::io::Error),
    /// The server stopped on an error.
    #[error("the server stopped")]
    Stopped(#[source] std::io::Error),
}

/// What clients may ask of the server.
///
/// New limits may be added in any release: start from
/// [`ServerConfig::default`] and chain the `with_*` setters (or set the
/// fields of a mutable value).
///
/// ```
/// use std::time::Duration;
///
/// use dvonn_serve::ServerConfig;
///
/// let config = ServerConfig::default().with_max_searches(2).with_max_review_time(Duration::from_secs(120));
/// assert_eq!((config.max_searches, config.max_review_time.as_secs()), (2, 120));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ServerConfig {
    /// Games open at once; a new one closes the least recently used game
    /// that is not searching.
    pub max_games: usize,
    /// A game unused this long is closed.
    pub game_idle: Duration,
    /// Searches (engine moves and analyses) running at once; more wait.
    pub max_searches: usize,
    /// The longest time per engine move a game may ask for; every engine
    /// move stops by then, whatever its level.
    pub max_move_time: Duration,
    /// The longest analysis.
    pub max_analysis_time: Duration,
    /// Games reviewed at once; a review beyond them is refused.
    pub max_reviews: usize,
    /// The longest review, its wait for a search slot included: a review
    /// is stopped then, keeping the plies it finished.
    pub max_review_time: Duration,
    /// The largest request body, in bytes.
    pub max_body_bytes: usize,
    /// Transposition table of each engine, in MiB.
    pub hash_mb: usize,
}

impl Default for ServerConfig {
    /// Limits for a person's machine: a search per core (at most four), a
    /// minute per search, half the searches for reviews (at least one) and
    /// ten minutes per review, 64 games, 256 KiB per request.
    fn default() -> ServerConfig {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        let max_searches = cores.clamp(1, 4);
        ServerConfig {
            max_games: 64,
            game_idle: Duration::from_secs(3600),
            max_searches,
            max_move_time: Duration::from_secs(60),
            max_analysis_time: Duration::from_secs(60),
            max_reviews: (max_searches / 2).max(1),
            max_review_time: Duration::from_secs(600),
            max_body_bytes: 256 << 10,
            hash_mb: 32,
        }
    }
}

impl ServerConfig {
    /// Sets the games open at once.
    #[must_use]
    pub const fn with_max_games(mut self, max_games: usize) -> ServerConfig {
        self.max_games = max_games;
        self
    }

    /// Sets how long an unused game stays open.
    #[must_use]
    pub const fn with_game_idle(mut self, game_idle: Duration) -> ServerConfig {
        self.game_idle = game_idle;
        self
    }

    /// Sets the searches running at once.
    #[must_use]
    pub const fn with_max_searches(mut self, max_searches: usize) -> ServerConfig {
        self.max_searches = max_searches;
        self
    }

    /// Sets the longest time per engine move.
    #[must_use]
    pub const fn with_max_move_time(mut self, max_move_time: Duration) -> ServerConfig {
        self.max_move_time = max_move_time;
        self
    }

    /// Sets the longest analysis.
    #[must_use]
    pub const fn with_max_analysis_time(mut self, max_analysis_time: Duration) -> ServerConfig {
        self.max_analysis_time = max_analysis_time;
        self
    }

    /// Sets the games reviewed at once.
    #[must_use]
    pub const fn with_max_reviews(mut self, max_reviews: usize) -> ServerConfig {
        self.max_reviews = max_reviews;
        self
    }

    /// Sets the longest review.
    #[must_use]
    pub const fn with_max_review_time(mut self, max_review_time: Duration) -> ServerConfig {
        self.max_review_time = max_review_time;
        self
    }

    /// Sets the largest request body, in bytes.
    #[must_use]
    pub const fn with_max_body_bytes(mut self, max_body_bytes: usize) -> ServerConfig {
        self.max_body_bytes = max_body_bytes;
        self
    }

    /// Sets the transposition table of each engine, in MiB.
    #[must_use]
    pub const fn with_hash_mb(mut self, hash_mb: usize) -> ServerConfig {
        self.hash_mb = hash_mb;
        self
    }
}

/// How often closed games are looked for.
const SWEEP_INTERVAL: Duration = Duration::from_secs(60);

/// Serves on `host` and `port` (0: any free port) within the limits of
/// `config` until interrupted (Ctrl-C). The page's address is printed on
/// standard output first (`dvonn serve: listening on http://...`), and
/// opened in the default web browser when `open_browser` says so; a
/// warning goes to standard error when the address is reachable from other
/// machines.
pub fn run(host: &str, port: u16, open_browser: bool, config: ServerConfig) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("dvonn-serve")
        .build()
        .map_err(ServeError::Threads)?;
    runtime.block_on(serve(host, port, open_browser, config))
}

/// Listens on `host` and `port` and serves until Ctrl-C.
async fn serve(host: &str, port: u16, open_browser: bool, config: ServerConfig) -> Result<(), ServeError> {
    let listen_error = |source| ServeError::Listen { address: format!("{host}:{port}"), source };
    let listener = tokio::net::TcpListener::bind((host, port)).await.map_err(listen_error)?;
    let address = listener.local_addr().map_err(listen_error)?;
    let url = page_url(address);
    writeln!(std::io::stdout().lock(), "dvonn serve: listening on {url} (Ctrl-C stops)").map_err(ServeError::Output)?;
    if !address.ip().is_loopback() {
        eprintln!("dvonn serve: warning: {} is reachable from other machines", address.ip());
    }
    if open_browser && let Err(error) = open::that_detached(&url) {
        eprintln!("dvonn serve: cannot open a browser ({error}); open {url} yourself");
    }
    let state = Arc::new(api::AppState::new(config));
    let sweeper = tokio::spawn(api::sweep_idle_games(Arc::clone(&state), SWEEP_INTERVAL));
    let shutdown = async {
        // Without a Ctrl-C handler the server runs until killed.
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    let served = axum::serve(listener, router(Arc::clone(&state))).with_graceful_shutdown(shutdown).await;
    sweeper.abort();
    state.close_all();
    served.map_err(ServeError::Stopped)
}

/// The page's address for a listening `address` (an unspecified address is
/// reached through the loopback one).
fn page_url(address: SocketAddr) -> String {
    let ip = match address.ip() {
        ip if ip.is_unspecified() && ip.is_ipv4() => std::net::Ipv4Addr::LOCALHOST.into(),
        ip if ip.is_unspecified() => std::net::Ipv6Addr::LOCALHOST.into(),
        ip => ip,
    };
    format!("http://{}/", SocketAddr::new(ip, address.port()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_urls() {
        assert_eq!(page_url("127.0.0.1:8080".parse().unwrap()), "http://127.0.0.1:8080/");
        assert_eq!(page_url("0.0.0.0:80".parse().unwrap()), "http://127.0.0.1:80/");
        assert_eq!(page_url("[::]:8080".parse().unwrap()), "http://[::1]:8080/");
    }
}
