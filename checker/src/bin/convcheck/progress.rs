//! The progress display of long commands: one spinner line on standard
//! error (indicatif), shown only when standard error is a terminal and
//! cleared when the command ends. The library tells it where it is through
//! `convcheck::pipeline::Progress`; its elapsed time keeps ticking while a
//! z3 query blocks the library's thread.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::time::Duration;

/// A spinner with a message, on standard error.
pub struct Spinner {
    bar: ProgressBar,
    log: Option<std::time::Instant>,
}

impl Spinner {
    /// A spinner for `command` (hidden unless standard error is a
    /// terminal).
    pub fn new(command: &str) -> Spinner {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        let style = ProgressStyle::with_template("{spinner} convcheck {prefix}: {msg} ({elapsed})")
            .unwrap_or_else(|_| ProgressStyle::default_spinner());
        bar.set_style(style);
        bar.set_prefix(command.to_string());
        bar.enable_steady_tick(Duration::from_millis(200));
        let log = std::env::var_os("CONVCHECK_PROGRESS_LOG").map(|_| std::time::Instant::now());
        Spinner { bar, log }
    }
}

impl convcheck::pipeline::Progress for Spinner {
    fn report(&self, what: &str) {
        if let Some(start) = self.log {
            eprintln!("[{:8.3}] {what}", start.elapsed().as_secs_f64());
        }
        self.bar.set_message(what.to_string());
    }
}

impl Drop for Spinner {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}
