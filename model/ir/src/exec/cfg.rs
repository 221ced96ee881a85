//! CFG-level execution: maximal convergence and convergence-control tokens
//! (DESIGN.md 2.3, CFG level).
//!
//! **Maximal convergence (uncontrolled operations).** For a chosen cycle
//! hierarchy, the key of an instance of block `X` is `X` plus the key of
//! the most recent instance, in the same thread and invocation, of a header
//! of any cycle containing `X`, strictly before it (so a header instance is
//! keyed by the previous header instance), or the invocation key if there is
//! none. Two threads are thus converged at `X` iff they went through the
//! same sequence of converged header instances since entering the outermost
//! cycle that contains `X` (LLVM ConvergenceAndUniformity, "Maximal
//! Convergence"). Instructions of a block instance add their position.
//!
//! **Tokens (controlled operations).** An operation controlled by token `T`
//! defined by `D` has key `U` plus the key of the instance of `D` whose
//! value the thread holds. A `loop` intrinsic `L` with parent token `P` has
//! key `L` + key(P's instance) + `n`, where this is the thread's `n`-th
//! execution of `L` with that value of `P`. `entry` has the invocation key;
//! `anchor` is implementation-defined: a fresh choice variable
//! (LLVM ConvergentOperations, "Dynamic Instances and Convergence Tokens").
//!
//! Bounds: every closed path passes through the header of some cycle, so
//! counting consecutive iterations of each header (an instance keyed by the
//! header's own previous instance is the next iteration) bounds every loop.

use super::{Machine, Program, Stop, Vars};
use crate::cfg::{InstKind, Module, Term, TokenKind};
use crate::cycles::CycleInfo;
use crate::key::Atom;
use crate::ops::{FuncId, OpId};
use std::collections::HashMap;

/// A module ready to run: its CFGs and the cycle hierarchy chosen for
/// each.
#[derive(Clone, Debug)]
pub struct CfgProgram {
    /// The CFGs.
    pub module: Module,
    /// One hierarchy per function.
    pub cycles: Vec<CycleInfo>,
}

impl CfgProgram {
    /// A program with LLVM's hierarchy for every function.
    pub fn new(module: Module) -> CfgProgram {
        let cycles = module.functions.iter().map(CycleInfo::compute).collect();
        CfgProgram { module, cycles }
    }
}

struct HeaderInstance {
    stamp: u64,
    key: Vec<Atom>,
    iteration: u32,
    decisions_at_first: u32,
}

impl Program for CfgProgram {
    fn module(&self) -> &Module {
        &self.module
    }

    fn call(
        &self,
        m: &mut Machine<'_>,
        f: FuncId,
        args: Vec<i64>,
        prefix: Vec<Atom>,
    ) -> Result<i64, Stop> {
        m.call_cfg(self, f, args, prefix)
    }
}

