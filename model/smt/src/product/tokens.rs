//! Convergence-control tokens in the unrolling (DESIGN.md 2.3, CFG level
//! with tokens; LLVM ConvergentOperations): which dynamic instance of a
//! token definition a controlled operation uses, as a static function of
//! the block copy.
//!
//! **The interpreter's rule** (`convcheck_ir::exec::cfg`): an operation
//! controlled by token `T` is keyed by the instance of `T`'s definition
//! whose value the thread holds, plus the operation's block and
//! instruction. `entry` has the invocation's key; a `loop` heart `L` with
//! parent `P` is keyed by `P`'s instance, `L` and `n`, the number of
//! earlier executions of `L` with that value of `P`; `anchor` is an
//! implementation-defined choice.
//!
//! **What this module accepts**, checked before anything is unrolled
//! ([`TokenPlan::new`]; anything else is refused with the construct
//! named, so the engine answers `Unknown`, never a verdict):
//!
//! - no `anchor` (its instances are choices of the implementation);
//! - `entry` only in a block that is in no cycle (it runs at most once per
//!   invocation, as LLVM requires it in the entry block);
//! - a `loop` heart either in a block in no cycle (it runs at most once
//!   per invocation: `n = 0`), or in the header of the innermost cycle `C`
//!   containing its block, with its parent defined in the header of `C`'s
//!   parent cycle, or, for an outermost `C`, in a block in no cycle.
//!
//! Under these conditions `n` is the copy's count of `C` minus one: every
//! new instance of the parent is made by the parent cycle's header (or
//! once per invocation), which is exactly when the copies' count of `C`
//! starts again (see [`super::unroll`]); between two parent instances the
//! thread can only re-enter `C` through an enclosing cycle's header.
//!
//! **Token state in the copies.** A copy carries the instances of the
//! tokens live on entry to its block (used there or later before being
//! defined again), so a block reached with different live instances (an
//! exit block using a loop's heart, reached from different iterations) is
//! copied once per instance: the copy determines the instance of every
//! token it uses. Instances are interned as `(definition, parent
//! instance, n)`.

use convcheck_ir::cycles::CycleInfo;
use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::{BlockId, Cfg, InstKind, TokenKind};
use std::collections::HashMap;

/// Where a token is defined: block, kind and parent.
#[derive(Clone, Debug)]
struct Def {
    block: BlockId,
    kind: TokenKind,
    parent: Option<String>,
}

/// The tokens of one function, and the interned instances built so far.
#[derive(Clone, Debug, Default)]
pub struct TokenPlan {
    /// Per block, the tokens live on entry, sorted by name.
    live_in: Vec<Vec<String>>,
    instances: HashMap<(BlockId, usize, u32, u32), u32>,
}

/// Token instances held at one point: name → instance.
pub type Env = Vec<(String, u32)>;

const NO_PARENT: u32 = u32::MAX;

