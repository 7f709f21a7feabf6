//! The server of `dvonn serve`: every endpoint of the API over HTTP
//! requests, good and bad (malformed positions and moves, illegal moves,
//! oversized bodies, unknown games), searches stopped midway or left by
//! their client, and game reviews within their bounds. (The `dvonn`
//! command's tests run the real binary on a port.)

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use dvonn_core::{Author, Game, Position};
use dvonn_notation::{Format, GameRecord, write};
use dvonn_serve::{AppState, ServerConfig, router};
use http_body_util::BodyExt;
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};
use tower::ServiceExt;

/// A server in this process, with small limits.
fn server() -> Router {
    server_with(ServerConfig::default().with_max_searches(2).with_hash_mb(4))
}

fn server_with(config: ServerConfig) -> Router {
    router(Arc::new(AppState::new(config)))
}

/// Sends a request; returns the status and the JSON answer.
async fn call(app: &Router, method: &str, uri: &str, body: Option<Value>) -> (StatusCode, Value) {
    let builder = Request::builder().method(method).uri(uri);
    let request = match body {
        Some(body) => builder.header(header::CONTENT_TYPE, "application/json").body(Body::from(body.to_string())),
        None => builder.body(Body::empty()),
    };
    let response = app.clone().oneshot(request.unwrap()).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let value = if bytes.is_empty() { Value::Null } else { serde_json::from_slice(&bytes).unwrap() };
    (status, value)
}

/// Sends a request that must succeed with `expected`; returns the answer.
async fn ok(app: &Router, method: &str, uri: &str, body: Option<Value>, expected: StatusCode) -> Value {
    let (status, value) = call(app, method, uri, body).await;
    assert_eq!(status, expected, "{method} {uri}: {value}");
    value
}

/// Sends a request that must fail with `expected` and a JSON error that
/// contains `words`.
async fn fails(app: &Router, method: &str, uri: &str, body: Option<Value>, expected: StatusCode, words: &str) {
    let (status, value) = call(app, method, uri, body).await;
    assert_eq!(status, expected, "{method} {uri}: {value}");
    let error = value["error"].as_str().unwrap_or_else(|| panic!("{method} {uri}: no JSON error in {value}"));
    assert!(error.contains(words), "{method} {uri}: {error:?} does not say {words:?}");
}

async fn new_game(app: &Router, body: Value) -> Value {
    ok(app, "POST", "/api/games", Some(body), StatusCode::CREATED).await
}

fn id(view: &Value) -> String {
    view["id"].as_str().unwrap().to_string()
}

async fn searches_running(app: &Router) -> u64 {
    ok(app, "GET", "/api/status", None, StatusCode::OK).await["searches_running"].as_u64().unwrap()
}

/// How long a change expected within milliseconds may take on a busy
/// machine: half the minute an engine move or an analysis of the tests
/// thinks when nothing stops it.
const GENEROUS: Duration = Duration::from_secs(30);

