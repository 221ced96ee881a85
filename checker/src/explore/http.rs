//! The explorer's HTTP side, on hyper 1 with a single-threaded tokio
//! runtime: routing, the loopback `Host` check, the body limit, the
//! compute slots and the time budget. Computation runs on tokio's blocking
//! threads ([`api::answer`]); this file only moves bytes.
//!
//! Limits (docs/src/explorer.md, "Limits"):
//!
//! - A body whose declared `Content-Length` exceeds [`MAX_BODY`] is refused
//!   at once with 413 and `Connection: close`; the rest of it is read and
//!   thrown away in the background (at most [`DRAIN_CAP`] bytes within
//!   [`DRAIN_TIME`]) so that a client that writes its whole body before
//!   reading still sees the answer rather than a reset connection. A body
//!   without a length (chunked) is read up to the limit and refused when it
//!   passes it.
//! - At most [`MAX_CONNECTIONS`] connections are served at once; request
//!   headers must arrive within [`HEADER_TIMEOUT`].
//! - A request waits for a compute slot and then computes, both within its
//!   budget, measured from its arrival. Checks have one slot of their own;
//!   `run` and `lower` share [`Options::slots`]. Past the budget the answer
//!   is 503; the computation, which cannot be interrupted, keeps its slot
//!   until it ends.

use super::api::{self, ApiError, Endpoint};
use super::{assets, Options, MAX_BODY};
use bytes::Bytes;
use http_body_util::{BodyExt, Full, LengthLimitError, Limited};
use hyper::body::Incoming;
use hyper::header::{HeaderValue, CACHE_CONTROL, CONNECTION, CONTENT_LENGTH, CONTENT_TYPE, HOST};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;
use tokio::time::{timeout_at, Instant};

/// Connections served at once; the accept loop waits beyond this.
pub const MAX_CONNECTIONS: usize = 64;
/// Time a client has to send a request's headers.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// Bytes of a refused body read and thrown away after the 413.
pub const DRAIN_CAP: u64 = 64 << 20;
/// Time spent reading a refused body after the 413.
pub const DRAIN_TIME: Duration = Duration::from_secs(10);

type Answer = Response<Full<Bytes>>;

struct State {
    options: Options,
    port: u16,
    /// Slots for `run` and `lower`, which are bounded by fuel and cheap.
    slots: Arc<Semaphore>,
    /// One slot for checks, which can take minutes past the default bounds
    /// and cannot be interrupted: a check that overran its budget then
    /// blocks further checks until it ends, but never the tables and
    /// pictures.
    check_slot: Arc<Semaphore>,
}

/// Serves on `listener` until `stopped` fires (or its sender is dropped).
pub(super) fn serve(
    runtime: tokio::runtime::Runtime,
    listener: std::net::TcpListener,
    options: Options,
    stopped: tokio::sync::oneshot::Receiver<()>,
) {
    let port = listener.local_addr().map_or(0, |a| a.port());
    let state = Arc::new(State {
        slots: Arc::new(Semaphore::new(options.slots.max(1))),
        check_slot: Arc::new(Semaphore::new(1)),
        options,
        port,
    });
    runtime.block_on(async move {
        let listener = match tokio::net::TcpListener::from_std(listener) {
            Ok(l) => l,
            Err(_) => return,
        };
        let accepting = tokio::spawn(accept_loop(listener, state));
        let _ = stopped.await;
        accepting.abort();
    });
    runtime.shutdown_background();
}

