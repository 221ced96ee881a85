//! Convergence-control tokens at rest: the static rules and token inference
//! (LLVM ConvergentOperations, "Static Rules" and "Inferring Tokens").
//!
//! [`verify`] checks, function by function, and collects every violation
//! with the rule it breaks, in the words of LLVM's convergence verifier:
//!
//! - `entry` only in the entry block, not preceded by a convergent
//!   operation in its block, and without a `convergencectrl` operand;
//!   `anchor` without one either;
//! - `loop` with a `convergencectrl` operand, not preceded by a convergent
//!   operation in its block;
//! - controlled and uncontrolled convergent operations are not mixed in one
//!   function;
//! - every token is defined, and its definition dominates all its uses;
//! - closed paths (checked on cycles): a use in a cycle that does not
//!   contain the token's definition must be a `loop` intrinsic (the cycle's
//!   *heart*); the outermost such cycle must be reducible with the heart in
//!   its header (the heart dominates the cycle); and such a cycle holds at
//!   most one heart.
//!
//! Not checked yet: that convergence regions nest properly (LLVM's
//! "Convergence region is not well-nested").
//!
//! [`infer`] places tokens on a CFG that has none, as the informational
//! section "Inferring Tokens" describes: `entry` at the start of the entry
//! block, a `loop` heart at the start of every cycle header (its parent:
//! the heart of the enclosing cycle, or `entry`), and every convergent
//! operation controlled by the heart of its innermost cycle, or `entry`.
//! It refuses irreducible CFGs, which that procedure first makes reducible.

use crate::cfg::{BlockId, Cfg, Inst, InstKind, TokenKind};
use crate::cycles::CycleInfo;
use petgraph::algo::dominators::simple_fast;
use petgraph::graph::DiGraph;
use std::collections::HashMap;
use std::fmt;

/// One violation of a static rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenError {
    /// The function.
    pub function: String,
    /// The block of the offending instruction.
    pub block: String,
    /// The instruction's index in its block.
    pub inst: usize,
    /// LLVM's message for the rule.
    pub message: &'static str,
}

impl fmt::Display for TokenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "@{}, block %{}, instruction {}: {}",
            self.function, self.block, self.inst, self.message
        )
    }
}

/// Whether an instruction is a convergent operation (tokens excluded):
/// an observation point, or an expression with a convergent call, a real
/// call or a barrier.
pub fn is_convergent(inst: &Inst) -> bool {
    match &inst.kind {
        InstKind::Observe => true,
        InstKind::Eval(e) | InstKind::SetLocal { value: Some(e), .. } => e.has_convergent_call(),
        InstKind::Phi { incoming, .. } => incoming.iter().any(|(_, e)| e.has_convergent_call()),
        InstKind::SetLocal { value: None, .. } | InstKind::Token { .. } => false,
    }
}

struct Dom {
    dom: petgraph::algo::dominators::Dominators<petgraph::graph::NodeIndex>,
    nodes: Vec<petgraph::graph::NodeIndex>,
}

impl Dom {
    fn new(cfg: &Cfg) -> Dom {
        let mut g = DiGraph::<(), ()>::new();
        let nodes: Vec<_> = (0..cfg.blocks.len()).map(|_| g.add_node(())).collect();
        for (b, block) in cfg.blocks.iter().enumerate() {
            for s in block.term.succs() {
                g.update_edge(nodes[b], nodes[s], ());
            }
        }
        Dom {
            dom: simple_fast(&g, nodes[0]),
            nodes,
        }
    }

    fn dominates(&self, a: BlockId, b: BlockId) -> bool {
        self.dom
            .dominators(self.nodes[b])
            .is_some_and(|mut it| it.any(|d| d == self.nodes[a]))
    }
}

