//! The cross-check of the two engines (issue 10 item 6; STYLE.md: "a
//! mismatch between engines is a bug in one of them"): a kernel, lowered,
//! through one pass, compared with its own CFG (the pass is what is under
//! test) by the explicit engine ([`crate::engine::check_pass_against_cfg`])
//! and by the symbolic product ([`convcheck_smt::product::compare`]) at the
//! same bounds: iterations per cycle, the group size (fixed, or every
//! `N >= 2` for both), every value.
//!
//! **What "agree" means.** Each engine's answer is judged as *violated*
//! (a counterexample, replayed), *holds* (preserved within the bounds, or
//! proved) or *inconclusive* (a budget, or a construct the engine does not
//! model). The engines agree on a case when both decide it and decide it
//! the same way (both violated, or both hold). A case that either engine
//! leaves inconclusive is outside the engines' common reach: it is counted
//! and never compared, so neither engine's "inconclusive" can hide a
//! disagreement of the other or make one. Cases whose CFG (before or after
//! the pass) has an irreducible cycle are outside that reach too: the
//! explicit engine accepts any of the cycle hierarchies there, the
//! symbolic one follows LLVM's.
//!
//! [`engines_agree`] is the oracle of the `cross_check` fuzz target and of
//! the seeded test `tests/engines.rs`: it panics with both answers and the
//! kernel when the engines disagree.

use crate::engine::{check_pass_against_cfg, Limits, Outcome};
use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::exec::Bounds;
use convcheck_lang::sema::Kernel;
use convcheck_lang::syntax::ast::File;
use convcheck_smt::product::{self, ProductOptions};
use convcheck_smt::Answer;
use convcheck_transforms::{lookup, registry, Contract};
use std::time::Duration;

/// One engine's answer, as the cross-check compares it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Judged {
    /// A counterexample, with its message.
    Violated(String),
    /// Preserved within the bounds, or proved (`proved`: for every
    /// iteration count).
    Holds {
        /// Whether it was proved with no bound.
        proved: bool,
    },
    /// Neither, with the reason.
    Inconclusive(String),
}

/// Both engines' answers on one case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pair {
    /// The explicit engine's.
    pub explicit: Judged,
    /// The symbolic engine's.
    pub symbolic: Judged,
}

impl Pair {
    /// `Some(true)` when both engines decide the case the same way,
    /// `Some(false)` when they decide it differently, `None` when either
    /// leaves it inconclusive.
    pub fn agree(&self) -> Option<bool> {
        match (&self.explicit, &self.symbolic) {
            (Judged::Inconclusive(_), _) | (_, Judged::Inconclusive(_)) => None,
            (Judged::Violated(_), Judged::Violated(_))
            | (Judged::Holds { .. }, Judged::Holds { .. }) => Some(true),
            _ => Some(false),
        }
    }
}

/// The bounds of a cross-check case.
#[derive(Clone, Copy, Debug)]
pub struct CrossBounds {
    /// Iterations per loop (cycle), from 0.
    pub max_iters: u32,
    /// The group size, or 0 for every `N >= 2`.
    pub group: u32,
    /// Paths per thread for the explicit engine.
    pub max_paths: usize,
    /// The symbolic engine's time budget.
    pub timeout: Duration,
}

impl Default for CrossBounds {
    fn default() -> CrossBounds {
        CrossBounds {
            max_iters: 1,
            group: 2,
            max_paths: 2_000,
            timeout: Duration::from_secs(20),
        }
    }
}

/// Every pass of the registry, safe and unsafe, in registry order.
pub fn cross_passes() -> Vec<&'static str> {
    registry().into_iter().map(|p| p.name).collect()
}

/// Both engines on `file` through `pass`, or `None` when the case is not
/// one to compare: the kernel does not analyse, the pass fails, or a CFG
/// has an irreducible cycle.
pub fn cross_check(file: &File, pass: &str, b: CrossBounds) -> Option<Pair> {
    let kernel = Kernel::new("cross.c", file.clone()).ok()?;
    let entry = kernel.entry(None).ok()?;
    let module = convcheck_lang::lower::lower(&kernel, false);
    let p = lookup(pass).ok()?;
    let mut target = module.clone();
    p.run(&mut target).ok()?;
    let (reference_program, target_program) =
        (CfgProgram::new(module.clone()), CfgProgram::new(target));
    for prog in [&reference_program, &target_program] {
        if prog
            .cycles
            .iter()
            .any(|c| c.cycles.iter().any(|y| !y.is_reducible()))
        {
            return None;
        }
    }
    let limits = Limits {
        bounds: Bounds {
            max_iters: b.max_iters,
            max_paths: b.max_paths,
            ..Bounds::default()
        },
        group: b.group,
    };
    let explicit = match check_pass_against_cfg(&module, entry, p.as_ref(), limits) {
        Outcome::Violated(f) => Judged::Violated(f.message),
        Outcome::Preserved { .. } => Judged::Holds { proved: false },
        Outcome::Inconclusive(why) => Judged::Inconclusive(why),
    };
    let opts = ProductOptions {
        max_iters: b.max_iters,
        group: (b.group > 0).then_some(b.group),
        allow_barrier_removal: p.contract() == Contract::RemovesBarriers,
        timeout: b.timeout,
        max_copies: crate::report::bounds::MAX_COPIES,
        ..ProductOptions::default()
    };
    let symbolic = match product::compare(&reference_program, &target_program, entry, &opts) {
        Answer::Counterexample(c) => Judged::Violated(c.message),
        Answer::Proved(p) => Judged::Holds {
            proved: matches!(p.proof, convcheck_smt::product::Proof::Structure { .. }),
        },
        Answer::Unknown(why) => Judged::Inconclusive(why.why),
    };
    Some(Pair { explicit, symbolic })
}

