//! Calls that access no memory (LangRef, "Function Attributes":
//! `memory(none)`, `readnone`): the result is a function of the arguments
//! (DESIGN.md 2.9, "Values": "a `memory(none)` callee returns the same
//! value for the same arguments within a thread"; issue 20, item 4).
//!
//! The model reads an external call's result from its callee's stream, one
//! value per call (`CallKind::Plain`), which ties nothing to the
//! arguments. Two rules make such a call of a non-convergent external
//! function a function of its arguments where it matters:
//!
//! - **Same arguments, dominated.** A call whose callee and arguments (the
//!   same SSA values or constants) are those of a call that dominates it
//!   returns that call's value, as EarlyCSE and GVN assume when they
//!   delete the second call: [`leaders`] finds, for every such call, the
//!   first one (its *leader*), and the mapping copies the leader's value
//!   (`calls.rs`). The arguments are the same *values* wherever the leader
//!   dominates: an operand's definition dominates the leader, so a path
//!   that runs the definition again reaches the follower only through the
//!   leader. Applied to both modules of a check, so a pass that merges the
//!   calls and one that does not are compared on the same semantics.
//! - **Other arguments, another value.** The value read is offset by a
//!   fixed mix of the arguments ([`mix`]: each argument times its own odd
//!   constant, summed): a call's stream value is a free value, so the
//!   offset changes no single call's set of results, but a target that
//!   passes other arguments at the same position of the stream (`f(x)`
//!   turned into `f(y)`) now gets another value, where before it got the
//!   same one (a wrong `preserved`).
//!
//! Not covered: a call hoisted out of a loop (LICM; the reference reads one
//! value per iteration, the target one in all), two calls of one callee
//! reordered, and calls that no dominating call covers (in two branches);
//! those are still compared by stream position, so a legal such transform
//! can be a false alarm. Convergent `memory(none)` operations are events
//! with their arguments observed and are not merged.
#![deny(unsafe_code)]

use std::collections::HashMap;

use convcheck_ir::{BinOp as IrBin, Expr};

use crate::inst::Call;
use crate::module::{Function, Module};
use crate::value::Name;

/// Whether `c` is a call this module's rules cover: a direct call with a
/// result, of an external function that is no intrinsic, not convergent,
/// `memory(none)` or `readnone`, without operand bundles.
pub(crate) fn covered(c: &Call, m: &Module) -> bool {
    let Some(name) = c.callee_name() else {
        return false;
    };
    !name.starts_with("llvm.")
        && m.function(name).is_some_and(|f| !f.is_definition)
        && c.bundles.is_empty()
        && !c.is_convergent(m)
        && c.is_readnone(m)
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
    type Key<'k> = (&'k str, String);
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
            let Some(callee) = c.callee_name() else {
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

/// The arguments' mix added to a covered call's stream value: argument `i`
/// times the `i`-th odd constant, summed (wrapping); `None` without
/// arguments.
pub(crate) fn mix(args: &[Expr]) -> Option<Expr> {
    const K: [i64; 4] = [
        0x9E37_79B9_7F4A_7C15_u64 as i64,
        0xC2B2_AE3D_27D4_EB4F_u64 as i64,
        0x1656_67B1_9E37_79F9_u64 as i64,
        0x27D4_EB2F_1656_67C5_u64 as i64,
    ];
    let mut out: Option<Expr> = None;
    for (i, a) in args.iter().enumerate() {
        let k = K[i % K.len()].wrapping_add(2 * (i / K.len()) as i64);
        let term = Expr::Binary(IrBin::Mul, Box::new(a.clone()), Box::new(Expr::Const(k)));
        out = Some(match out {
            None => term,
            Some(e) => Expr::Binary(IrBin::Add, Box::new(e), Box::new(term)),
        });
    }
    out
}
