//! The explorer page in a real browser under `cargo test`: the same test as
//! `checker/browser-test/run.sh` (which CI runs, installing what it needs),
//! against a server started in-process. Where Debian's chromium, node or
//! playwright-core (`npm ci` in `checker/browser-test/`) is missing, the
//! test says which on standard error and passes without running: a plain
//! `cargo test` must not need a browser.

use convcheck::explore::{Options, Server};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Says why the test did not run, past libtest's output capture.
fn skip(why: &str) {
    let _ = writeln!(
        std::io::stderr(),
        "explore_browser: skipped: {why} (checker/browser-test/run.sh installs it and runs the test)"
    );
}

fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
}

#[test]
fn the_page_in_headless_chromium() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("browser-test");
    let Some(chromium) = chromium() else {
        return skip("Debian's chromium is not installed (/usr/bin/chromium)");
    };
    if Command::new("node").arg("--version").output().is_err() {
        return skip("node is not installed");
    }
    if !dir
        .join("node_modules/playwright-core/package.json")
        .exists()
    {
        return skip("playwright-core is not installed (npm ci in checker/browser-test)");
    }
    let server = Server::start(Options::default()).expect("the server starts");
    // The clang test's server (--allow-tools), when clang-19 and opt-19 run.
    let runs = |t: &str| {
        Command::new(t)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    let tools = (runs("clang-19") && runs("opt-19")).then(|| {
        Server::start(Options {
            tools: Some(convcheck::explore::Tools {
                opt_bin: Some("opt-19".into()),
                opt_args: Vec::new(),
                clang_bin: Some("clang-19".into()),
                tool_timeout: 60,
            }),
            ..Options::default()
        })
        .expect("the server with tools starts")
    });
    if tools.is_none() {
        skip("the clang test only: clang-19 or opt-19 is not installed");
    }
    let shot = Path::new(env!("CARGO_TARGET_TMPDIR")).join("explorer.png");
    let out = Command::new("node")
        .args(["--test", "--test-reporter=spec", "test.mjs"])
        .current_dir(&dir)
        .env("EXPLORE_URL", server.url())
        .env(
            "EXPLORE_TOOLS_URL",
            tools.as_ref().map(Server::url).unwrap_or_default(),
        )
        .env("SCREENSHOT", &shot)
        .env("CHROMIUM", &chromium)
        .output()
        .expect("node runs");
    server.stop();
    if let Some(t) = tools {
        t.stop();
    }
    assert!(
        out.status.success(),
        "the browser test failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(shot.exists(), "no screenshot at {}", shot.display());
}
