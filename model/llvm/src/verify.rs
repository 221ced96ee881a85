//! The static rules of convergence control tokens on LLVM IR, in the words
//! of LLVM's own verifier (LLVM ConvergentOperations, "Static Rules";
//! DESIGN.md 2.3), so that a message convcheck prints can be searched for
//! in LLVM's sources and tests.
//!
//! Two layers, as in LLVM:
//!
//! - **Syntax of the bundles and intrinsics**, checked here on the LLVM
//!   tree (what the mapping to the IR cannot express): a `convergencectrl`
//!   bundle at most once per call and with exactly one token; tokens
//!   produced only by the three convergence intrinsics; no bundle on
//!   `entry` or `anchor`, one on `loop`; `entry` only in a `convergent`
//!   function.
//! - **Rules over the CFG**, checked by `convcheck_ir::tokens::verify` on
//!   the mapped function (entry only in the entry block, `entry` and
//!   `loop` not preceded by a convergent operation in their block, no
//!   mixing of controlled and uncontrolled convergent operations, tokens
//!   dominate their uses, closed paths and cycle hearts), its messages
//!   located on the LLVM line of the offending instruction.
//!
//! A function whose syntax is already wrong is not checked further (LLVM's
//! verifier stops at a broken call too). Not checked: "Convergence region
//! is not well-nested" (neither does `convcheck_ir::tokens`).
#![deny(unsafe_code)]

use std::fmt;

use crate::inst::InstKind;
use crate::module::Module;
use crate::query::ConvergenceIntrinsic;
use crate::to_ir::{plain_name, to_module};
use crate::value::{Name, Value};

/// One broken rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// The function, without `@`.
    pub function: String,
    /// The line of the instruction (or of the function for a rule about
    /// the whole function).
    pub line: u32,
    /// LLVM's message for the rule.
    pub message: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}: @{}: {}",
            self.line, self.function, self.message
        )
    }
}

/// Checks every function `m` defines; violations in module order.
pub fn convergence(m: &Module) -> Vec<Violation> {
    let mut out = Vec::new();
    let mut syntax_ok = Vec::new();
    for f in m.defined_functions() {
        let name = plain_name(&f.name);
        let before = out.len();
        let tokens: Vec<&Name> = f
            .blocks
            .iter()
            .flat_map(|b| b.instructions.iter())
            .filter(|i| matches!(&i.kind, InstKind::Call(c) if c.convergence_intrinsic().is_some()))
            .filter_map(|i| i.result.as_ref())
            .collect();
        for inst in f.blocks.iter().flat_map(|b| b.instructions.iter()) {
            let InstKind::Call(c) = &inst.kind else {
                continue;
            };
            let mut say = |message: &str| {
                out.push(Violation {
                    function: name.clone(),
                    line: inst.span.line,
                    message: message.to_string(),
                })
            };
            let bundles: Vec<_> = c
                .bundles
                .iter()
                .filter(|b| b.tag == "convergencectrl")
                .collect();
            if bundles.len() > 1 {
                say("The 'convergencectrl' bundle can occur at most once on a call");
                continue;
            }
            if let Some(b) = bundles.first() {
                if b.inputs.len() != 1 {
                    say("The 'convergencectrl' bundle requires exactly one token use.");
                    continue;
                }
                let produced = match &b.inputs[0].value {
                    Value::Local(t) => tokens.contains(&t),
                    _ => false,
                };
                if !produced {
                    say("Convergence control tokens can only be produced by calls to the convergence control intrinsics.");
                    continue;
                }
            }
            match c.convergence_intrinsic() {
                Some(ConvergenceIntrinsic::Entry | ConvergenceIntrinsic::Anchor)
                    if !bundles.is_empty() =>
                {
                    say("Entry or anchor intrinsic cannot have a convergencectrl token operand.")
                }
                Some(ConvergenceIntrinsic::Loop) if bundles.is_empty() => {
                    say("Loop intrinsic must have a convergencectrl token operand.")
                }
                Some(ConvergenceIntrinsic::Entry) if !f.is_convergent(m) => {
                    say("Entry intrinsic can occur only in a convergent function.")
                }
                _ => {}
            }
        }
        if out.len() == before {
            syntax_ok.push(name);
        }
    }
    let mapped = to_module(m, &m.file);
    for cfg in &mapped.module.functions {
        if !syntax_ok.contains(&cfg.name) {
            continue;
        }
        let define_line = m.function(&cfg.name).map_or(0, |f| f.span.line);
        for e in convcheck_ir::tokens::verify(cfg) {
            let line = cfg
                .blocks
                .iter()
                .find(|b| b.name == e.block)
                .and_then(|b| b.insts.get(e.inst))
                .map_or(define_line, |i| mapped.module.line(i.sid));
            let line = if e.message.starts_with("Cannot mix") {
                define_line
            } else {
                line
            };
            out.push(Violation {
                function: cfg.name.clone(),
                line,
                message: e.message.to_string(),
            });
        }
    }
    // Module order, then line order within a function.
    let order: Vec<String> = m.defined_functions().map(|f| plain_name(&f.name)).collect();
    out.sort_by_key(|v| (order.iter().position(|n| *n == v.function), v.line));
    out
}