impl TokenPlan {
    /// The plan of `cfg`, `None` when it has no tokens, or why the engine
    /// cannot model them.
    pub fn new(cfg: &Cfg, ci: &CycleInfo) -> Result<Option<TokenPlan>, String> {
        let mut defs: HashMap<String, Def> = HashMap::new();
        let mut any = false;
        for (b, block) in cfg.blocks.iter().enumerate() {
            for inst in &block.insts {
                if inst.token.is_some() {
                    any = true;
                }
                if let InstKind::Token { kind, name } = &inst.kind {
                    any = true;
                    if defs.contains_key(name) {
                        return Err(format!("token {name} is defined twice in `{}`", cfg.name));
                    }
                    defs.insert(
                        name.clone(),
                        Def {
                            block: b,
                            kind: *kind,
                            parent: inst.token.clone(),
                        },
                    );
                }
            }
        }
        if !any {
            return Ok(None);
        }
        let innermost = |b: BlockId| ci.containing.get(b).and_then(|v| v.first().copied());
        for (name, d) in &defs {
            let at = &cfg.blocks[d.block].name;
            match d.kind {
                TokenKind::Anchor => {
                    return Err(format!(
                        "the anchor {name} (block {at} of `{}`) is implementation-defined; anchors are not \
                         modelled by the symbolic engine",
                        cfg.name
                    ))
                }
                TokenKind::Entry => {
                    if innermost(d.block).is_some() {
                        return Err(format!(
                            "the entry token {name} is inside a cycle (block {at} of `{}`)",
                            cfg.name
                        ));
                    }
                }
                TokenKind::Loop => {
                    let Some(p) = d.parent.as_ref().and_then(|p| defs.get(p)) else {
                        return Err(format!(
                            "the loop heart {name} (block {at} of `{}`) has no defined parent token",
                            cfg.name
                        ));
                    };
                    let Some(c) = innermost(d.block) else {
                        continue;
                    };
                    if ci.cycles[c].header != d.block || !ci.cycles[c].is_reducible() {
                        return Err(format!(
                            "the loop heart {name} is not in the header of a reducible cycle (block {at} of `{}`); \
                             only hearts in the headers of reducible cycles are modelled by the symbolic engine",
                            cfg.name
                        ));
                    }
                    let parent_ok = match ci.cycles[c].parent {
                        Some(pc) => ci.cycles[pc].header == p.block,
                        None => innermost(p.block).is_none(),
                    };
                    if !parent_ok {
                        return Err(format!(
                            "the parent of the loop heart {name} (block {at} of `{}`) is not defined in the \
                             header of the enclosing cycle; the symbolic engine counts heart executions per \
                             parent instance only in that shape",
                            cfg.name
                        ));
                    }
                }
            }
        }
        // Liveness: uses before a definition in the block, and what flows
        // through.
        let n = cfg.blocks.len();
        let mut uses: Vec<Vec<String>> = vec![Vec::new(); n];
        let mut kills: Vec<Vec<String>> = vec![Vec::new(); n];
        for (b, block) in cfg.blocks.iter().enumerate() {
            for inst in &block.insts {
                if let Some(t) = &inst.token {
                    if !kills[b].contains(t) && !uses[b].contains(t) {
                        uses[b].push(t.clone());
                    }
                }
                if let InstKind::Token { name, .. } = &inst.kind {
                    kills[b].push(name.clone());
                }
            }
        }
        let mut live_in: Vec<Vec<String>> = uses.clone();
        let mut changed = true;
        while changed {
            changed = false;
            for b in (0..n).rev() {
                let mut add = Vec::new();
                for s in cfg.blocks[b].term.succs() {
                    for t in live_in.get(s).into_iter().flatten() {
                        if !kills[b].contains(t) && !live_in[b].contains(t) && !add.contains(t) {
                            add.push(t.clone());
                        }
                    }
                }
                if !add.is_empty() {
                    live_in[b].extend(add);
                    changed = true;
                }
            }
        }
        for l in &mut live_in {
            l.sort();
        }
        Ok(Some(TokenPlan {
            live_in,
            instances: HashMap::new(),
        }))
    }

    /// The instances live on entry to `b`, taken from `env`.
    pub fn live(&self, b: BlockId, env: &Env) -> Vec<u32> {
        self.live_in
            .get(b)
            .into_iter()
            .flatten()
            .map(|t| {
                env.iter()
                    .find(|(n, _)| n == t)
                    .map_or(NO_PARENT, |(_, i)| *i)
            })
            .collect()
    }

    /// Runs block `b` of a copy with `counts` and live-in instances
    /// `live`: the instance controlling each instruction (`None` for an
    /// uncontrolled one or a definition) and the instances held at its
    /// end.
    pub fn run_block(
        &mut self,
        cfg: &Cfg,
        ci: &CycleInfo,
        b: BlockId,
        counts: &[u32],
        live: &[u32],
    ) -> Result<(Vec<Option<u32>>, Env), String> {
        let mut env: Env = self
            .live_in
            .get(b)
            .into_iter()
            .flatten()
            .cloned()
            .zip(live.iter().copied())
            .filter(|(_, i)| *i != NO_PARENT)
            .collect();
        let get = |env: &Env, t: &str| env.iter().find(|(n, _)| n == t).map(|(_, i)| *i);
        let mut controlled = Vec::new();
        for (i, inst) in cfg.blocks[b].insts.iter().enumerate() {
            match &inst.kind {
                InstKind::Token { kind, name } => {
                    let parent = match &inst.token {
                        Some(p) => get(&env, p).ok_or_else(|| {
                            format!(
                                "token {p} may be used before it is defined (block {} of `{}`)",
                                cfg.blocks[b].name, cfg.name
                            )
                        })?,
                        None => NO_PARENT,
                    };
                    let iteration = match kind {
                        TokenKind::Loop => {
                            let in_cycle = ci.containing.get(b).is_some_and(|v| !v.is_empty());
                            if in_cycle {
                                counts.last().copied().unwrap_or(1).saturating_sub(1)
                            } else {
                                0
                            }
                        }
                        _ => 0,
                    };
                    let next = self.instances.len() as u32;
                    let id = *self
                        .instances
                        .entry((b, i, parent, iteration))
                        .or_insert(next);
                    env.retain(|(n, _)| n != name);
                    env.push((name.clone(), id));
                    controlled.push(None);
                }
                _ => match &inst.token {
                    Some(t) => {
                        let id = get(&env, t).ok_or_else(|| {
                            format!(
                                "token {t} may be used before it is defined (block {} of `{}`)",
                                cfg.blocks[b].name, cfg.name
                            )
                        })?;
                        controlled.push(Some(id));
                    }
                    None => controlled.push(None),
                },
            }
        }
        Ok((controlled, env))
    }
}

