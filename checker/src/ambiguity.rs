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

/// What `ambiguity` is asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AmbiguityArgs {
    /// Kernel files; every function of every file is compared.
    pub files: Vec<String>,
    /// Passes to run after lowering, in order.
    pub passes: Vec<String>,
    /// Largest iteration number of any loop execution in a scenario.
    pub max_iters: u32,
}

impl Default for AmbiguityArgs {
    fn default() -> AmbiguityArgs {
        AmbiguityArgs {
            files: Vec::new(),
            passes: Vec::new(),
            max_iters: 3,
        }
    }
}
use crate::engine::{compare, Allowance, Limits, Outcome as EngineOutcome, Side};
use crate::{load_kernel, Code, Error, Output, Status};
use convcheck_ir::exec::{Bounds, Event};
use convcheck_ir::print::{expr as expr_text, inst as inst_text, quote};
use convcheck_ir::table;
use convcheck_ir::{Cfg, Module, OpId, Term};
use convcheck_lang::lower::lower;
use convcheck_lang::sema::Kernel;
use convcheck_transforms::lookup;
use std::collections::HashMap;
use std::fmt::Write;

/// The canonical text of a CFG: equal texts mean identical CFGs up to block
/// names, op numbers and source positions (ops are shown by label, plain
/// statements as `stmt`).
pub fn canonical(module: &Module, cfg: &Cfg) -> String {
    let order = cfg.reachable();
    let number: HashMap<usize, usize> = order.iter().enumerate().map(|(i, &b)| (b, i)).collect();
    let by_label = |text: String| -> String {
        // `#N` names op N; replace it by the op's label.
        let mut out = String::new();
        let mut rest = text.as_str();
        while let Some(i) = rest.find('#') {
            out.push_str(&rest[..i]);
            let digits: String = rest[i + 1..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            match digits.parse::<u32>() {
                // A plain statement's label (`@6` by default) says where it
                // stands, not what it does: two copies of one function must
                // compare equal wherever they stand.
                Ok(n)
                    if module
                        .op(OpId(n))
                        .is_some_and(|o| o.kind == convcheck_ir::OpKind::Stmt) =>
                {
                    out.push_str("stmt")
                }
                Ok(n) => out.push_str(&quote(module.label(OpId(n)))),
                Err(_) => out.push('#'),
            }
            rest = &rest[i + 1 + digits.len()..];
        }
        out.push_str(rest);
        out
    };
    let mut out = String::new();
    for &b in &order {
        let block = &cfg.blocks[b];
        let _ = writeln!(out, "b{}:", number[&b]);
        for i in &block.insts {
            let _ = writeln!(out, "  {}", by_label(inst_text(module, i)));
        }
        let n = |t: usize| format!("b{}", number.get(&t).copied().unwrap_or(usize::MAX));
        let e = |x: &convcheck_ir::Expr| by_label(expr_text(module, x));
        let term = match &block.term {
            Term::Br(t) => format!("br {}", n(*t)),
            Term::CondBr { cond, then, els } => {
                format!("br ({}) {} {}", e(cond), n(*then), n(*els))
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
                format!("switch ({}) {} [{}]", e(value), n(*default), cs.join(" "))
            }
            Term::Ret(x) => format!("ret {}", x.as_ref().map(e).unwrap_or_default()),
            Term::Unreachable => "unreachable".into(),
        };
        let _ = writeln!(out, "  {term}");
    }
    out
}

/// The `ambiguity` command.
pub fn ambiguity(a: &AmbiguityArgs) -> Result<Output, Error> {
    let mut kernels = Vec::new();
    for f in &a.files {
        kernels.push((f.clone(), load_kernel(f)?));
    }
    ambiguity_on(&kernels, a)
}

/// Looks for ambiguities among the functions of kernels already loaded.
pub fn ambiguity_on(kernels: &[(String, Kernel)], a: &AmbiguityArgs) -> Result<Output, Error> {
    let mut passes = Vec::new();
    for p in &a.passes {
        match lookup(p) {
            Ok(x) => passes.push(x),
            Err(e) => return Err(Error::pass(format!("--pass {p}: {e}"))),
        }
    }
    // Canonical CFG of every function after the pipeline.
    let mut groups: Vec<(String, Vec<(usize, usize)>)> = Vec::new();
    for (ki, (_, k)) in kernels.iter().enumerate() {
        let mut m = lower(k, false);
        for p in &passes {
            if let Err(e) = p.run(&mut m) {
                return Err(Error::pass(format!("pass {}: {e}", p.name())));
            }
        }
        for (fi, cfg) in m.functions.iter().enumerate() {
            let c = canonical(&m, cfg);
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
                let (code_a, code_b) = match (Code::new(a_k, None), Code::new(b_k, None)) {
                    (Ok(x), Ok(y)) => (x, y),
                    (Err(e), _) | (_, Err(e)) => return Err(e),
                };
                let left = Side {
                    program: code_a.program(),
                    cfg: None,
                    entry: fa,
                };
                let right = Side {
                    program: code_b.program(),
                    cfg: None,
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
                            (fname(a_k, fa), code_a.module(), &f.reference),
                            (fname(b_k, fb), code_b.module(), &f.target),
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
    Ok(Output {
        text: out,
        status: if found > 0 {
            Status::Found
        } else {
            Status::Holds
        },
        remark: None,
    })
}
