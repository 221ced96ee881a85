//! Convergence-control tokens for the simulation, one function at a time,
//! `anchor` included (issue 22: LLVM's `convergent.controlled.ll` tests).
//!
//! `product::tokens::erase_aligned` erases the tokens of a module whose
//! every function uses them aligned with its cycles (`entry` in the entry
//! block, a `loop` heart in each header, each operation controlled by the
//! heart of its innermost cycle or by `entry`), and refuses the module
//! otherwise, `anchor` anywhere included. [`erase_function`] does the same
//! for the one function compared (the others are never run: the
//! simulation refuses calls of defined functions), and accepts, in the
//! place of `entry`, any token defined in a block that is in no cycle: an
//! anchor, or a `loop` heart whose parent is such a token (a loop that was
//! fully unrolled keeps its heart; it runs once, with `n = 0`).
//!
//! **Why an anchor in no cycle may be erased.** Such an anchor runs at most
//! once per invocation; its instance's key is a fresh choice `α` (DESIGN.md
//! 2.4), so an operation it controls (directly, or through aligned `loop`
//! hearts) has the key `α` + the key it would have under `entry`. Each
//! operation controlled by anchor `%A` is renamed `label ⟨anchor %A⟩` in
//! both programs, so events (matched by label) pair an operation under
//! `%A` in the reference only with one under an anchor of the same name in
//! the target; that anchor also ran once in the invocation. Identify the
//! target's choice for `%A` in each thread with the reference's: matched
//! instances are then converged in the target iff `α` agrees and the
//! erased keys agree, exactly as in the reference, which the simulation's
//! convergence condition proves of the erased keys. The target's relation
//! on the events is therefore the reference's under the same choices, and
//! the constraints on choices (DESIGN.md 2.4: one instance per thread and
//! class, acyclic convergence-before) read only the events and their
//! order, which are equal: every relation the target allows, the reference
//! allows.
//!
//! Anything else (an anchor inside a cycle, an operation in a cycle
//! controlled by a token from outside it, a heart used after its cycle is
//! left) is refused with the construct named.

use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::{BlockId, FuncId, InstKind, OpId, TokenKind};
use std::collections::HashMap;

/// Function `f` of `program` with its tokens erased and the operations
/// under anchors renamed: `Ok(None)` when it has no tokens, `Err` why
/// they are not modelled.
pub(crate) fn erase_function(
    program: &CfgProgram,
    f: FuncId,
) -> Result<Option<CfgProgram>, String> {
    const REFUSED: &str = "convergence control tokens that are not aligned with the cycles (anchors in cycles, or hearts outside headers)";
    let Some(cfg) = program.module.functions.get(f) else {
        return Ok(None);
    };
    let Some(ci) = program.cycles.get(f) else {
        return Ok(None);
    };
    // name -> (block, instruction, kind, parent)
    let mut defs: HashMap<&str, (BlockId, usize, TokenKind, Option<&str>)> = HashMap::new();
    for (b, block) in cfg.blocks.iter().enumerate() {
        for (i, inst) in block.insts.iter().enumerate() {
            if let InstKind::Token { kind, name } = &inst.kind {
                if defs
                    .insert(name, (b, i, *kind, inst.token.as_deref()))
                    .is_some()
                {
                    return Err(format!("token %{name} is defined twice"));
                }
            }
        }
    }
    let innermost = |b: BlockId| ci.containing.get(b).and_then(|v| v.first().copied());
    // The root of a token: `None` for `entry`, `Some(name)` for an anchor.
    let root = |t: &str| -> Result<Option<String>, String> {
        let mut t = t;
        for _ in 0..=defs.len() {
            let &(_, _, kind, parent) = defs.get(t).ok_or(REFUSED)?;
            match kind {
                TokenKind::Entry => return Ok(None),
                TokenKind::Anchor => return Ok(Some(t.to_string())),
                TokenKind::Loop => t = parent.ok_or(REFUSED)?,
            }
        }
        Err(REFUSED.into())
    };
    // Whether a token may stand where `entry` does: one defined in a block
    // in no cycle (it runs at most once per invocation; a `loop` heart
    // there has `n = 0`, and its parent is checked where it is defined).
    let outer = |_: TokenKind, db: BlockId| innermost(db).is_none();
    let mut any = false;
    let mut renamed: HashMap<OpId, String> = HashMap::new();
    for (b, block) in cfg.blocks.iter().enumerate() {
        for (i, inst) in block.insts.iter().enumerate() {
            match &inst.kind {
                InstKind::Token { kind, .. } => {
                    any = true;
                    match kind {
                        TokenKind::Anchor => {
                            if innermost(b).is_some() || inst.token.is_some() {
                                return Err(REFUSED.into());
                            }
                        }
                        TokenKind::Entry => {
                            if b != 0 || innermost(0).is_some() {
                                return Err(REFUSED.into());
                            }
                        }
                        TokenKind::Loop if innermost(b).is_none() => {
                            let p = inst.token.as_deref().ok_or(REFUSED)?;
                            let &(pb, pi, pkind, _) = defs.get(p).ok_or(REFUSED)?;
                            if !outer(pkind, pb) || (pb == b && pi > i) {
                                return Err(REFUSED.into());
                            }
                        }
                        TokenKind::Loop => {
                            let c = innermost(b).ok_or(REFUSED)?;
                            let cycle = &ci.cycles[c];
                            if cycle.header != b || !cycle.is_reducible() {
                                return Err(REFUSED.into());
                            }
                            let p = inst.token.as_deref().ok_or(REFUSED)?;
                            let &(pb, pi, pkind, _) = defs.get(p).ok_or(REFUSED)?;
                            let ok = match cycle.parent {
                                Some(pc) => pkind == TokenKind::Loop && pb == ci.cycles[pc].header,
                                None => outer(pkind, pb),
                            };
                            if !ok || (pb == b && pi > i) {
                                return Err(REFUSED.into());
                            }
                        }
                    }
                }
                _ => {
                    let Some(t) = &inst.token else { continue };
                    any = true;
                    let &(db, di, kind, _) = defs.get(t.as_str()).ok_or(REFUSED)?;
                    let aligned = match innermost(b) {
                        None => outer(kind, db),
                        Some(c) => kind == TokenKind::Loop && db == ci.cycles[c].header,
                    } && (db != b || di < i);
                    if !aligned {
                        return Err(REFUSED.into());
                    }
                    if let Some(a) = root(t)? {
                        let ops: Vec<OpId> = match &inst.kind {
                            InstKind::Eval(e) | InstKind::SetLocal { value: Some(e), .. } => {
                                e.ops()
                            }
                            _ => Vec::new(),
                        };
                        for op in ops {
                            if renamed.insert(op, a.clone()).is_some_and(|o| o != a) {
                                return Err(REFUSED.into());
                            }
                        }
                    }
                }
            }
        }
    }
    if !any {
        return Ok(None);
    }
    let mut module = program.module.clone();
    for block in &mut module.functions[f].blocks {
        block
            .insts
            .retain(|inst| !matches!(inst.kind, InstKind::Token { .. }));
        for inst in &mut block.insts {
            inst.token = None;
        }
    }
    for (op, a) in renamed {
        if let Some(o) = module.ops.get_mut(op.0 as usize) {
            o.label = format!("{} ⟨anchor %{a}⟩", o.label);
        }
    }
    Ok(Some(CfgProgram {
        module,
        cycles: program.cycles.clone(),
    }))
}
