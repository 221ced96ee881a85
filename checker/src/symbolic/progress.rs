//! The progress line of a symbolic check on a terminal: a z3 query blocks
//! its thread, so a ticker thread shows the current stage and the elapsed
//! time on standard error once the check has run for a second, and clears
//! the line when the check ends (the same line as the explicit engine's,
//! `crate::check::check_with`).

use std::io::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A running progress line; dropping it stops the ticker and clears the
/// line.
pub struct Ticker {
    phase: Arc<Mutex<String>>,
    stop: Arc<AtomicBool>,
    handle: Option<JoinHandle<()>>,
}

impl Ticker {
    /// Starts a ticker when `tty` (standard error is a terminal), else a
    /// ticker that shows nothing.
    pub fn start(tty: bool) -> Ticker {
        let phase = Arc::new(Mutex::new(String::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let handle = tty.then(|| {
            let (phase, stop) = (phase.clone(), stop.clone());
            std::thread::spawn(move || {
                let start = Instant::now();
                let mut shown = false;
                while !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(200));
                    let elapsed = start.elapsed().as_secs_f64();
                    if elapsed < 1.0 || stop.load(Ordering::Relaxed) {
                        continue;
                    }
                    let now = phase.lock().map(|p| p.clone()).unwrap_or_default();
                    let _ = write!(
                        std::io::stderr(),
                        "\r\x1b[Kconvcheck check: {now} ({elapsed:.0} s)"
                    );
                    shown = true;
                }
                if shown {
                    let _ = write!(std::io::stderr(), "\r\x1b[K");
                }
            })
        });
        Ticker {
            phase,
            stop,
            handle,
        }
    }

    /// Sets what the line says the check is doing.
    pub fn set(&self, now: String) {
        if let Ok(mut p) = self.phase.lock() {
            *p = now;
        }
    }
}

impl Drop for Ticker {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}
