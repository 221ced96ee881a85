//! The rules of LLVM's verifier about the shape of a function that the
//! parser does not check and the mapping to convcheck's IR relies on
//! (issue 20, class l), in LLVM's words so that a message can be searched
//! for in LLVM's sources (`lib/IR/Verifier.cpp`, `lib/AsmParser/LLParser.cpp`):
//!
//! - the entry block has no predecessors ("Entry block to function must
//!   not have predecessors!");
//! - only a phi may use its own value ("Only PHI nodes may reference their
//!   own value!");
//! - a switch has no case value twice ("duplicate case value in switch",
//!   the parser's message);
//! - a phi has one entry for each predecessor of its block and none for
//!   other blocks ("PHINode should have one entry for each predecessor of
//!   its parent basic block!");
//! - a value is defined before every use: in the same block above it,
//!   else in a block that dominates the use (for a phi, the end of the
//!   incoming block); uses in blocks the entry does not reach are not
//!   checked, as in LLVM ("Instruction does not dominate all uses!").
//!
//! A module that breaks one is bad input: `parse_module` returns the error
//! at the offending instruction (`ErrorKind::Invalid`), the CLI exits 2.
#![deny(unsafe_code)]

use std::collections::{BTreeMap, HashMap};

use crate::error::{ErrorKind, ParseError};
use crate::inst::InstKind as K;
use crate::module::{Function, Module};
use crate::value::Name;

/// Every broken rule of every function `m` defines, one per function (the
/// first, in LLVM's order of checks).
pub(crate) fn check(m: &Module, file: &str) -> Vec<ParseError> {
    m.defined_functions()
        .filter_map(|f| function(f, file))
        .collect()
}

fn error(file: &str, span: crate::module::Span, message: &str) -> ParseError {
    ParseError::new(
        file,
        span.line,
        span.col,
        ErrorKind::Invalid,
        message.to_string(),
    )
}

fn function(f: &Function, file: &str) -> Option<ParseError> {
    let (index, succs) = crate::verify::block_graph(&f.blocks);
    let mut preds: Vec<BTreeMap<usize, usize>> = vec![BTreeMap::new(); f.blocks.len()];
    for (b, ss) in succs.iter().enumerate() {
        for &s in ss {
            *preds[s].entry(b).or_insert(0) += 1;
        }
    }
    if let Some(entry) = f.blocks.first() {
        if !preds[0].is_empty() {
            return Some(error(
                file,
                entry.span,
                "Entry block to function must not have predecessors!",
            ));
        }
    }
    // Where each value is defined: (block, index).
    let mut defs: HashMap<&Name, (usize, usize)> = HashMap::new();
    for (b, block) in f.blocks.iter().enumerate() {
        for (i, inst) in block.instructions.iter().enumerate() {
            if let Some(r) = &inst.result {
                defs.insert(r, (b, i));
            }
        }
    }
    let dom = crate::verify::Dominance::of(&succs)?;
    for (b, block) in f.blocks.iter().enumerate() {
        for (i, inst) in block.instructions.iter().enumerate() {
            let uses = crate::to_ir::analyse::local_uses(&inst.kind);
            if !matches!(inst.kind, K::Phi(_))
                && inst
                    .result
                    .as_ref()
                    .is_some_and(|r| uses.iter().any(|(n, _)| *n == r))
            {
                return Some(error(
                    file,
                    inst.span,
                    "Only PHI nodes may reference their own value!",
                ));
            }
            if let K::Switch(s) = &inst.kind {
                let mut seen = std::collections::HashSet::new();
                if s.cases.iter().any(|c| !seen.insert(c.value)) {
                    return Some(error(file, inst.span, "duplicate case value in switch"));
                }
            }
            if let K::Phi(p) = &inst.kind {
                let mut entries: BTreeMap<usize, usize> = BTreeMap::new();
                for (_, pred) in &p.incoming {
                    let k = index.get(pred).copied().unwrap_or(usize::MAX);
                    *entries.entry(k).or_insert(0) += 1;
                }
                let expected: std::collections::BTreeSet<usize> =
                    preds[b].keys().copied().collect();
                let got: std::collections::BTreeSet<usize> = entries.keys().copied().collect();
                if expected != got {
                    return Some(error(
                        file,
                        inst.span,
                        "PHINode should have one entry for each predecessor of its parent basic block!",
                    ));
                }
            }
            if !dom.reachable(b) {
                continue;
            }
            // Each use with the block it is in, and whether it is at the
            // block's end (a phi's use is at the end of its incoming block).
            let at: Vec<(&Name, usize, bool)> = match &inst.kind {
                K::Phi(p) => p
                    .incoming
                    .iter()
                    .filter_map(|(v, pred)| Some((v.as_local()?, *index.get(pred)?, true)))
                    .collect(),
                _ => uses.iter().map(|(n, _)| (*n, b, false)).collect(),
            };
            for (n, ub, at_end) in at {
                let Some(&(db, di)) = defs.get(n) else {
                    continue; // a parameter or a global
                };
                let ok = if !dom.reachable(ub) {
                    true
                } else if db == ub {
                    at_end || di < i
                } else {
                    dom.dominates(db, ub)
                };
                if !ok {
                    let at = f.blocks[db].instructions[di].span;
                    return Some(error(file, at, "Instruction does not dominate all uses!"));
                }
            }
        }
    }
    None
}
