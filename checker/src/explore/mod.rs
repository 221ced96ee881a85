//! `convcheck explore`: a local web page to study kernels, passes and
//! counterexamples (DESIGN.md 1, job 3; issue #13; docs/src/explorer.md).
//!
//! The page (`checker/assets/`, embedded with `include_str!`, so the binary
//! serves it offline) calls a small JSON API over HTTP:
//!
//! - `POST /api/lower`: the CFG of one function after each stage of a
//!   pipeline, as text and as an SVG picture whose blocks carry their index
//!   ([`graph`]);
//! - `POST /api/run`: one scenario's trace table at the source level or the
//!   CFG level, the same object as `run --format json`, with thread ids and
//!   a group size of the user's choice ([`group`]);
//! - `POST /api/check`: a check, the same object as `check --format json`;
//! - `GET /api/initial`, `GET /api/passes`: the kernel to start with and the
//!   pass registry.
//!
//! The requests and their answers are in [`api`]; the HTTP side (routing,
//! limits, the time budget) is in [`http`].
//!
//! What the server promises, each tested in `checker/tests/explore.rs`:
//!
//! - It listens on 127.0.0.1 only, never on all interfaces, and answers
//!   only requests whose `Host` names the loopback address (so a web page
//!   elsewhere cannot reach it by DNS rebinding); `POST` bodies must be
//!   `application/json` (so a cross-site form cannot post to it).
//! - Request bodies above [`MAX_BODY`] (1 MiB) get 413 and the server keeps
//!   serving.
//! - At most one check and [`Options::slots`] other requests compute at
//!   once; each answer is due within [`Options::budget`], or the client
//!   gets 503 with a JSON error. A check's engine gets four fifths of the
//!   budget as its own time budget and answers `inconclusive` when that
//!   runs out; a computation that still overruns (a `run`, a `lower`, an
//!   engine that overshoots) cannot be stopped: it runs to its end on its
//!   worker thread, holding its slot, and its result is dropped.
//! - It runs no external command unless started with `--allow-tools`
//!   (then the server's `opt` on a request's pipeline, and the server's
//!   clang on a CUDA, HIP, OpenCL or C source, with convcheck's fixed
//!   flags); there is no `--pass-cmd` and no file access from the web:
//!   kernels come in the request body.
//!
//! `explore` tells its caller the URL once the server is up (the binary
//! prints it) and then serves until the process is stopped.

pub mod api;
mod assets;
pub mod graph;
pub mod group;
mod http;

use crate::Error;
use std::net::{Ipv4Addr, SocketAddr};
use std::time::Duration;

/// The largest request body the API reads (1 MiB); larger ones get 413.
pub const MAX_BODY: usize = 1 << 20;

/// The default port of `convcheck explore`.
pub const DEFAULT_PORT: u16 = 7878;

/// The default time budget of one request, in seconds.
pub const DEFAULT_BUDGET_SECS: u64 = 30;

/// How the server runs.
#[derive(Clone, Debug)]
pub struct Options {
    /// The TCP port on 127.0.0.1; 0 picks a free one.
    pub port: u16,
    /// Time from a request's arrival to its answer; past it the answer is
    /// 503 with a JSON error.
    pub budget: Duration,
    /// `run` and `lower` requests that compute at once (one per core of
    /// the 2-core machines this runs on); others wait for a slot within
    /// their budget. Checks have one slot of their own.
    pub slots: usize,
    /// The kernel the page starts with: its file name and its text.
    pub initial: (String, String),
    /// The external tools a check may run (`explore --allow-tools`); none
    /// by default (docs/src/explorer.md, "Real opt").
    pub tools: Option<Tools>,
}