async fn accept_loop(listener: tokio::net::TcpListener, state: Arc<State>) {
    let connections = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    loop {
        let Ok(permit) = connections.clone().acquire_owned().await else {
            return;
        };
        let stream = match listener.accept().await {
            Ok((s, _)) => s,
            Err(_) => {
                // Out of file descriptors, or a connection reset before it
                // was accepted: wait a little rather than spin.
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let state = state.clone();
        tokio::spawn(async move {
            let service = service_fn(move |req| {
                let state = state.clone();
                async move { Ok::<_, Infallible>(route(state, req).await) }
            });
            let _ = http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT)
                .serve_connection(TokioIo::new(stream), service)
                .await;
            drop(permit);
        });
    }
}

async fn route(state: Arc<State>, req: Request<Incoming>) -> Answer {
    if !host_is_loopback(&req, state.port) {
        return error(&ApiError::new(
            403,
            "host",
            "the explorer answers only requests addressed to 127.0.0.1 or localhost (Host header)",
        ));
    }
    let path = req.uri().path().to_string();
    let method = req.method().clone();
    let endpoint = match path.as_str() {
        "/api/run" => Some(Endpoint::Run),
        "/api/lower" => Some(Endpoint::Lower),
        "/api/check" => Some(Endpoint::Check),
        _ => None,
    };
    if let Some(endpoint) = endpoint {
        if method != Method::POST {
            return error(&ApiError::new(
                405,
                "method",
                format!("{path} takes POST with a JSON body"),
            ));
        }
        if !is_json(&req) {
            return error(&ApiError::new(
                415,
                "content_type",
                "the request body must be JSON (Content-Type: application/json)",
            ));
        }
        let body = match read_body(req).await {
            Ok(b) => b,
            Err(answer) => return answer,
        };
        return compute(&state, endpoint, body).await;
    }
    if method != Method::GET && method != Method::HEAD {
        return error(&ApiError::new(405, "method", format!("{path} takes GET")));
    }
    match path.as_str() {
        "/api/initial" => json(
            StatusCode::OK,
            &api::initial(
                &state.options.initial.0,
                &state.options.initial.1,
                state.options.budget.as_secs(),
                state.options.tools.as_ref(),
            ),
        ),
        "/api/passes" => json(StatusCode::OK, &api::passes()),
        _ => match assets::find(&path) {
            Some((body, content_type)) => {
                let mut r = Response::new(Full::new(Bytes::from_static(body.as_bytes())));
                let h = r.headers_mut();
                h.insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
                h.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
                h.insert(
                    "content-security-policy",
                    HeaderValue::from_static(assets::CSP),
                );
                h.insert(
                    "x-content-type-options",
                    HeaderValue::from_static("nosniff"),
                );
                r
            }
            None => error(&ApiError::new(
                404,
                "not_found",
                format!("no page or endpoint {path}"),
            )),
        },
    }
}

/// Whether the `Host` header names the loopback address (any port given
/// must be the server's).
fn host_is_loopback(req: &Request<Incoming>, port: u16) -> bool {
    let Some(host) = req.headers().get(HOST).and_then(|h| h.to_str().ok()) else {
        return false;
    };
    let (name, given) = match host.rsplit_once(':') {
        Some((n, p)) if !n.is_empty() && !p.contains(']') => (n, Some(p)),
        _ => (host, None),
    };
    let name_ok = matches!(
        name.to_ascii_lowercase().as_str(),
        "127.0.0.1" | "localhost" | "[::1]"
    );
    name_ok && given.is_none_or(|p| p.parse::<u16>() == Ok(port))
}

fn is_json(req: &Request<Incoming>) -> bool {
    req.headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"))
}

/// Reads the body up to [`MAX_BODY`] bytes.
async fn read_body(req: Request<Incoming>) -> Result<Bytes, Answer> {
    let declared = req
        .headers()
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if let Some(n) = declared.filter(|&n| n > MAX_BODY as u64) {
        tokio::spawn(drain(req.into_body()));
        return Err(too_large(Some(n)));
    }
    match Limited::new(req.into_body(), MAX_BODY).collect().await {
        Ok(c) => Ok(c.to_bytes()),
        Err(e) if e.downcast_ref::<LengthLimitError>().is_some() => Err(too_large(None)),
        Err(e) => Err(error(&ApiError::new(
            400,
            "body",
            format!("could not read the request body: {e}"),
        ))),
    }
}

/// Reads and throws away what is left of a refused body, within bounds.
async fn drain(mut body: Incoming) {
    let deadline = Instant::now() + DRAIN_TIME;
    let mut seen = 0u64;
    while seen < DRAIN_CAP {
        match timeout_at(deadline, body.frame()).await {
            Ok(Some(Ok(frame))) => seen += frame.data_ref().map_or(0, |d| d.len() as u64),
            _ => break,
        }
    }
}

fn too_large(declared: Option<u64>) -> Answer {
    let size = declared.map_or("more than that".to_string(), |n| format!("{n} bytes"));
    let mut r = error(&ApiError::new(
        413,
        "too_large",
        format!("request bodies are limited to {MAX_BODY} bytes (1 MiB); this one has {size}"),
    ));
    r.headers_mut()
        .insert(CONNECTION, HeaderValue::from_static("close"));
    r
}

/// Runs one API request on a blocking thread, within the budget.
async fn compute(state: &State, endpoint: Endpoint, body: Bytes) -> Answer {
    let budget = state.options.budget;
    let deadline = Instant::now() + budget;
    let slots = match endpoint {
        Endpoint::Check => &state.check_slot,
        Endpoint::Run | Endpoint::Lower => &state.slots,
    };
    let permit = match timeout_at(deadline, slots.clone().acquire_owned()).await {
        Ok(Ok(p)) => p,
        _ => {
            let what = match endpoint {
                Endpoint::Check => "another check is still computing (checks run one at a time; one that overran its budget runs to its end)",
                _ => "every compute slot stayed busy",
            };
            return error(&ApiError::new(
                503,
                "busy",
                format!(
                    "{what} for this request's whole time budget ({}); try again later",
                    seconds(budget)
                ),
            ));
        }
    };
    let tools = state.options.tools.clone();
    let job = tokio::task::spawn_blocking(move || {
        // The slot is released when the computation ends, even after its
        // client got 503: an overrun keeps its slot (module doc).
        let _slot = permit;
        // The engine stops itself a little before the request's deadline,
        // so that an over-budget check answers `inconclusive` (naming the
        // time budget) rather than 503.
        api::answer(endpoint, &body, engine_time(budget), tools.as_ref())
    });
    match timeout_at(deadline, job).await {
        Ok(Ok(Ok(value))) => json(StatusCode::OK, &value),
        Ok(Ok(Err(e))) => error(&e),
        Ok(Err(join)) => {
            let why = match join.try_into_panic() {
                Ok(p) => p
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| p.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a panic".into()),
                Err(e) => e.to_string(),
            };
            error(&ApiError::new(
                500,
                "internal",
                format!("internal error (a bug in convcheck): {why}"),
            ))
        }
        Err(_) => error(&ApiError::new(
            503,
            "budget",
            format!(
                "the request did not finish within its time budget of {} (convcheck explore --budget); it goes on computing until it ends, and smaller bounds (max_iters, threads) finish sooner",
                seconds(budget)
            ),
        )),
    }
}

fn seconds(d: Duration) -> String {
    format!("{:.1} s", d.as_secs_f64())
}

fn json(status: StatusCode, value: &serde_json::Value) -> Answer {
    let mut r = Response::new(Full::new(Bytes::from(value.to_string())));
    *r.status_mut() = status;
    let h = r.headers_mut();
    h.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    h.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(
        "x-content-type-options",
        HeaderValue::from_static("nosniff"),
    );
    r
}

fn error(e: &ApiError) -> Answer {
    let status = StatusCode::from_u16(e.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    json(status, &e.to_json())
}

/// The engine's share of a request's time budget: four fifths, leaving the
/// rest for parsing, rendering and the answer's trip.
fn engine_time(budget: std::time::Duration) -> std::time::Duration {
    budget.mul_f64(0.8)
}