impl Machine<'_> {
    fn call_cfg(
        &mut self,
        program: &CfgProgram,
        f: FuncId,
        args: Vec<i64>,
        prefix: Vec<Atom>,
    ) -> Result<i64, Stop> {
        let (Some(cfg), Some(ci)) = (program.module.functions.get(f), program.cycles.get(f)) else {
            return Err(Stop::OutOfBounds(format!(
                "internal: no CFG for function {f}"
            )));
        };
        let mut vars: Vars = cfg.params.iter().cloned().zip(args).collect();
        let mut last: HashMap<usize, HeaderInstance> = HashMap::new();
        let mut tokens: HashMap<&str, Vec<Atom>> = HashMap::new();
        let mut loop_counts: HashMap<(usize, usize, Vec<Atom>), u32> = HashMap::new();
        let mut stamp = 0u64;
        let mut b = 0usize;
        let mut pred: Option<usize> = None;
        loop {
            self.step()?;
            stamp += 1;
            let Some(block) = cfg.blocks.get(b) else {
                return Err(Stop::OutOfBounds(format!("internal: no block {b}")));
            };
            // The most recent instance of a header of a cycle containing b.
            let parent = ci.containing[b]
                .iter()
                .filter_map(|&c| {
                    last.get(&ci.cycles[c].header)
                        .map(|h| (ci.cycles[c].header, h))
                })
                .max_by_key(|(_, h)| h.stamp);
            let mut key = match parent {
                Some((_, h)) => h.key.clone(),
                None => prefix.clone(),
            };
            key.push(Atom::Block(b as u32));
            self.push_event(super::Event {
                sid: block.origin.unwrap_or_default(),
                kind: super::EventKind::Block(b as u32),
                key: crate::key::Key(key.clone()),
            });
            if ci.is_header(b) {
                let (iteration, first) = match parent {
                    Some((hb, h)) if hb == b => (h.iteration + 1, h.decisions_at_first),
                    _ => (0, self.decisions),
                };
                if iteration > self.bounds.max_iters {
                    let what = format!(
                        "the cycle headed by block {} starts iteration {iteration} > max-iters={}",
                        block.name, self.bounds.max_iters
                    );
                    return Err(self.cut(what, first));
                }
                last.insert(
                    b,
                    HeaderInstance {
                        stamp,
                        key: key.clone(),
                        iteration,
                        decisions_at_first: first,
                    },
                );
            }
            // The phis at the start of the block read their operands
            // together, then set their locals (LLVM's semantics).
            let mut phis = Vec::new();
            for (i, inst) in block.insts.iter().enumerate() {
                let InstKind::Phi { name, incoming } = &inst.kind else {
                    break;
                };
                let Some((_, e)) = incoming.iter().find(|(p, _)| Some(*p) == pred) else {
                    return Err(Stop::OutOfBounds(format!(
                        "phi %{name} in block {} has no value for the edge taken",
                        block.name
                    )));
                };
                let mut base = key.clone();
                base.push(Atom::Inst(i as u32));
                self.assign_begin();
                let v = self.eval(&mut vars, &base, e, true);
                let loads = self.assigning_take();
                phis.push((name, v?, loads, base, i));
            }
            for (name, v, loads, base, i) in phis {
                self.record_value(&base, (b as u32, i as u32), Some(name), v);
                self.assign_loads(name, loads);
                vars.insert(name.clone(), v);
            }
            for (i, inst) in block.insts.iter().enumerate() {
                let controlled = !matches!(inst.kind, InstKind::Token { .. });
                let mut base = match (&inst.token, controlled) {
                    (Some(t), true) => match tokens.get(t.as_str()) {
                        Some(k) => k.clone(),
                        None => {
                            return Err(Stop::OutOfBounds(format!(
                                "token {t} used before it is defined"
                            )))
                        }
                    },
                    _ => key.clone(),
                };
                if controlled && inst.token.is_some() {
                    base.push(Atom::Block(b as u32));
                }
                base.push(Atom::Inst(i as u32));
                match &inst.kind {
                    InstKind::Observe => {
                        self.record(&base, inst.sid, super::EventKind::Op);
                    }
                    InstKind::Eval(e) => {
                        self.eval(&mut vars, &base, e, false)?;
                    }
                    InstKind::SetLocal { name, value } => {
                        self.assign_begin();
                        let v = match value {
                            Some(e) => self.eval(&mut vars, &base, e, true),
                            None => Ok(0),
                        };
                        self.assign_end(name);
                        let v = v?;
                        self.record_value(&base, (b as u32, i as u32), Some(name), v);
                        vars.insert(name.clone(), v);
                    }
                    InstKind::Phi { .. } => {}
                    InstKind::Token { kind, name } => {
                        let value = self.token_value(
                            *kind,
                            inst.sid,
                            b,
                            i,
                            &prefix,
                            &inst.token,
                            &tokens,
                            &mut loop_counts,
                        )?;
                        tokens.insert(name.as_str(), value);
                    }
                }
            }
            let mut base = key.clone();
            base.push(Atom::Inst(block.insts.len() as u32));
            pred = Some(b);
            b = match &block.term {
                Term::Br(t) => *t,
                Term::CondBr { cond, then, els } => {
                    let v = self.eval(&mut vars, &base, cond, true)?;
                    self.record_value(&base, (b as u32, block.insts.len() as u32), None, v);
                    if v != 0 {
                        *then
                    } else {
                        *els
                    }
                }
                Term::Switch {
                    value,
                    cases,
                    default,
                } => {
                    let v = self.eval(&mut vars, &base, value, true)?;
                    self.record_value(&base, (b as u32, block.insts.len() as u32), None, v);
                    cases.iter().find(|c| c.0 == v).map_or(*default, |c| c.1)
                }
                Term::Ret(e) => {
                    let v = match e {
                        Some(e) => self.eval(&mut vars, &base, e, true)?,
                        None => 0,
                    };
                    return Ok(v);
                }
                Term::Unreachable => {
                    return Err(Stop::OutOfBounds(format!(
                        "the run reaches `unreachable` in block {} (undefined behaviour)",
                        block.name
                    )))
                }
            };
        }
    }

    /// The key of a token-defining instance.
    fn token_value(
        &mut self,
        kind: TokenKind,
        sid: OpId,
        b: usize,
        i: usize,
        prefix: &[Atom],
        parent: &Option<String>,
        tokens: &HashMap<&str, Vec<Atom>>,
        loop_counts: &mut HashMap<(usize, usize, Vec<Atom>), u32>,
    ) -> Result<Vec<Atom>, Stop> {
        let here = [Atom::Block(b as u32), Atom::Inst(i as u32)];
        Ok(match kind {
            TokenKind::Entry => {
                let mut k = prefix.to_vec();
                k.extend(here);
                k
            }
            TokenKind::Loop => {
                let Some(p) = parent.as_deref().and_then(|p| tokens.get(p)) else {
                    return Err(Stop::OutOfBounds(
                        "a loop intrinsic runs without a defined parent token".into(),
                    ));
                };
                let count = loop_counts.entry((b, i, p.clone())).or_insert(0);
                let n = *count;
                *count += 1;
                let mut k = p.clone();
                k.extend(here);
                k.push(Atom::Iter { loop_id: sid, n });
                k
            }
            TokenKind::Anchor => {
                let seq = self.fresh_choice();
                let mut k = prefix.to_vec();
                k.push(Atom::Choice { scope: sid, seq });
                k.extend(here);
                k
            }
        })
    }
}
