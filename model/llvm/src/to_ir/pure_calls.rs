//! Calls that access no memory (LangRef, "Function Attributes":
//! `memory(none)`, `readnone`): the result is a function of the arguments
//! (DESIGN.md 2.9, "Values": "a `memory(none)` callee returns the same
//! value for the same arguments within a thread"; issue 20, item 4).
//!
//! A call of a non-convergent external function that [`covered`] accepts
//! reads an oracle of class `function` named after the callee
//! (`convcheck_ir::OracleClass::Function`): one free value per thread and
//! argument list, whatever the order and number of the calls. Every engine
//! reads it so: the interpreter as a free value named `f(3,1)` (as a free
//! memory location is named; its scenario and replay format), the
//! symbolic product and the simulation as an uninterpreted function of the
//! arguments per thread, shared by the reference and the target. So
//! EarlyCSE and GVN merging two calls with the same arguments, LICM
//! hoisting one out of a loop and two calls reordered are the same
//! values, and `f(x)` turned into `f(y)` is another value. The integer
//! arguments are keyed as the unsigned `iN` they are (`observed_args`), so
//! that the garbage the width rule allows above bit `N` is no other
//! argument. A call that a call of the same callee with the same
//! arguments (the same SSA values or constants) dominates takes that call's
//! value ([`leaders`]): the same value under this rule, as a copy, which
//! the simulation and the domain analysis follow more easily. A call that
//! is not `willreturn` is an event with its arguments as well (it may not
//! return: `super::calls`, review3 H14). Convergent `memory(none)` operations are events with their
//! arguments observed and are not merged; calls that may read memory read
//! one stream value per call.
#![deny(unsafe_code)]

use std::collections::HashMap;

use crate::inst::Call;
use crate::module::{Function, Module};
use crate::value::Name;

/// Whether `c` is a call this module's rule covers: a direct call with a
/// result, of an external function that is no intrinsic, not convergent,
/// `memory(none)` or `readnone`, without operand bundles.
pub(crate) fn covered(c: &Call, m: &Module) -> bool {
    // Inline assembly is such a function unless it says `sideeffect`
    // (`super::asm`).
    let callee = match super::asm::text(c) {
        Some(text) => !super::asm::has_side_effects(text),
        None => c.callee_name().is_some_and(|name| {
            !name.starts_with("llvm.") && m.function(name).is_some_and(|f| !f.is_definition)
        }),
    };
    callee && c.bundles.is_empty() && !c.is_convergent(m) && c.is_readnone(m)
}

/// For every covered call (by its result) that a covered call of the same
/// callee with the same arguments dominates, the first such call's result.
pub(crate) fn leaders<'f>(f: &'f Function, m: &Module) -> HashMap<&'f Name, &'f Name> {
    let (_, succs) = crate::verify::block_graph(&f.blocks);
    let mut out = HashMap::new();
    let Some(dom) = crate::verify::Dominance::of(&succs) else {
        return out;
    };
    // The covered calls, grouped by callee, result type and arguments.
    type Key = (String, String);
    let mut groups: HashMap<Key, Vec<(usize, usize, &Name)>> = HashMap::new();
    for (b, block) in f.blocks.iter().enumerate() {
        if !dom.reachable(b) {
            continue;
        }
        for (i, inst) in block.instructions.iter().enumerate() {
            let (Some(r), Some(c)) = (&inst.result, inst.as_call()) else {
                continue;
            };
            if !covered(c, m) {
                continue;
            }
            let Some(callee) = super::asm::callee_key(c) else {
                continue;
            };
            let args = format!("{:?} {:?}", c.ret_ty, c.args);
            groups.entry((callee, args)).or_default().push((b, i, r));
        }
    }
    let before = |(ab, ai): (usize, usize), (bb, bi): (usize, usize)| {
        if ab == bb {
            ai < bi
        } else {
            dom.dominates(ab, bb)
        }
    };
    for calls in groups.values() {
        for &(bb, bi, br) in calls {
            // The dominating calls form a chain; its top is the leader.
            let above: Vec<&(usize, usize, &Name)> = calls
                .iter()
                .filter(|&&(ab, ai, _)| before((ab, ai), (bb, bi)))
                .collect();
            let top = above.iter().find(|&&&(ab, ai, _)| {
                !calls.iter().any(|&(cb, ci, _)| before((cb, ci), (ab, ai)))
            });
            if let Some(&&(_, _, ar)) = top {
                out.insert(br, ar);
            }
        }
    }
    out
}