/// `program` with its tokens erased, when it has tokens and every one of
/// them is *aligned* with the cycle hierarchy; `None` otherwise.
///
/// **Aligned.** An `entry` token is defined in the entry block, which is
/// in no cycle; a `loop` heart is in the header of the innermost cycle `C`
/// containing its block, `C` reducible, and its parent is the heart of
/// `C`'s parent cycle or, for an outermost `C`, an `entry` token; every
/// controlled operation in a block `X` uses the heart of the innermost
/// cycle containing `X` (after it, when `X` is that header), or an `entry`
/// token when `X` is in no cycle (after it, in the entry block).
///
/// **Why erasing them changes nothing.** Token definitions are not events,
/// so single-thread behaviour is the same. Unfolding the interpreter's
/// rule (module documentation) for an aligned operation in `X`, with
/// `C1 ⊃ .. ⊃ Cd` the cycles containing `X` and `cj` the counts of its
/// copy: its key is the invocation key, the entry token's place, then
/// `(hj's heart, cj - 1)` for `j = 1..d`, then `X` and the instruction:
/// two threads' instances have equal keys iff their copies are equal,
/// which is maximal convergence ([`super::unroll`]). Every heart runs with
/// its parent defined: a reducible cycle is entered through its header,
/// which lies in its parent cycle (entered through that header, whose
/// heart defines the parent) or in no cycle (after the entry block).
pub fn erase_aligned(program: &CfgProgram) -> Option<CfgProgram> {
    let mut any = false;
    for (f, cfg) in program.module.functions.iter().enumerate() {
        let ci = program.cycles.get(f)?;
        let mut defs: HashMap<&str, (BlockId, usize, TokenKind, Option<&str>)> = HashMap::new();
        for (b, block) in cfg.blocks.iter().enumerate() {
            for (i, inst) in block.insts.iter().enumerate() {
                if let InstKind::Token { kind, name } = &inst.kind {
                    defs.insert(name, (b, i, *kind, inst.token.as_deref()));
                }
            }
        }
        let innermost = |b: BlockId| ci.containing.get(b).and_then(|v| v.first().copied());
        // The token a block's operations must use: the heart of its
        // innermost cycle, or an entry token.
        let aligned_def = |t: &str, b: BlockId, i: usize| -> bool {
            let Some(&(db, di, kind, _)) = defs.get(t) else {
                return false;
            };
            match innermost(b) {
                None => kind == TokenKind::Entry && (db != b || di < i),
                Some(c) => {
                    kind == TokenKind::Loop && db == ci.cycles[c].header && (db != b || di < i)
                }
            }
        };
        for (b, block) in cfg.blocks.iter().enumerate() {
            for (i, inst) in block.insts.iter().enumerate() {
                match &inst.kind {
                    InstKind::Token { kind, .. } => {
                        any = true;
                        match kind {
                            TokenKind::Anchor => return None,
                            TokenKind::Entry => {
                                if b != 0 || innermost(0).is_some() {
                                    return None;
                                }
                            }
                            TokenKind::Loop => {
                                let c = innermost(b)?;
                                let cycle = &ci.cycles[c];
                                if cycle.header != b || !cycle.is_reducible() {
                                    return None;
                                }
                                let p = inst.token.as_deref()?;
                                let &(pb, pi, pkind, _) = defs.get(p)?;
                                let ok = match cycle.parent {
                                    Some(pc) => {
                                        pkind == TokenKind::Loop && pb == ci.cycles[pc].header
                                    }
                                    None => pkind == TokenKind::Entry,
                                };
                                if !ok || (pb == b && pi > i) {
                                    return None;
                                }
                            }
                        }
                    }
                    _ => {
                        if let Some(t) = &inst.token {
                            any = true;
                            if !aligned_def(t, b, i) {
                                return None;
                            }
                        }
                    }
                }
            }
        }
    }
    if !any {
        return None;
    }
    let mut module = program.module.clone();
    for cfg in &mut module.functions {
        for block in &mut cfg.blocks {
            block
                .insts
                .retain(|inst| !matches!(inst.kind, InstKind::Token { .. }));
            for inst in &mut block.insts {
                inst.token = None;
            }
        }
    }
    Some(CfgProgram::new(module))
}
