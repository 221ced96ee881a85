//! `convcheck ambiguity`: programs that a pipeline makes identical although
//! their convergence differs (DESIGN.md 2.7, "Ambiguity"; seed 000,
//! "Ambiguity in a Simplified CFG").
//!
//! Every function of every file is lowered and run through the passes; the
//! resulting CFGs are compared in a canonical form (blocks numbered in
//! depth-first order from the entry, instructions and terminators printed
//! without names or positions, operations by label). Functions whose CFGs
//! are identical are then compared at the source level with the refinement
//! engine; if some scenario gives them different convergence, that is an
//! ambiguity, reported with both trace tables.

use crate::cli::AmbiguityArgs;
use crate::engine::{compare, Allowance, Limits, Outcome as EngineOutcome, Side};
use crate::{load_kernel, Outcome, EXIT_OK, EXIT_VIOLATION};
use convcheck_model::cfg::lower::lower;
use convcheck_model::cfg::print::inst as inst_text;
use convcheck_model::cfg::{Cfg, Term};
use convcheck_model::exec::{Bounds, Event};
use convcheck_model::sema::Kernel;
use convcheck_model::syntax::print_expr;
use convcheck_model::table;
use convcheck_transforms::lookup;
use std::collections::HashMap;
use std::fmt::Write;

/// The canonical text of a CFG: equal texts mean identical CFGs up to block
/// names and source positions.
pub fn canonical(kernel: &Kernel, cfg: &Cfg) -> String {
    let order = cfg.reachable();
    let number: HashMap<usize, usize> = order.iter().enumerate().map(|(i, &b)| (b, i)).collect();
    let mut out = String::new();
    for &b in &order {
        let block = &cfg.blocks[b];
        let _ = writeln!(out, "b{}:", number[&b]);
        for i in &block.insts {
            let text = inst_text(kernel, i);
            let mut parts = text.split(" ; ");
            let head = parts.next().unwrap_or("");
            // Keep the operation's label, drop its line.
            let label = parts
                .next()
                .map(|c| c.split(" (line").next().unwrap_or(c))
                .unwrap_or("");
            let _ = writeln!(out, "  {head} {label}");
        }
        let n = |t: usize| format!("b{}", number.get(&t).copied().unwrap_or(usize::MAX));
        let term = match &block.term {
            Term::Br(t) => format!("br {}", n(*t)),
            Term::CondBr { cond, then, els } => {
                format!("br ({}) {} {}", print_expr(cond), n(*then), n(*els))
            }
            Term::Switch {
                value,
                cases,
                default,
            } => {
                let cs: Vec<String> = cases
                    .iter()
                    .map(|(v, t)| format!("{v}:{}", n(*t)))
                    .collect();
                format!(
                    "switch ({}) {} [{}]",
                    print_expr(value),
                    n(*default),
                    cs.join(" ")
                )
            }
            Term::Ret(e) => format!("ret {}", e.as_ref().map(print_expr).unwrap_or_default()),
        };
        let _ = writeln!(out, "  {term}");
    }
    out
}

/// The `ambiguity` command.
pub fn ambiguity(a: &AmbiguityArgs) -> Outcome {
    let mut kernels = Vec::new();
    for f in &a.files {
        match load_kernel(f) {
            Ok(k) => kernels.push((f.clone(), k)),
            Err(o) => return o,
        }
    }
    ambiguity_on(&kernels, a)
}

