//! The page and its files, built into the binary.

use axum::Router;
use axum::extract::Path;
use axum::http::header::{CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, X_CONTENT_TYPE_OPTIONS};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use crate::error::ApiError;

/// The page.
const INDEX: &str = include_str!("../assets/index.html");

/// The files the page loads: name, content type, content.
const FILES: [(&str, &str, &str); 3] = [
    ("app.js", "text/javascript; charset=utf-8", include_str!("../assets/app.js")),
    ("style.css", "text/css; charset=utf-8", include_str!("../assets/style.css")),
    ("favicon.svg", "image/svg+xml", include_str!("../assets/favicon.svg")),
];

/// The page may load its own files only (and write its own downloads).
const POLICY: &str =
    "default-src 'self'; img-src 'self' data: blob:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/// The routes of the page (`/`) and its files (`/assets/{name}`).
pub(crate) fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new().route("/", get(index)).route("/assets/{name}", get(file))
}

async fn index() -> Response {
    let headers = [
        (CONTENT_TYPE, "text/html; charset=utf-8"),
        (CONTENT_SECURITY_POLICY, POLICY),
        (X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (CACHE_CONTROL, "no-cache"),
    ];
    (headers, INDEX).into_response()
}

async fn file(Path(name): Path<String>) -> Result<Response, ApiError> {
    let (_, content_type, body) = FILES.iter().find(|(file, _, _)| *file == name).ok_or_else(|| {
        ApiError::not_found(format!("no file {:?} in the page's assets", name.chars().take(40).collect::<String>()))
    })?;
    let headers = [(CONTENT_TYPE, *content_type), (X_CONTENT_TYPE_OPTIONS, "nosniff"), (CACHE_CONTROL, "no-cache")];
    Ok((headers, *body).into_response())
}
