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
//! - **Nesting of regions** ("Convergence region is not well-nested."),
//!   checked here on the LLVM tree with LLVM's own algorithm
//!   (`GenericConvergenceVerifier::verify`): the blocks are walked in
//!   reverse post-order keeping a stack of live tokens; a token use must
//!   find its token on the stack and pops every token above it (their
//!   regions end there); a block inherits, from its first visited
//!   predecessor, the bottom of that predecessor's stack made of tokens
//!   whose blocks dominate it, intersected with what its other forward
//!   predecessors keep. The rules about cycles that LLVM checks on the
//!   same use after it are not repeated when the use is not well nested.
//!
//! A function whose syntax is already wrong is not checked further (LLVM's
//! verifier stops at a broken call too).
#![deny(unsafe_code)]

use std::collections::HashMap;
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
        let nesting = m
            .function(&cfg.name)
            .map(not_well_nested)
            .unwrap_or_default();
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
            // LLVM checks a use's cycle rules only once it is well nested.
            if is_cycle_rule(e.message) && nesting.contains(&line) {
                continue;
            }
            out.push(Violation {
                function: cfg.name.clone(),
                line,
                message: e.message.to_string(),
            });
        }
        for line in nesting {
            out.push(Violation {
                function: cfg.name.clone(),
                line,
                message: NOT_WELL_NESTED.to_string(),
            });
        }
    }
    // Module order, then line order within a function.
    let order: Vec<String> = m.defined_functions().map(|f| plain_name(&f.name)).collect();
    out.sort_by_key(|v| (order.iter().position(|n| *n == v.function), v.line));
    out
}

/// LLVM's message for a use of a token whose region another region
/// overlaps without nesting.
pub const NOT_WELL_NESTED: &str = "Convergence region is not well-nested.";

/// Whether `message` is one of the rules LLVM checks on a token use after
/// its nesting.
fn is_cycle_rule(message: &str) -> bool {
    message.starts_with("Convergence token used by an instruction other than")
        || message.starts_with("Cycle heart must dominate")
        || message.starts_with("Two static convergence token uses")
}

/// The lines of the token uses of `f` that are not well nested, in the
/// order LLVM's verifier finds them (reverse post-order of the blocks
/// reachable from the entry, instructions in order).
pub fn not_well_nested(f: &crate::module::Function) -> Vec<u32> {
    type Pos = (usize, usize);
    let blocks = &f.blocks;
    let (_, succs) = block_graph(blocks);
    let rpo = reverse_post_order(&succs);
    let doms = Dominance::of(&succs);
    let dominates = |a: usize, b: usize| doms.as_ref().is_some_and(|d| d.dominates(a, b));
    // Where each convergence intrinsic's token is defined.
    let mut defs: HashMap<&Name, Pos> = HashMap::new();
    for (bi, b) in blocks.iter().enumerate() {
        for (ii, inst) in b.instructions.iter().enumerate() {
            if let (InstKind::Call(c), Some(r)) = (&inst.kind, &inst.result) {
                if c.convergence_intrinsic().is_some() {
                    defs.insert(r, (bi, ii));
                }
            }
        }
    }
    let mut lines = Vec::new();
    let mut live_map: HashMap<usize, Vec<Pos>> = HashMap::new();
    for &bb in &rpo {
        let mut live = live_map.remove(&bb).unwrap_or_default();
        for (ii, inst) in blocks[bb].instructions.iter().enumerate() {
            let InstKind::Call(c) = &inst.kind else {
                continue;
            };
            let used = match c.convergencectrl() {
                Some(Value::Local(t)) => defs.get(t).copied(),
                _ => None,
            };
            if let Some(token) = used {
                if live.contains(&token) {
                    while live.last() != Some(&token) {
                        live.pop();
                    }
                } else {
                    lines.push(inst.span.line);
                }
            }
            if c.convergence_intrinsic().is_some() {
                live.push((bb, ii));
            }
        }
        for &s in &succs[bb] {
            match live_map.get_mut(&s) {
                None => {
                    let inherited = live
                        .iter()
                        .take_while(|t| dominates(t.0, s))
                        .copied()
                        .collect();
                    live_map.insert(s, inherited);
                }
                Some(kept) => kept.retain(|t| live.contains(t)),
            }
        }
    }
    lines
}

/// The blocks reachable from block 0 in reverse post-order, successors
/// visited in order (LLVM's `ReversePostOrderTraversal`).
fn reverse_post_order(succs: &[Vec<usize>]) -> Vec<usize> {
    let mut post = Vec::new();
    if succs.is_empty() {
        return post;
    }
    let mut seen = vec![false; succs.len()];
    let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
    seen[0] = true;
    while let Some(top) = stack.last_mut() {
        let (b, next) = *top;
        if let Some(&s) = succs[b].get(next) {
            top.1 += 1;
            if !seen[s] {
                seen[s] = true;
                stack.push((s, 0));
            }
        } else {
            post.push(b);
            stack.pop();
        }
    }
    post.reverse();
    post
}

/// A function's blocks by number (block `i` is `blocks[i]`): each block
/// name's number, and each block's successors (a successor that names no
/// block is left out).
pub(crate) fn block_graph(
    blocks: &[crate::module::Block],
) -> (HashMap<&Name, usize>, Vec<Vec<usize>>) {
    let index: HashMap<&Name, usize> = blocks
        .iter()
        .enumerate()
        .map(|(i, b)| (&b.name, i))
        .collect();
    let succs = blocks
        .iter()
        .map(|b| {
            b.successors()
                .into_iter()
                .filter_map(|n| index.get(n).copied())
                .collect()
        })
        .collect();
    (index, succs)
}

/// Dominance among the blocks reachable from block 0 (petgraph's Cooper,
/// Harvey and Kennedy).
pub(crate) struct Dominance(petgraph::algo::dominators::Dominators<petgraph::graph::NodeIndex>);

impl Dominance {
    /// The dominator tree of `succs` from block 0; `None` for a function
    /// without blocks.
    pub(crate) fn of(succs: &[Vec<usize>]) -> Option<Dominance> {
        if succs.is_empty() {
            return None;
        }
        let mut g: petgraph::graph::DiGraph<(), ()> = petgraph::graph::DiGraph::new();
        let nodes: Vec<_> = succs.iter().map(|_| g.add_node(())).collect();
        for (b, ss) in succs.iter().enumerate() {
            for &s in ss {
                g.add_edge(nodes[b], nodes[s], ());
            }
        }
        Some(Dominance(petgraph::algo::dominators::simple_fast(
            &g, nodes[0],
        )))
    }

    /// Whether block `b` is reachable from block 0.
    pub(crate) fn reachable(&self, b: usize) -> bool {
        b == 0
            || self
                .0
                .immediate_dominator(petgraph::graph::NodeIndex::new(b))
                .is_some()
    }

    /// Whether block `a` dominates block `b` (a block dominates itself; no
    /// block dominates an unreachable one).
    pub(crate) fn dominates(&self, a: usize, b: usize) -> bool {
        self.0
            .dominators(petgraph::graph::NodeIndex::new(b))
            .is_some_and(|mut it| it.any(|n| n.index() == a))
    }
}