/// Looks for ambiguities among the functions of kernels already loaded.
pub fn ambiguity_on(kernels: &[(String, Kernel)], a: &AmbiguityArgs) -> Outcome {
    let mut passes = Vec::new();
    for p in &a.passes {
        match lookup(p) {
            Ok(x) => passes.push(x),
            Err(e) => return Outcome::usage(format!("--pass {p}: {e}")),
        }
    }
    // Canonical CFG of every function after the pipeline.
    let mut groups: Vec<(String, Vec<(usize, usize)>)> = Vec::new();
    for (ki, (_, k)) in kernels.iter().enumerate() {
        let mut m = lower(k, false);
        for p in &passes {
            if let Err(e) = p.run(k, &mut m) {
                return Outcome::usage(format!("pass {}: {e}", p.name()));
            }
        }
        for (fi, cfg) in m.functions.iter().enumerate() {
            let c = canonical(k, cfg);
            match groups.iter_mut().find(|g| g.0 == c) {
                Some(g) => g.1.push((ki, fi)),
                None => groups.push((c, vec![(ki, fi)])),
            }
        }
    }
    let limits = Limits {
        bounds: Bounds {
            max_iters: a.max_iters,
            ..Bounds::default()
        },
        group: 2,
    };
    let pipeline = if a.passes.is_empty() {
        "lowering".to_string()
    } else {
        a.passes.join(", ")
    };
    let mut out = String::new();
    let mut found = 0;
    for (_, members) in groups.iter().filter(|g| g.1.len() > 1) {
        for x in 0..members.len() {
            for y in x + 1..members.len() {
                let ((ka, fa), (kb, fb)) = (members[x], members[y]);
                let (na, a_k) = (&kernels[ka].0, &kernels[ka].1);
                let (nb, b_k) = (&kernels[kb].0, &kernels[kb].1);
                let left = Side {
                    kernel: a_k,
                    program: None,
                    entry: fa,
                };
                let right = Side {
                    kernel: b_k,
                    program: None,
                    entry: fb,
                };
                let fname = |k: &Kernel, f: usize| k.functions[f].name.clone();
                let _ = writeln!(
                    out,
                    "{na} `{}` and {nb} `{}` have identical CFGs after {pipeline}",
                    fname(a_k, fa),
                    fname(b_k, fb)
                );
                match compare(&left, &right, Allowance::Exact, limits) {
                    EngineOutcome::Violated(f) => {
                        found += 1;
                        let message = f
                            .message
                            .replace("in the reference", &format!("in `{}`", fname(a_k, fa)))
                            .replace("in the target", &format!("in `{}`", fname(b_k, fb)));
                        let _ = writeln!(
                            out,
                            "AMBIGUITY: their source-level convergence differs: {message}"
                        );
                        let _ = writeln!(out, "  scenario:");
                        for (t, v) in f.tids.iter().zip(&f.threads) {
                            let _ = writeln!(out, "    tid {t}: {}", v.render());
                        }
                        let rows: Vec<String> = f.tids.iter().map(|t| format!("tid {t}")).collect();
                        for (title, k, traces) in [
                            (fname(a_k, fa), a_k, &f.reference),
                            (fname(b_k, fb), b_k, &f.target),
                        ] {
                            let runs: Vec<&[Event]> =
                                traces.iter().map(|t| t.events.as_slice()).collect();
                            match table::build(k, rows.clone(), &runs) {
                                Ok(t) => {
                                    let _ = writeln!(out, "  {title}:");
                                    for line in t.render().lines() {
                                        let _ = writeln!(out, "  {line}");
                                    }
                                }
                                Err(e) => {
                                    let _ = writeln!(out, "  ({title}: table unavailable: {e})");
                                }
                            }
                        }
                    }
                    EngineOutcome::Preserved { .. } => {
                        let _ = writeln!(
                            out,
                            "  same convergence in every scenario within bounds: no ambiguity"
                        );
                    }
                    EngineOutcome::Inconclusive(why) => {
                        let _ = writeln!(out, "  inconclusive: {why}");
                    }
                }
            }
        }
    }
    if out.is_empty() {
        out = format!("no two functions have identical CFGs after {pipeline}\n");
    }
    let _ = writeln!(
        out,
        "{found} ambiguit{} found",
        if found == 1 { "y" } else { "ies" }
    );
    Outcome {
        stdout: out,
        stderr: String::new(),
        code: if found > 0 { EXIT_VIOLATION } else { EXIT_OK },
    }
}
