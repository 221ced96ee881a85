//! How a theorem reports: one `theorem NAME: proved over DOMAIN` line and
//! one `witness NAME: ...` line (the instance or mutant that shows the
//! theorem is not vacuous), and the size of the domain in use.

/// Whether the full domains are in use (`cargo test --release`); the
/// default test profile runs smaller ones and says so in every line.
pub const FULL: bool = cfg!(proofs_full);

/// `full` under `cargo test --release`, else `small`.
pub fn pick<T>(full: T, small: T) -> T {
    if FULL {
        full
    } else {
        small
    }
}

/// The domain label suffix: empty for the full domain, else a note that
/// the smaller debug domain ran.
pub fn profile_note() -> &'static str {
    if FULL {
        ""
    } else {
        " [debug domain; the full domain runs under --release]"
    }
}

/// Prints the theorem line.
pub fn proved(name: &str, domain: &str) {
    println!("theorem {name}: proved over {domain}{}", profile_note());
}

/// Prints the witness line.
pub fn witness(name: &str, text: &str) {
    println!("witness {name}: {text}");
}

/// Prints the theorem line of a theorem whose domain is the same under
/// every profile.
pub fn proved_everywhere(name: &str, domain: &str) {
    println!("theorem {name}: proved over {domain}");
}
