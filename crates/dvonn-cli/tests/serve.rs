//! `dvonn serve` run as a command: the real binary listening on a port
//! (the API itself is tested in the `dvonn-serve` package).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// The `dvonn serve` binary on a free port; killed when dropped.
struct Binary {
    child: Child,
    address: String,
}

impl Binary {
    fn start() -> Binary {
        let mut child = Command::new(env!("CARGO_BIN_EXE_dvonn"))
            .args(["serve", "--port", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let url = line.split_whitespace().find(|word| word.starts_with("http://")).unwrap_or_else(|| panic!("{line}"));
        let address = url.trim_start_matches("http://").trim_end_matches('/').to_string();
        assert!(address.starts_with("127.0.0.1:"), "the default address is this machine's only: {line}");
        Binary { child, address }
    }

    /// Sends an HTTP/1.1 request on a new connection.
    fn connect(&self, method: &str, path: &str, body: &str) -> TcpStream {
        let mut stream = TcpStream::connect(&self.address).unwrap();
        let content = if body.is_empty() { String::new() } else { "Content-Type: application/json\r\n".to_string() };
        write!(
            stream,
            "{method} {path} HTTP/1.1\r\nHost: {}\r\n{content}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.address,
            body.len()
        )
        .unwrap();
        stream
    }

    /// A request and its answer's status and JSON body.
    fn request(&self, method: &str, path: &str, body: &str) -> (u16, Value) {
        let mut answer = String::new();
        self.connect(method, path, body).read_to_string(&mut answer).unwrap();
        let (head, body) = answer.split_once("\r\n\r\n").unwrap();
        let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
        (status, serde_json::from_str(body).unwrap_or(Value::Null))
    }
}

/// How long a change expected within milliseconds may take on a busy
/// machine: half the engine's minute of thinking in the test below, which
/// it must not use up.
const GENEROUS: Duration = Duration::from_secs(30);

impl Binary {
    /// Waits until `count` searches run (at most [`GENEROUS`]); panics
    /// with `what` otherwise.
    fn wait_for_searches(&self, count: u64, what: &str) {
        let start = Instant::now();
        while self.request("GET", "/api/status", "").1["searches_running"] != count {
            assert!(start.elapsed() < GENEROUS, "{what}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Binary {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn the_binary_serves_and_a_closed_connection_stops_its_search() {
    let server = Binary::start();
    let (status, answer) = server.request("GET", "/api/status", "");
    assert_eq!((status, answer["searches_running"].as_u64()), (200, Some(0)));
    let (status, view) = server.request("POST", "/api/games", r#"{"you": "black", "time": 60, "setup": "random"}"#);
    assert_eq!(status, 201, "{view}");
    let game = view["id"].as_str().unwrap();
    let (status, answer) = server.request("POST", "/api/games", "{\"you\": 1");
    assert_eq!((status, answer["error"].is_string()), (400, true), "a bad request: {answer}");
    // The engine thinks for a minute; the client goes away after a moment.
    let connection = server.connect("POST", &format!("/api/games/{game}/engine-move"), "");
    server.wait_for_searches(1, "the search did not start");
    drop(connection);
    server.wait_for_searches(0, "the search still runs after its client left");
    let (status, view) = server.request("GET", &format!("/api/games/{game}"), "");
    assert_eq!((status, view["plies"].as_u64()), (200, Some(0)), "the move of a gone client is not played");
}

#[test]
fn a_taken_port_is_a_clear_error() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let output = Command::new(env!("CARGO_BIN_EXE_dvonn")).args(["serve", "--port", &port]).output().unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains(&format!("cannot listen on 127.0.0.1:{port}")), "{stderr}");
}