/// The `opt` a check of LLVM IR may run when the server allows tools: the
/// binary and its arguments are fixed when the server starts, never taken
/// from a request (a request names only the `-passes=` pipeline).
#[derive(Clone, Debug, Default)]
pub struct Tools {
    /// The `opt` binary (default: `opt-19`, else `opt` on the PATH).
    pub opt_bin: Option<String>,
    /// Arguments given to `opt` before the input (`-mtriple=...`).
    pub opt_args: Vec<String>,
    /// The clang that compiles `.cu`, `.hip`, `.cl` and C sources with
    /// convcheck's fixed flags (`--frontend clang`'s); `None`: no clang,
    /// and such sources are refused. [`explore`] looks for `clang-19`,
    /// else `clang`, when none is named.
    pub clang_bin: Option<String>,
    /// Seconds one run of `opt` or clang may take.
    pub tool_timeout: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            port: 0,
            budget: Duration::from_secs(DEFAULT_BUDGET_SECS),
            slots: 2,
            initial: (
                "ambiguity-source.c".to_string(),
                crate::demo::AMBIGUITY_SOURCE.to_string(),
            ),
            tools: None,
        }
    }
}

/// A running explorer server.
pub struct Server {
    addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Server {
    /// Binds 127.0.0.1 on `options.port` and starts serving on a thread of
    /// its own.
    pub fn start(options: Options) -> std::io::Result<Server> {
        let listener = std::net::TcpListener::bind((Ipv4Addr::LOCALHOST, options.port))?;
        listener.set_nonblocking(true)?;
        let addr = listener.local_addr()?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .enable_time()
            .build()?;
        let (stop, stopped) = tokio::sync::oneshot::channel();
        let thread = std::thread::Builder::new()
            .name("convcheck-explore".into())
            .spawn(move || http::serve(runtime, listener, options, stopped))?;
        Ok(Server {
            addr,
            stop: Some(stop),
            thread: Some(thread),
        })
    }

    /// The address the server listens on (always 127.0.0.1).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The page's URL.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Blocks until the server stops (it stops only through [`Server::stop`]
    /// or when its thread fails).
    pub fn wait(mut self) {
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }

    /// Stops accepting connections and waits for the server's thread.
    /// Computations still running are abandoned with the runtime.
    pub fn stop(mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The `explore` command: serves the page for `file` (or seed 000's
/// ambiguity example) on 127.0.0.1:`port`, tells `ready` the URL once it
/// listens, and serves until the process is stopped.
pub fn explore(
    file: Option<&str>,
    port: u16,
    budget_secs: u64,
    tools: Option<Tools>,
    ready: &mut dyn FnMut(&str),
) -> Result<(), Error> {
    // The tools are found once, at the start: the page says which run.
    let tools = match tools {
        Some(mut t) => {
            let bin = match &t.opt_bin {
                Some(b) => b.clone(),
                None => crate::llvm::tools::find(&["opt-19", "opt"], "for --allow-tools")
                    .map_err(Error::tool)?,
            };
            if !crate::llvm::tools::available(&bin) {
                return Err(Error::tool(format!("--opt-bin {bin}: cannot run it")));
            }
            t.opt_bin = Some(bin);
            // clang is optional: without one the page reads no CUDA, HIP
            // or OpenCL source, and says so.
            t.clang_bin = match &t.clang_bin {
                Some(b) if crate::llvm::tools::available(b) => Some(b.clone()),
                Some(b) => return Err(Error::tool(format!("--clang-bin {b}: cannot run it"))),
                None => crate::llvm::tools::find(&["clang-19", "clang"], "for --allow-tools")
                    .ok()
                    .filter(|b| crate::llvm::tools::available(b)),
            };
            Some(t)
        }
        None => None,
    };
    let mut options = Options {
        port,
        budget: Duration::from_secs(budget_secs.max(1)),
        tools,
        ..Options::default()
    };
    if let Some(path) = file {
        match std::fs::read_to_string(path) {
            Ok(text) => options.initial = (path.to_string(), text),
            Err(e) => return Err(Error::usage(format!("{path}: cannot read: {e}"))),
        }
    }
    let server = Server::start(options).map_err(|e| {
        Error::usage(format!(
            "cannot listen on 127.0.0.1:{port}: {e} (choose another with --port, or --port 0 for any free port)"
        ))
    })?;
    ready(&server.url());
    server.wait();
    Err(Error::internal("the explorer's server stopped"))
}