/// The fuzz oracle: panics, with both answers, the pass and the kernel,
/// when the engines decide `file` through the pass numbered `pass` (modulo
/// the registry's length) differently at the default [`CrossBounds`].
pub fn engines_agree(file: &File, pass: u8) {
    let passes = cross_passes();
    let Some(name) = passes.get(usize::from(pass) % passes.len().max(1)) else {
        return;
    };
    if let Some(pair) = cross_check(file, name, CrossBounds::default()) {
        assert!(
            pair.agree() != Some(false),
            "the engines disagree on `{name}`: explicit {:?}, symbolic {:?}\n{}",
            pair.explicit,
            pair.symbolic,
            convcheck_lang::syntax::print(file)
        );
    }
}

/// The lowering stage of one kernel judged three ways: the explicit engine
/// comparing the source-level semantics with the plain CFG and with the
/// CFG lowered with tokens, and the symbolic engine comparing the token
/// CFG with the plain CFG (the stand-in for the source that
/// [`super::run_check`] uses when the kernel is determined).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoweringPair {
    /// Explicit: source level against the plain CFG.
    pub source_vs_plain: Judged,
    /// Explicit: source level against the token CFG (holds when the token
    /// lowering is exact).
    pub source_vs_tokens: Judged,
    /// Symbolic: token CFG against the plain CFG.
    pub tokens_vs_plain: Judged,
}

/// The three judgements of the lowering of `file`, or `None` when the
/// kernel does not analyse, has an implementation-defined region or an
/// irreducible cycle (outside what the token stand-in covers).
pub fn lowering_cross_check(file: &File, b: CrossBounds) -> Option<LoweringPair> {
    use crate::engine::{compare_stages, Allowance, Budget, Side};
    let kernel = Kernel::new("cross.c", file.clone()).ok()?;
    if !kernel.members.is_empty() {
        return None;
    }
    let entry = kernel.entry(None).ok()?;
    let plain = CfgProgram::new(convcheck_lang::lower::lower(&kernel, false));
    let tokens = CfgProgram::new(convcheck_lang::lower::lower(&kernel, true));
    for prog in [&plain, &tokens] {
        if prog
            .cycles
            .iter()
            .any(|c| c.cycles.iter().any(|y| !y.is_reducible()))
        {
            return None;
        }
    }
    let limits = Limits {
        bounds: Bounds {
            max_iters: b.max_iters,
            max_paths: b.max_paths,
            ..Bounds::default()
        },
        group: b.group,
    };
    let code = crate::Code::new(&kernel, None).ok()?;
    let source = Side {
        program: code.program(),
        cfg: None,
        entry,
    };
    let explicit = |target: &CfgProgram| {
        let c = compare_stages(
            &source,
            &[(Side::cfg(target, entry), Allowance::Exact)],
            limits,
            &Budget::default(),
            &mut |_| {},
        );
        match c.outcomes.into_iter().next() {
            Some(Outcome::Violated(f)) => Judged::Violated(f.message),
            Some(Outcome::Preserved { .. }) => Judged::Holds { proved: false },
            Some(Outcome::Inconclusive(why)) => Judged::Inconclusive(why),
            None => Judged::Inconclusive("no outcome".into()),
        }
    };
    let opts = ProductOptions {
        max_iters: b.max_iters,
        group: (b.group > 0).then_some(b.group),
        allow_barrier_removal: false,
        timeout: b.timeout,
        max_copies: crate::report::bounds::MAX_COPIES,
        ..ProductOptions::default()
    };
    let tokens_vs_plain = match product::compare(&tokens, &plain, entry, &opts) {
        Answer::Counterexample(c) => Judged::Violated(c.message),
        Answer::Proved(p) => Judged::Holds {
            proved: matches!(p.proof, convcheck_smt::product::Proof::Structure { .. }),
        },
        Answer::Unknown(why) => Judged::Inconclusive(why.why),
    };
    Some(LoweringPair {
        source_vs_plain: explicit(&plain),
        source_vs_tokens: explicit(&tokens),
        tokens_vs_plain,
    })
}
