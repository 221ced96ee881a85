//! Why an engine gave no answer, typed: the limits a user can raise (time,
//! memory, size), a cancellation, a construct the engine does not model,
//! or an incompleteness of the engine itself. Callers decide on the kind
//! (the checker's `auto` policy runs another engine after an unsupported
//! construct, never after a spent budget) and show the words.
//!
//! z3 says why it gave up only as text (`Z3_solver_get_reason_unknown`);
//! [`Unknown::from_z3`] is the one place that text is read.

use std::fmt;

/// The kind of limit that stopped an engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Limit {
    /// The time budget ran out (the engine's deadline or z3's timeout).
    Time,
    /// z3 reached its memory budget.
    Memory,
    /// The query was canceled (z3's `canceled`, an interrupt).
    Canceled,
    /// A size bound: block copies, iterations the target needs beyond the
    /// engine's unrolling, a resource limit counted in z3's work units.
    Size,
    /// The input uses a construct the engine does not model.
    Unsupported,
    /// The engine could not decide for a reason of its own (z3's
    /// incompleteness, a model that did not replay).
    Incomplete,
}

impl Limit {
    /// Whether this is a budget (time, memory, a cancellation, a size
    /// bound), which another engine would not do better on, rather than a
    /// construct or an incompleteness of this engine.
    pub fn is_budget(self) -> bool {
        matches!(
            self,
            Limit::Time | Limit::Memory | Limit::Canceled | Limit::Size
        )
    }

    /// A short name, as JSON reports write it.
    pub fn name(self) -> &'static str {
        match self {
            Limit::Time => "time",
            Limit::Memory => "memory",
            Limit::Canceled => "canceled",
            Limit::Size => "size",
            Limit::Unsupported => "unsupported",
            Limit::Incomplete => "incomplete",
        }
    }
}

/// An engine's reason for answering unknown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unknown {
    /// Which kind of limit stopped it.
    pub limit: Limit,
    /// What exactly, in words for the report.
    pub why: String,
}

impl Unknown {
    /// A reason of the given kind.
    pub fn new(limit: Limit, why: impl Into<String>) -> Unknown {
        Unknown {
            limit,
            why: why.into(),
        }
    }

    /// A construct the engine does not model.
    pub fn unsupported(why: impl Into<String>) -> Unknown {
        Unknown::new(Limit::Unsupported, why)
    }

    /// The engine's own incompleteness (or an internal inconsistency).
    pub fn incomplete(why: impl Into<String>) -> Unknown {
        Unknown::new(Limit::Incomplete, why)
    }

    /// The time budget ran out.
    pub fn time(why: impl Into<String>) -> Unknown {
        Unknown::new(Limit::Time, why)
    }

    /// z3's reason for `unknown` (`reason` as `get_reason_unknown` gives
    /// it), classified: `timeout`, `canceled`, `memout`/`max. memory
    /// exceeded`, `max. resource limit exceeded`; anything else is z3's
    /// incompleteness.
    pub fn from_z3(reason: &str) -> Unknown {
        let r = reason.to_ascii_lowercase();
        let limit = if r.contains("timeout") {
            Limit::Time
        } else if r.contains("memout") || r.contains("memory") {
            Limit::Memory
        } else if r.contains("cancel") {
            Limit::Canceled
        } else if r.contains("resource") || r.contains("rlimit") {
            Limit::Size
        } else {
            Limit::Incomplete
        };
        Unknown::new(limit, format!("z3: {reason}"))
    }

    /// Whether the reason is a budget (see [`Limit::is_budget`]).
    pub fn is_budget(&self) -> bool {
        self.limit.is_budget()
    }
}

impl fmt::Display for Unknown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.why)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn z3_reasons_are_classified() {
        let cases = [
            ("timeout", Limit::Time),
            ("canceled", Limit::Canceled),
            ("max. memory exceeded", Limit::Memory),
            ("memout", Limit::Memory),
            ("max. resource limit exceeded", Limit::Size),
            ("(incomplete quantifiers)", Limit::Incomplete),
            (
                "smt tactic failed to show goal to be sat/unsat",
                Limit::Incomplete,
            ),
        ];
        for (reason, limit) in cases {
            assert_eq!(Unknown::from_z3(reason).limit, limit, "{reason}");
        }
        assert!(Limit::Time.is_budget() && Limit::Size.is_budget());
        assert!(!Limit::Unsupported.is_budget() && !Limit::Incomplete.is_budget());
    }
}