/// Checks the static rules on one CFG.
pub fn verify(cfg: &Cfg) -> Vec<TokenError> {
    let mut errors = Vec::new();
    let err = |errors: &mut Vec<TokenError>, b: BlockId, i: usize, message| {
        errors.push(TokenError {
            function: cfg.name.clone(),
            block: cfg.blocks[b].name.clone(),
            inst: i,
            message,
        })
    };
    let mut defs: HashMap<&str, (BlockId, usize, TokenKind)> = HashMap::new();
    let (mut controlled, mut uncontrolled) = (false, false);
    for (b, block) in cfg.blocks.iter().enumerate() {
        let mut seen_convergent = false;
        for (i, inst) in block.insts.iter().enumerate() {
            match &inst.kind {
                InstKind::Token { kind, name } => {
                    defs.insert(name.as_str(), (b, i, *kind));
                    match kind {
                        TokenKind::Entry => {
                            if b != 0 {
                                err(
                                    &mut errors,
                                    b,
                                    i,
                                    "Entry intrinsic can occur only in the entry block.",
                                );
                            }
                            if seen_convergent {
                                err(
                                    &mut errors,
                                    b,
                                    i,
                                    "Entry intrinsic cannot be preceded by a convergent operation in the same basic block.",
                                );
                            }
                            if inst.token.is_some() {
                                err(&mut errors, b, i, "Entry or anchor intrinsic cannot have a convergencectrl token operand.");
                            }
                        }
                        TokenKind::Anchor => {
                            if inst.token.is_some() {
                                err(&mut errors, b, i, "Entry or anchor intrinsic cannot have a convergencectrl token operand.");
                            }
                        }
                        TokenKind::Loop => {
                            if inst.token.is_none() {
                                err(
                                    &mut errors,
                                    b,
                                    i,
                                    "Loop intrinsic must have a convergencectrl token operand.",
                                );
                            }
                            if seen_convergent {
                                err(
                                    &mut errors,
                                    b,
                                    i,
                                    "Loop intrinsic cannot be preceded by a convergent operation in the same basic block.",
                                );
                            }
                        }
                    }
                    seen_convergent = true;
                }
                _ if is_convergent(inst) => {
                    seen_convergent = true;
                    if inst.token.is_some() {
                        controlled = true;
                    } else {
                        uncontrolled = true;
                    }
                }
                _ => {
                    if inst.token.is_some() {
                        err(
                            &mut errors,
                            b,
                            i,
                            "Convergence control token can only be used in a convergent call.",
                        );
                    }
                }
            }
        }
    }
    if controlled && uncontrolled {
        errors.push(TokenError {
            function: cfg.name.clone(),
            block: cfg.blocks[0].name.clone(),
            inst: 0,
            message: "Cannot mix controlled and uncontrolled convergence in the same function.",
        });
    }
    let dom = Dom::new(cfg);
    let cycles = CycleInfo::compute(cfg);
    // Hearts per cycle that does not contain their token's definition.
    let mut hearts: HashMap<usize, usize> = HashMap::new();
    for (b, block) in cfg.blocks.iter().enumerate() {
        for (i, inst) in block.insts.iter().enumerate() {
            let Some(t) = &inst.token else { continue };
            let Some(&(db, di, _)) = defs.get(t.as_str()) else {
                err(
                    &mut errors,
                    b,
                    i,
                    "Convergence control token is used but never defined.",
                );
                continue;
            };
            if !(dom.dominates(db, b) && (db != b || di < i)) {
                err(
                    &mut errors,
                    b,
                    i,
                    "Convergence control token must dominate all its uses.",
                );
                continue;
            }
            // Cycles that contain the use but not the definition, outermost
            // last in `containing` order.
            let outside: Vec<usize> = cycles.containing[b]
                .iter()
                .copied()
                .filter(|&c| !cycles.cycles[c].blocks.contains(&db))
                .collect();
            let Some(&outermost) = outside.last() else {
                continue;
            };
            let is_loop = matches!(
                inst.kind,
                InstKind::Token {
                    kind: TokenKind::Loop,
                    ..
                }
            );
            if !is_loop {
                err(
                    &mut errors,
                    b,
                    i,
                    "Convergence token used by an instruction other than llvm.experimental.convergence.loop in a cycle that does not contain the token's definition.",
                );
                continue;
            }
            let c = &cycles.cycles[outermost];
            if !c.is_reducible() || c.header != b {
                err(
                    &mut errors,
                    b,
                    i,
                    "Cycle heart must dominate all blocks in the cycle.",
                );
                continue;
            }
            let n = hearts.entry(outermost).or_insert(0);
            *n += 1;
            if *n > 1 {
                err(
                    &mut errors,
                    b,
                    i,
                    "Two static convergence token uses in a cycle that does not contain either token's definition.",
                );
            }
        }
    }
    errors
}

/// Places tokens on a CFG without any ("Inferring Tokens"). Refuses a CFG
/// that already has tokens or has an irreducible cycle.
pub fn infer(cfg: &Cfg) -> Result<Cfg, String> {
    if cfg
        .blocks
        .iter()
        .flat_map(|b| &b.insts)
        .any(|i| i.token.is_some() || matches!(i.kind, InstKind::Token { .. }))
    {
        return Err(format!(
            "@{}: the CFG already has convergence-control tokens",
            cfg.name
        ));
    }
    let cycles = CycleInfo::compute(cfg);
    if let Some(c) = cycles.cycles.iter().find(|c| !c.is_reducible()) {
        return Err(format!(
            "@{}: the cycle headed by %{} is irreducible; token inference needs reducible cycles",
            cfg.name, cfg.blocks[c.header].name
        ));
    }
    let mut out = cfg.clone();
    let entry_sid = cfg.blocks[0].origin.unwrap_or_default();
    let heart_name = |c: usize| format!("heart.{}", cfg.blocks[cycles.cycles[c].header].name);
    for (b, block) in out.blocks.iter_mut().enumerate() {
        let token = match cycles.containing[b].first() {
            Some(&c) => heart_name(c),
            None => "entry".to_string(),
        };
        for inst in block.insts.iter_mut() {
            if is_convergent(inst) {
                inst.token = Some(token.clone());
            }
        }
        if let Some(&c) = cycles.cycles.iter().position(|c| c.header == b).as_ref() {
            let parent = match cycles.cycles[c].parent {
                Some(p) => heart_name(p),
                None => "entry".to_string(),
            };
            let sid = block.origin.unwrap_or(entry_sid);
            block.insts.insert(
                0,
                Inst {
                    kind: InstKind::Token {
                        kind: TokenKind::Loop,
                        name: heart_name(c),
                    },
                    sid,
                    token: Some(parent),
                },
            );
        }
    }
    out.blocks[0].insts.insert(
        0,
        Inst {
            kind: InstKind::Token {
                kind: TokenKind::Entry,
                name: "entry".into(),
            },
            sid: entry_sid,
            token: None,
        },
    );
    Ok(out)
}