/// Waits until `count` searches run (at most [`GENEROUS`]); panics
/// otherwise.
async fn wait_for_searches(app: &Router, count: u64) {
    let start = Instant::now();
    while searches_running(app).await != count {
        assert!(start.elapsed() < GENEROUS, "not {count} searches running after {GENEROUS:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Waits until no search runs (at most [`GENEROUS`]); panics otherwise.
async fn wait_for_no_search(app: &Router) {
    wait_for_searches(app, 0).await;
}

/// The events of a server-sent event stream: `(name, data)`, read until the
/// stream ends or `until` returns true.
async fn read_events(body: &mut Body, mut until: impl FnMut(&str, &Value) -> bool) -> Vec<(String, Value)> {
    let mut text = String::new();
    let mut events = Vec::new();
    while let Some(frame) = body.frame().await {
        if let Ok(data) = frame.unwrap().into_data() {
            text.push_str(std::str::from_utf8(&data).unwrap());
        }
        while let Some(end) = text.find("\n\n") {
            let block: String = text.drain(..end + 2).collect();
            let name = block.lines().find_map(|line| line.strip_prefix("event: ")).map(str::to_string);
            let data = block.lines().find_map(|line| line.strip_prefix("data: "));
            if let (Some(name), Some(data)) = (name, data) {
                let data: Value = serde_json::from_str(data).unwrap();
                let stop = until(&name, &data);
                events.push((name, data));
                if stop {
                    return events;
                }
            }
        }
    }
    events
}

/// Asks for the engine's move in the game at `game`, in a task of its own;
/// the task ends with the status and the answer.
fn ask_engine_move(app: &Router, game: &str) -> tokio::task::JoinHandle<(StatusCode, Value)> {
    let (app, uri) = (app.clone(), format!("{game}/engine-move"));
    tokio::spawn(async move { call(&app, "POST", &uri, None).await })
}

/// Opens an analysis stream.
async fn open_analysis(app: &Router, uri: &str) -> Body {
    open_stream(app, "GET", uri).await
}

/// Opens a review stream.
async fn open_review(app: &Router, uri: &str) -> Body {
    open_stream(app, "POST", uri).await
}

/// Opens a stream of server-sent events.
async fn open_stream(app: &Router, method: &str, uri: &str) -> Body {
    let request = Request::builder().method(method).uri(uri).body(Body::empty()).unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK, "{uri}");
    assert_eq!(response.headers()[header::CONTENT_TYPE], "text/event-stream");
    response.into_body()
}

#[tokio::test]
async fn the_page_and_its_assets() {
    let app = server();
    let response = app.clone().oneshot(Request::get("/").body(Body::empty()).unwrap()).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()[header::CONTENT_TYPE], "text/html; charset=utf-8");
    assert!(response.headers()[header::CONTENT_SECURITY_POLICY].to_str().unwrap().contains("default-src 'self'"));
    let page = response.into_body().collect().await.unwrap().to_bytes();
    let page = std::str::from_utf8(&page).unwrap();
    for asset in ["app.js", "style.css", "favicon.svg"] {
        assert!(page.contains(&format!("/assets/{asset}")), "the page loads {asset}");
        let response =
            app.clone().oneshot(Request::get(format!("/assets/{asset}")).body(Body::empty()).unwrap()).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{asset}");
    }
    fails(&app, "GET", "/assets/secret.txt", None, StatusCode::NOT_FOUND, "no file").await;
    fails(&app, "GET", "/no/such/page", None, StatusCode::NOT_FOUND, "no such page").await;
    fails(&app, "PUT", "/api/games", None, StatusCode::METHOD_NOT_ALLOWED, "method").await;
}

#[tokio::test]
async fn the_status_tells_the_limits_and_the_load() {
    let app = server();
    let status = ok(&app, "GET", "/api/status", None, StatusCode::OK).await;
    assert_eq!(status["levels"], json!(["beginner", "casual", "club", "expert", "master"]));
    assert_eq!(status["max_searches"], 2);
    assert_eq!(status["games"], 0);
    assert_eq!((status["max_reviews"].as_u64(), status["reviews_running"].as_u64()), (Some(1), Some(0)));
    assert_eq!((status["max_review_time"].as_f64(), status["default_review_time"].as_f64()), (Some(600.0), Some(0.5)));
    new_game(&app, json!({})).await;
    assert_eq!(ok(&app, "GET", "/api/status", None, StatusCode::OK).await["games"], 1);
}

#[tokio::test]
async fn new_games_in_every_setting() {
    let app = server();
    let view = new_game(&app, json!({})).await;
    assert_eq!((view["you"].as_str(), view["turn"].as_str()), (Some("white"), Some("you")));
    assert_eq!(view["phase"], "placement");
    assert_eq!(view["legal"].as_array().unwrap().len(), 49);
    assert_eq!(view["position"], Position::new().to_string());
    assert!(view["svg"].as_str().unwrap().starts_with("<svg"));
    assert_eq!(view["svg"].as_str().unwrap().matches(r#"class="cell""#).count(), 49);
    assert!(view["engine"].as_str().unwrap().contains("(club)"));
    assert_eq!(view["exports"], json!(["record", "lg"]));

    let view = new_game(&app, json!({"you": "black", "time": 0.5})).await;
    assert_eq!(view["turn"], "engine");
    assert!(view["engine"].as_str().unwrap().contains("0.5 s/move"));

    let random = json!({"you": "both", "setup": "random", "seed": 11});
    let view = new_game(&app, random.clone()).await;
    assert_eq!(view["position"], Position::random_setup_from_seed(11).to_string());
    assert_eq!(view["engine"], Value::Null);
    assert_eq!(view["exports"], json!(["record"]), "a Little Golem transcript starts from the empty board");
    assert_eq!(new_game(&app, random).await["position"], view["position"], "the same seed, the same setup");

    let position = "........./........../BWD......../........../......... w m";
    let view = new_game(&app, json!({"you": "black", "level": "beginner", "position": position})).await;
    assert_eq!((view["position"].as_str(), view["turn"].as_str()), (Some(position), Some("engine")));
}

#[tokio::test]
async fn bad_new_games_are_refused() {
    let app = server();
    let post = |body: Value| {
        let app = app.clone();
        async move { call(&app, "POST", "/api/games", Some(body)).await }
    };
    let cases = [
        (json!({"you": "both", "position": "not a position"}), StatusCode::BAD_REQUEST, "cannot read the position"),
        (
            json!({"you": "both", "position": "........./........../BWD......../........../......... x m"}),
            StatusCode::BAD_REQUEST,
            "cannot read the position",
        ),
        (json!({"level": "grandmaster"}), StatusCode::BAD_REQUEST, "unknown level"),
        (json!({"level": "club", "time": 1}), StatusCode::BAD_REQUEST, "not both"),
        (json!({"time": 0}), StatusCode::BAD_REQUEST, "more than 0"),
        (json!({"time": 3600}), StatusCode::BAD_REQUEST, "at most 60 s"),
        (json!({"you": "both", "level": "club"}), StatusCode::BAD_REQUEST, "no engine"),
        (json!({"seed": 4}), StatusCode::BAD_REQUEST, "random setup only"),
        (json!({"setup": "random", "position": "x"}), StatusCode::BAD_REQUEST, "not both"),
        (json!({"you": "red"}), StatusCode::UNPROCESSABLE_ENTITY, "unknown variant"),
        (json!({"colour": "white"}), StatusCode::UNPROCESSABLE_ENTITY, "unknown field"),
        (json!([1, 2]), StatusCode::BAD_REQUEST, "JSON"),
    ];
    for (body, status, words) in cases {
        let (got, value) = post(body.clone()).await;
        assert_eq!(got, status, "{body}: {value}");
        assert!(value["error"].as_str().unwrap().contains(words), "{body}: {value}");
    }
    let request = |content_type: &str, body: &str| {
        Request::post("/api/games")
            .header(header::CONTENT_TYPE, content_type)
            .body(Body::from(body.to_string()))
            .unwrap()
    };
    for (request, status) in [
        (request("application/json", "{\"you\": "), StatusCode::BAD_REQUEST),
        (request("text/plain", "{}"), StatusCode::UNSUPPORTED_MEDIA_TYPE),
    ] {
        let response = app.clone().oneshot(request).await.unwrap();
        assert_eq!(response.status(), status);
        let body = response.into_body().collect().await.unwrap().to_bytes();
        let value: Value = serde_json::from_slice(&body).unwrap();
        assert!(value["error"].is_string(), "{value}");
    }
    assert_eq!(ok(&app, "GET", "/api/status", None, StatusCode::OK).await["games"], 0);
}

#[tokio::test]
async fn an_oversized_body_is_refused_and_the_server_goes_on() {
    let app = server_with(ServerConfig::default().with_max_body_bytes(1024));
    let text = "E3 ".repeat(1000);
    fails(
        &app,
        "POST",
        "/api/games/import",
        Some(json!({ "text": text })),
        StatusCode::PAYLOAD_TOO_LARGE,
        "length limit",
    )
    .await;
    new_game(&app, json!({})).await;
}

#[tokio::test]
async fn unknown_games_are_404_on_every_endpoint() {
    let app = server();
    let missing = "/api/games/0123456789abcdef0123456789abcdef";
    let move_body = Some(json!({"move": "E3"}));
    for (method, suffix, body) in [
        ("GET", "", None),
        ("DELETE", "", None),
        ("POST", "/moves", move_body),
        ("POST", "/engine-move", None),
        ("POST", "/undo", None),
        ("POST", "/stop", None),
        ("GET", "/analysis", None),
        ("POST", "/review", None),
        ("GET", "/review", None),
        ("GET", "/export", None),
    ] {
        fails(&app, method, &format!("{missing}{suffix}"), body, StatusCode::NOT_FOUND, "no game").await;
    }
}

#[tokio::test]
async fn moves_are_checked() {
    let app = server();
    let view = new_game(&app, json!({"you": "black", "level": "beginner"})).await;
    let game = format!("/api/games/{}", id(&view));
    let moves = format!("{game}/moves");
    fails(&app, "POST", &moves, Some(json!({"move": "E3"})), StatusCode::CONFLICT, "the engine's turn").await;
    let view = ok(&app, "POST", &format!("{game}/engine-move"), None, StatusCode::OK).await;
    assert_eq!((view["plies"].as_u64(), view["turn"].as_str()), (Some(1), Some("you")));
    assert_eq!(view["moves"][0]["by"], "engine");
    let taken = view["moves"][0]["move"].as_str().unwrap().to_string();
    fails(&app, "POST", &moves, Some(json!({"move": taken})), StatusCode::UNPROCESSABLE_ENTITY, "is not empty").await;
    fails(&app, "POST", &moves, Some(json!({"move": "C3E3"})), StatusCode::UNPROCESSABLE_ENTITY, "placement phase")
        .await;
    fails(&app, "POST", &moves, Some(json!({"move": "Z9"})), StatusCode::BAD_REQUEST, "not a move").await;
    fails(&app, "POST", &moves, Some(json!({"move": "E3", "ply": 7})), StatusCode::BAD_REQUEST, "past the end").await;
    fails(&app, "POST", &moves, Some(json!({"mv": "E3"})), StatusCode::UNPROCESSABLE_ENTITY, "unknown field").await;
    fails(&app, "POST", &format!("{game}/engine-move"), None, StatusCode::CONFLICT, "your turn").await;
    let legal = view["legal"][0].as_str().unwrap();
    let view = ok(&app, "POST", &moves, Some(json!({"move": legal.to_lowercase()})), StatusCode::OK).await;
    assert_eq!((view["plies"].as_u64(), view["turn"].as_str()), (Some(2), Some("engine")));
    assert_eq!(view["moves"][1]["by"], "you");
}

#[tokio::test]
async fn viewing_undoing_and_closing() {
    let app = server();
    let view = new_game(&app, json!({"level": "beginner"})).await;
    let game = format!("/api/games/{}", id(&view));
    fails(&app, "POST", &format!("{game}/undo"), None, StatusCode::CONFLICT, "nothing to undo").await;
    let mut view = view;
    let mut mine = Vec::new();
    for _ in 0..2 {
        mine.push(view["legal"][0].clone());
        ok(&app, "POST", &format!("{game}/moves"), Some(json!({"move": mine.last()})), StatusCode::OK).await;
        view = ok(&app, "POST", &format!("{game}/engine-move"), None, StatusCode::OK).await;
    }
    assert_eq!(view["plies"], 4);
    let start = ok(&app, "GET", &format!("{game}?ply=0"), None, StatusCode::OK).await;
    assert_eq!((start["ply"].as_u64(), start["plies"].as_u64()), (Some(0), Some(4)));
    assert_eq!(start["position"], Position::new().to_string());
    let first = ok(&app, "GET", &format!("{game}?ply=1"), None, StatusCode::OK).await;
    assert!(first["svg"].as_str().unwrap().contains(r#"class="placed""#), "the last move is marked");
    fails(&app, "GET", &format!("{game}?ply=5"), None, StatusCode::BAD_REQUEST, "past the end").await;
    fails(&app, "GET", &format!("{game}?ply=minus"), None, StatusCode::BAD_REQUEST, "ply").await;
    fails(&app, "GET", &format!("{game}?colour=white"), None, StatusCode::BAD_REQUEST, "unknown field").await;
    let view = ok(&app, "POST", &format!("{game}/undo"), None, StatusCode::OK).await;
    assert_eq!(view["plies"], 2, "the player's move and the engine's reply");
    assert_eq!(view["moves"][0]["move"], mine[0]);
    // A move from an earlier ply drops the moves after it.
    let other = start["legal"][5].clone();
    let view = ok(&app, "POST", &format!("{game}/moves"), Some(json!({"move": other, "ply": 0})), StatusCode::OK).await;
    assert_eq!((view["plies"].as_u64(), view["moves"][0]["move"].clone()), (Some(1), other));
    assert_eq!(ok(&app, "POST", &format!("{game}/stop"), None, StatusCode::OK).await, json!({"stopped": false}));
    ok(&app, "DELETE", &game, None, StatusCode::NO_CONTENT).await;
    fails(&app, "GET", &game, None, StatusCode::NOT_FOUND, "no game").await;
}

#[tokio::test]
async fn a_whole_game_against_the_engine_to_the_end() {
    let app = server();
    let view = new_game(&app, json!({"level": "beginner", "setup": "random", "seed": 5})).await;
    let game = format!("/api/games/{}", id(&view));
    let mut view = view;
    for _ in 0..200 {
        match view["turn"].as_str().unwrap() {
            "over" => break,
            "engine" => view = ok(&app, "POST", &format!("{game}/engine-move"), None, StatusCode::OK).await,
            _ => {
                let mv = view["legal"][0].clone();
                view = ok(&app, "POST", &format!("{game}/moves"), Some(json!({ "move": mv })), StatusCode::OK).await;
            }
        }
    }
    assert_eq!(view["turn"], "over");
    let (white, black) = (view["score"]["white"].as_u64().unwrap(), view["score"]["black"].as_u64().unwrap());
    assert!(view["result"].as_str().unwrap().contains(&format!("({white}-{black})")), "{}", view["result"]);
    fails(&app, "POST", &format!("{game}/engine-move"), None, StatusCode::CONFLICT, "over").await;
    fails(&app, "GET", &format!("{game}/analysis"), None, StatusCode::UNPROCESSABLE_ENTITY, "over").await;
    let exported = ok(&app, "GET", &format!("{game}/export"), None, StatusCode::OK).await;
    let text = exported["text"].as_str().unwrap();
    assert!(text.contains(&format!("[Result \"{white}-{black}\"]")), "{text}");
    assert!(text.contains("[Setup \"position\"]") && text.contains("[Event \"dvonn serve\"]"), "{text}");
    // The record reads back to the same game.
    let imported = ok(&app, "POST", "/api/games/import", Some(json!({"text": text})), StatusCode::CREATED).await;
    assert_eq!(imported["moves"].as_array().unwrap().len(), view["plies"].as_u64().unwrap() as usize);
    assert_eq!(imported["position"], view["position"]);
}

#[tokio::test]
async fn exports_as_a_record_or_little_golem() {
    let app = server();
    let view = new_game(&app, json!({"you": "both"})).await;
    let game = format!("/api/games/{}", id(&view));
    for (ply, mv) in ["E3", "D3", "C3"].iter().enumerate() {
        ok(&app, "POST", &format!("{game}/moves"), Some(json!({"move": mv, "ply": ply})), StatusCode::OK).await;
    }
    let record = ok(&app, "GET", &format!("{game}/export?format=record"), None, StatusCode::OK).await;
    assert!(record["text"].as_str().unwrap().ends_with("1. E3 D3 2. C3 *\n"), "{record}");
    assert_eq!(record["filename"], "dvonn-game-record.txt");
    let lg = ok(&app, "GET", &format!("{game}/export?format=lg"), None, StatusCode::OK).await;
    assert!(lg["text"].as_str().unwrap().ends_with("1. e3 d3 2. c3\n"), "{lg}");
    fails(&app, "GET", &format!("{game}/export?format=sgf"), None, StatusCode::BAD_REQUEST, "record or lg").await;
    fails(&app, "GET", &format!("{game}/export?format=pdf"), None, StatusCode::BAD_REQUEST, "unknown format").await;
    let random = new_game(&app, json!({"you": "both", "setup": "random"})).await;
    let uri = format!("/api/games/{}/export?format=lg", id(&random));
    fails(&app, "GET", &uri, None, StatusCode::UNPROCESSABLE_ENTITY, "empty board").await;
}

/// A complete game of a seeded random player from the empty board, as a
/// game record between Ann and Bob.
fn random_game(seed: u64) -> GameRecord {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = Game::new(Position::new());
    while let Some(&mv) = game.position().legal_moves().choose(&mut rng) {
        game.play(mv, Author::Program).unwrap();
    }
    let mut record = GameRecord::from(&game);
    for (name, value) in [("Event", "a random game"), ("White", "Ann"), ("Black", "Bob")] {
        record.set_tag(name, value);
    }
    record
}

/// The first `plies` placements of `record` as a BoardSpace SGF file.
fn boardspace_sgf(record: &GameRecord, plies: usize) -> String {
    let mut sgf = String::from("(;GM[Dvonn]SU[dvonn]P0[id \"Ann\"]P1[id \"Bob\"]\n;P0[0 Start P0]\n");
    for (ply, mv) in record.moves[..plies].iter().enumerate() {
        let cell = mv.to().unwrap().to_string();
        let player = ply % 2;
        sgf.push_str(&format!(";P{player}[dropb {} {}];P{player}[done]\n", &cell[..1], &cell[1..]));
    }
    sgf.push(')');
    sgf
}

#[tokio::test]
async fn imports_every_format() {
    let app = server();
    let game = random_game(14);
    for (file, format, text) in [
        ("a Little Golem transcript", "lg", write(&game, Format::LittleGolem).unwrap()),
        ("an SGF file", "sgf", boardspace_sgf(&game, 12)),
        ("a CodeCup log", "codecup", write(&game, Format::CodeCup).unwrap()),
    ] {
        let detected = ok(&app, "POST", "/api/games/import", Some(json!({ "text": text })), StatusCode::CREATED).await;
        let named = json!({ "text": text, "format": format });
        let view = ok(&app, "POST", "/api/games/import", Some(named), StatusCode::CREATED).await;
        assert_eq!(view["moves"], detected["moves"], "{file}");
        assert_eq!(view["you"], "both", "{file}");
        assert!(view["plies"].as_u64().unwrap() > 10, "{file}");
        assert!(view["moves"].as_array().unwrap().iter().all(|m| m["by"] == "record"), "{file}");
        let game = format!("/api/games/{}", id(&view));
        let start = ok(&app, "GET", &format!("{game}?ply=0"), None, StatusCode::OK).await;
        assert_eq!(start["position"], Position::new().to_string(), "{file}");
    }
    let text = game.to_string();
    let view = ok(&app, "POST", "/api/games/import", Some(json!({ "text": text })), StatusCode::CREATED).await;
    assert_eq!(view["turn"], "over");
    assert_eq!(view["tags"][1], json!(["White", "Ann"]));
    let cases = [
        (json!({"text": "  "}), StatusCode::BAD_REQUEST, "empty"),
        (json!({"text": "hello world"}), StatusCode::BAD_REQUEST, "cannot tell the format"),
        (json!({"text": "E3", "format": "pgn"}), StatusCode::BAD_REQUEST, "unknown format"),
        (json!({"text": "1. E3 E3"}), StatusCode::UNPROCESSABLE_ENTITY, "E3 is not empty"),
        (json!({"text": "[Result \"24-19\"]\n1. E3"}), StatusCode::UNPROCESSABLE_ENTITY, "not over"),
        (json!({"text": "(;GM[Go])"}), StatusCode::BAD_REQUEST, "not a DVONN game"),
        (json!({"txt": "E3"}), StatusCode::UNPROCESSABLE_ENTITY, "unknown field"),
    ];
    for (body, status, words) in cases {
        fails(&app, "POST", "/api/games/import", Some(body), status, words).await;
    }
}

#[tokio::test]
async fn a_full_server_closes_its_least_recently_used_game() {
    let app = server_with(ServerConfig::default().with_max_games(2));
    let first = id(&new_game(&app, json!({})).await);
    let second = id(&new_game(&app, json!({})).await);
    ok(&app, "GET", &format!("/api/games/{first}"), None, StatusCode::OK).await;
    new_game(&app, json!({})).await;
    fails(&app, "GET", &format!("/api/games/{second}"), None, StatusCode::NOT_FOUND, "no game").await;
    ok(&app, "GET", &format!("/api/games/{first}"), None, StatusCode::OK).await;
    assert_eq!(ok(&app, "GET", "/api/status", None, StatusCode::OK).await["games"], 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_analysis_streams_its_iterations_and_proves_an_endgame() {
    let app = server();
    // White's stack on D3 has three targets; the engine solves this small
    // endgame exactly.
    let position = "........./........../.BWDWBWB.../........../......... w m";
    let view = new_game(&app, json!({"you": "both", "position": position})).await;
    let uri = format!("/api/games/{}/analysis?time=5", id(&view));
    let mut body = open_analysis(&app, &uri).await;
    let events = read_events(&mut body, |name, _| name == "done").await;
    let (last, done) = (events.len() - 1, &events[events.len() - 1]);
    assert_eq!(done.0, "done", "{events:?}");
    assert!(events[..last].iter().all(|(name, _)| name == "info"), "{events:?}");
    assert!(done.1["exact"].as_bool().unwrap(), "{done:?}");
    assert!(done.1["best"].is_string() && !done.1["pv"].as_array().unwrap().is_empty(), "{done:?}");
    assert_eq!(done.1["side"], "white");
    wait_for_no_search(&app).await;

    let game = format!("/api/games/{}", id(&view));
    fails(&app, "GET", &format!("{game}/analysis?time=0"), None, StatusCode::BAD_REQUEST, "more than 0").await;
    fails(&app, "GET", &format!("{game}/analysis?time=61"), None, StatusCode::BAD_REQUEST, "at most 60").await;
    fails(&app, "GET", &format!("{game}/analysis?ply=3"), None, StatusCode::BAD_REQUEST, "past the end").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_placement_analysis_reports_as_it_goes() {
    let app = server();
    let view = new_game(&app, json!({"you": "both"})).await;
    let uri = format!("/api/games/{}/analysis?time=1.2", id(&view));
    let mut body = open_analysis(&app, &uri).await;
    let events = read_events(&mut body, |name, _| name == "done").await;
    let infos = events.iter().filter(|(name, _)| name == "info").count();
    assert!(infos >= 2, "every iteration of the placement search reported: {events:?}");
    assert_eq!(events.last().unwrap().0, "done");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_engine_move_stopped_midway_is_played_at_once() {
    let app = server();
    let view = new_game(&app, json!({"you": "black", "time": 60, "setup": "random", "seed": 2})).await;
    let game = format!("/api/games/{}", id(&view));
    let thinking = ask_engine_move(&app, &game);
    wait_for_searches(&app, 1).await;
    assert_eq!(ok(&app, "GET", &game, None, StatusCode::OK).await["searching"], "engine");
    fails(&app, "POST", &format!("{game}/engine-move"), None, StatusCode::CONFLICT, "thinking").await;
    fails(&app, "GET", &format!("{game}/analysis"), None, StatusCode::CONFLICT, "thinking").await;
    assert_eq!(ok(&app, "POST", &format!("{game}/stop"), None, StatusCode::OK).await, json!({"stopped": true}));
    // Unstopped, the engine would think for a minute.
    let (status, view) = tokio::time::timeout(GENEROUS, thinking).await.expect("stopped").unwrap();
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!((view["plies"].as_u64(), view["turn"].as_str()), (Some(1), Some("you")));
    assert_eq!(view["searching"], Value::Null);
    wait_for_no_search(&app).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_analysis_stopped_midway_reports_and_ends() {
    let app = server();
    let view = new_game(&app, json!({"you": "both", "setup": "random", "seed": 8})).await;
    let game = format!("/api/games/{}", id(&view));
    let mut body = open_analysis(&app, &format!("{game}/analysis")).await;
    let first = read_events(&mut body, |_, _| true).await;
    assert_eq!(first[0].0, "info");
    assert_eq!(ok(&app, "GET", &game, None, StatusCode::OK).await["searching"], "analysis");
    assert_eq!(ok(&app, "POST", &format!("{game}/stop"), None, StatusCode::OK).await, json!({"stopped": true}));
    // Unstopped, the analysis would go on for a minute.
    let rest = tokio::time::timeout(GENEROUS, read_events(&mut body, |_, _| false)).await.expect("stopped");
    assert_eq!(rest.last().unwrap().0, "done", "{rest:?}");
    wait_for_no_search(&app).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_goes_away_leaves_no_search_running() {
    let app = server();
    // An analysis whose stream is dropped (the tab was closed).
    let view = new_game(&app, json!({"you": "both", "setup": "random", "seed": 9})).await;
    let mut body = open_analysis(&app, &format!("/api/games/{}/analysis", id(&view))).await;
    read_events(&mut body, |_, _| true).await;
    assert_eq!(searches_running(&app).await, 1);
    drop(body);
    wait_for_no_search(&app).await;
    let view = ok(&app, "GET", &format!("/api/games/{}", id(&view)), None, StatusCode::OK).await;
    assert_eq!(view["searching"], Value::Null);

    // An engine move whose request is dropped.
    let view = new_game(&app, json!({"you": "black", "time": 60, "setup": "random", "seed": 9})).await;
    let uri = format!("/api/games/{}/engine-move", id(&view));
    let thinking = {
        let app = app.clone();
        tokio::spawn(async move { call(&app, "POST", &uri, None).await })
    };
    wait_for_searches(&app, 1).await;
    thinking.abort();
    assert!(thinking.await.unwrap_err().is_cancelled(), "the engine was still thinking");
    wait_for_no_search(&app).await;
    let view = ok(&app, "GET", &format!("/api/games/{}", id(&view)), None, StatusCode::OK).await;
    assert_eq!((view["plies"].as_u64(), view["searching"].as_str()), (Some(0), None));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn undo_and_moves_drop_a_running_search() {
    let app = server();
    let view = new_game(&app, json!({"you": "both", "setup": "random", "seed": 4})).await;
    let game = format!("/api/games/{}", id(&view));
    let mut body = open_analysis(&app, &format!("{game}/analysis")).await;
    read_events(&mut body, |_, _| true).await;
    let mv = view["legal"][0].clone();
    ok(&app, "POST", &format!("{game}/moves"), Some(json!({ "move": mv })), StatusCode::OK).await;
    let rest = tokio::time::timeout(GENEROUS, read_events(&mut body, |_, _| false)).await.unwrap();
    assert_eq!(rest.last().unwrap().0, "done", "the analysis of the old position ended");

    let view = new_game(&app, json!({"you": "white", "time": 60, "setup": "random", "seed": 4})).await;
    let game = format!("/api/games/{}", id(&view));
    let mv = view["legal"][0].clone();
    ok(&app, "POST", &format!("{game}/moves"), Some(json!({ "move": mv })), StatusCode::OK).await;
    let thinking = ask_engine_move(&app, &game);
    wait_for_searches(&app, 1).await;
    let view = ok(&app, "POST", &format!("{game}/undo"), None, StatusCode::OK).await;
    assert_eq!(view["plies"], 0);
    let (status, answer) = tokio::time::timeout(GENEROUS, thinking).await.unwrap().unwrap();
    assert_eq!(status, StatusCode::CONFLICT, "{answer}");
    assert!(answer["error"].as_str().unwrap().contains("dropped"));
    assert_eq!(ok(&app, "GET", &game, None, StatusCode::OK).await["plies"], 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn searches_beyond_the_limit_wait_their_turn() {
    let app = server_with(ServerConfig::default().with_max_searches(1).with_hash_mb(4));
    let mut streams = Vec::new();
    for seed in [1, 2] {
        let view = new_game(&app, json!({"you": "both", "setup": "random", "seed": seed})).await;
        streams.push(open_analysis(&app, &format!("/api/games/{}/analysis?time=0.3", id(&view))).await);
    }
    let mut most = 0;
    for body in &mut streams {
        most = most.max(searches_running(&app).await);
        let events = read_events(body, |name, _| name == "done").await;
        assert_eq!(events.last().unwrap().0, "done");
    }
    assert!(most <= 1);
}

/// A game whose blunder is known: White wins by 6 with C3D4 (proven), but
/// plays C3C4, and Black ends the game with F4E4, 7-10.
const THROWN_WIN: &str = "[Setup \"position\"]\n\
    [Position \"W4.DD...../.W2B2W5B...../DB2W......../........../......... w m\"]\n\n1. C3C4 F4E4\n";

/// Imports `text` as a game of both sides; returns its address.
async fn import(app: &Router, text: &str) -> String {
    let view = ok(app, "POST", "/api/games/import", Some(json!({ "text": text })), StatusCode::CREATED).await;
    format!("/api/games/{}", id(&view))
}

/// Reviews the game at `game` to its end; returns the `ply` events and the
/// `done` event's review.
async fn review_to_the_end(app: &Router, game: &str, query: &str) -> (Vec<Value>, Value) {
    let mut body = open_review(app, &format!("{game}/review{query}")).await;
    let events = tokio::time::timeout(Duration::from_secs(60), read_events(&mut body, |_, _| false)).await.unwrap();
    let (last, plies) = events.split_last().expect("events");
    assert_eq!(last.0, "done", "{events:?}");
    assert!(plies.iter().all(|(name, _)| name == "ply"), "{events:?}");
    (plies.iter().map(|(_, data)| data.clone()).collect(), last.1.clone())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_review_finds_the_blunder_and_draws_the_better_move() {
    let app = server();
    let game = import(&app, THROWN_WIN).await;
    fails(&app, "GET", &format!("{game}/review"), None, StatusCode::NOT_FOUND, "no review").await;
    let (progress, review) = review_to_the_end(&app, &game, "?time=2").await;
    // From the last ply back to the first.
    let judged: Vec<(u64, u64)> =
        progress.iter().map(|p| (p["ply"]["ply"].as_u64().unwrap(), p["reviewed"].as_u64().unwrap())).collect();
    assert_eq!(judged, [(1, 1), (0, 2)]);
    assert!(progress.iter().all(|p| p["total"] == 2));
    assert_eq!((&review["complete"], &review["cut"], &review["time"]), (&json!(true), &Value::Null, &json!(2.0)));
    let blunder = &review["plies"][0];
    assert_eq!(
        (&blunder["move"], &blunder["mark"], &blunder["best"]),
        (&json!("C3C4"), &json!("blunder"), &json!("C3D4"))
    );
    assert_eq!(
        (&blunder["eval_before"], &blunder["eval_after"], &blunder["loss"]),
        (&json!(6.0), &json!(-3.0), &json!(9.0))
    );
    assert_eq!(review["summary"]["white"]["blunders"], 1);
    let graph = review["graph"].as_str().unwrap();
    assert!(graph.starts_with("<svg") && graph.contains(r#"class="mark blunder" data-ply="0""#), "{graph}");
    assert_eq!(graph.matches(r#"class="ply""#).count(), 2);
    // Kept with the game: its address, and the engine's move on the board.
    assert_eq!(ok(&app, "GET", &format!("{game}/review"), None, StatusCode::OK).await, review);
    let start = ok(&app, "GET", &format!("{game}?ply=0"), None, StatusCode::OK).await;
    assert_eq!((&start["reviewed"], &start["engine_move"]), (&json!(true), &json!("C3D4")));
    assert!(start["svg"].as_str().unwrap().contains(r#"<line class="best" data-move="C3D4""#));
    let end = ok(&app, "GET", &game, None, StatusCode::OK).await;
    assert_eq!(end["engine_move"], Value::Null, "the game is over");
    assert!(!end["svg"].as_str().unwrap().contains(r#"class="best""#));
    // A move from the start changes the game: the review is forgotten.
    let view =
        ok(&app, "POST", &format!("{game}/moves"), Some(json!({"move": "C3D4", "ply": 0})), StatusCode::OK).await;
    assert_eq!((&view["reviewed"], &view["engine_move"]), (&json!(false), &Value::Null));
    fails(&app, "GET", &format!("{game}/review"), None, StatusCode::NOT_FOUND, "no review").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_random_game_is_reviewed_ply_by_ply() {
    let app = server();
    let record = random_game(21);
    let plies = record.replay().unwrap().len();
    let game = import(&app, &record.to_string()).await;
    let (progress, review) = review_to_the_end(&app, &game, "?time=0.01").await;
    assert_eq!(progress.len(), plies);
    assert_eq!((review["game_length"].as_u64(), review["movement_from"].as_u64()), (Some(plies as u64), Some(49)));
    let entries = review["plies"].as_array().unwrap();
    assert_eq!(entries.len(), plies);
    for (ply, entry) in entries.iter().enumerate() {
        for field in ["ply", "move", "eval_before", "eval_after", "best", "engine_move", "loss", "mark"] {
            assert!(entry.get(field).is_some(), "ply {ply}: no {field}");
        }
        assert_eq!(entry["move"], record.moves[ply].to_string());
        let view = ok(&app, "GET", &format!("{game}?ply={ply}"), None, StatusCode::OK).await;
        assert_eq!(view["engine_move"], entry["engine_move"], "ply {ply}");
        // The engine's move is drawn, a pass excepted.
        let engine_move = entry["engine_move"].as_str().unwrap();
        let arrow = format!(r#"class="best" data-move="{engine_move}""#);
        assert_eq!(view["svg"].as_str().unwrap().contains(&arrow), engine_move != "PASS", "ply {ply}");
    }
    assert!(entries.iter().any(|entry| !entry["mark"].is_null()), "random moves are marked");
    assert_eq!(searches_running(&app).await, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_review_is_stopped_by_its_page_a_second_review_and_a_stop() {
    let app = server();
    let game = import(&app, &random_game(5).to_string()).await;
    // The page goes away: the review stops, and is not kept.
    let body = open_review(&app, &format!("{game}/review?time=5")).await;
    assert_eq!(ok(&app, "GET", &game, None, StatusCode::OK).await["searching"], "review");
    wait_for_searches(&app, 1).await;
    drop(body);
    wait_for_no_search(&app).await;
    assert_eq!(ok(&app, "GET", &game, None, StatusCode::OK).await["searching"], Value::Null);
    fails(&app, "GET", &format!("{game}/review"), None, StatusCode::NOT_FOUND, "no review").await;

    // A second review of the same game stops the first.
    let mut first = open_review(&app, &format!("{game}/review?time=5")).await;
    let (progress, second) = review_to_the_end(&app, &game, "?time=0.01").await;
    assert_eq!(second["complete"], true);
    assert!(!progress.is_empty());
    let ended = tokio::time::timeout(GENEROUS, read_events(&mut first, |_, _| false)).await.unwrap();
    let (name, first_review) = ended.last().unwrap();
    assert_eq!(
        (name.as_str(), &first_review["complete"], &first_review["cut"]),
        ("done", &json!(false), &json!("stopped"))
    );
    wait_for_no_search(&app).await;
    assert_eq!(ok(&app, "GET", &format!("{game}/review"), None, StatusCode::OK).await, second, "the second is kept");

    // Stopped by the person: the plies it finished are kept.
    let mut body = open_review(&app, &format!("{game}/review?time=0.5")).await;
    read_events(&mut body, |name, _| name == "ply").await;
    assert_eq!(ok(&app, "POST", &format!("{game}/stop"), None, StatusCode::OK).await, json!({"stopped": true}));
    let rest = tokio::time::timeout(GENEROUS, read_events(&mut body, |_, _| false)).await.unwrap();
    let (name, stopped) = rest.last().unwrap();
    assert_eq!((name.as_str(), &stopped["complete"], &stopped["cut"]), ("done", &json!(false), &json!("stopped")));
    let kept = ok(&app, "GET", &format!("{game}/review"), None, StatusCode::OK).await;
    assert_eq!(&kept, stopped);
    assert!(!kept["plies"].as_array().unwrap().is_empty(), "the last plies of the game");
    wait_for_no_search(&app).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_review_ends_at_the_servers_limit_and_reviews_are_counted() {
    let config = ServerConfig::default()
        .with_max_searches(2)
        .with_hash_mb(4)
        .with_max_reviews(1)
        .with_max_review_time(Duration::from_secs(1));
    let app = server_with(config);
    let long = import(&app, &random_game(8).to_string()).await;
    let other = import(&app, &random_game(9).to_string()).await;
    let mut body = open_review(&app, &format!("{long}/review?time=0.5")).await;
    assert_eq!(ok(&app, "GET", "/api/status", None, StatusCode::OK).await["reviews_running"], 1);
    fails(&app, "POST", &format!("{other}/review"), None, StatusCode::SERVICE_UNAVAILABLE, "being reviewed").await;
    let events = tokio::time::timeout(GENEROUS, read_events(&mut body, |_, _| false)).await.unwrap();
    let (name, review) = events.last().unwrap();
    assert_eq!((name.as_str(), &review["complete"], &review["cut"]), ("done", &json!(false), &json!("time_limit")));
    assert!(review["plies"].as_array().unwrap().len() < review["game_length"].as_u64().unwrap() as usize);
    wait_for_no_search(&app).await;
    assert_eq!(ok(&app, "GET", "/api/status", None, StatusCode::OK).await["reviews_running"], 0);
    let (_, review) = review_to_the_end(&app, &other, "?time=0.001").await;
    assert_eq!(review["complete"], true);
}

#[tokio::test]
async fn bad_reviews_are_refused() {
    let app = server();
    let empty = format!("/api/games/{}", id(&new_game(&app, json!({"you": "both"})).await));
    fails(&app, "POST", &format!("{empty}/review"), None, StatusCode::UNPROCESSABLE_ENTITY, "no moves").await;
    let game = import(&app, THROWN_WIN).await;
    for (query, words) in [
        ("?time=0", "more than 0"),
        ("?time=61", "at most 60"),
        ("?time=-1", "more than 0"),
        ("?time=NaN", "more than 0"),
        ("?time=soon", "invalid"),
        ("?depth=3", "unknown field"),
    ] {
        fails(&app, "POST", &format!("{game}/review{query}"), None, StatusCode::BAD_REQUEST, words).await;
    }
    fails(&app, "PUT", &format!("{game}/review"), None, StatusCode::METHOD_NOT_ALLOWED, "method").await;
    assert_eq!(searches_running(&app).await, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_engine_thinking_is_not_stopped_by_a_review() {
    let app = server();
    let view = new_game(&app, json!({"you": "black", "time": 60, "setup": "random", "seed": 3})).await;
    let game = format!("/api/games/{}", id(&view));
    let thinking = ask_engine_move(&app, &game);
    wait_for_searches(&app, 1).await;
    ok(&app, "POST", &format!("{game}/stop"), None, StatusCode::OK).await;
    let (status, view) = tokio::time::timeout(GENEROUS, thinking).await.unwrap().unwrap();
    assert_eq!(status, StatusCode::OK, "{view}");
    // A game against the engine is reviewed too, once it has moves.
    let (_, review) = review_to_the_end(&app, &game, "?time=0.01").await;
    assert_eq!(review["game_length"], 1);
    let mv = view["legal"][0].clone();
    ok(&app, "POST", &format!("{game}/moves"), Some(json!({ "move": mv })), StatusCode::OK).await;
    let thinking = ask_engine_move(&app, &game);
    wait_for_searches(&app, 1).await;
    fails(&app, "POST", &format!("{game}/review"), None, StatusCode::CONFLICT, "thinking").await;
    ok(&app, "POST", &format!("{game}/stop"), None, StatusCode::OK).await;
    assert_eq!(tokio::time::timeout(GENEROUS, thinking).await.unwrap().unwrap().0, StatusCode::OK);
}
