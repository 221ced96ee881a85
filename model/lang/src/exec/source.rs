//! The source-level semantics of the kernel language (DESIGN.md 2.3, 2.4;
//! seed 000): a [`SourceProgram`] runs a kernel's statements on the IR's
//! [`Machine`], keying every instance by its statement and the iteration
//! numbers and choice variables of its key scopes.
//!
//! Keys are built from the key scopes of the executing instruction
//! ([`super::compile`]): entering a reducible loop pushes iteration 0, its
//! latch increments it; entering a member of an implementation-defined
//! region (or restarting it by a `goto` to its label) pushes a fresh choice
//! variable. Expressions are evaluated by the IR machine, so both levels
//! read oracles, record calls and memory accesses, and bound runs alike.

use super::compile::{self, Instr, Op};
use crate::lower::lower;
use crate::sema::{FuncId, Kernel, Scope};
use convcheck_ir::exec::EventKind;
use convcheck_ir::exec::{Machine, Program, Stop, Vars};
use convcheck_ir::key::Atom;
use convcheck_ir::Module;
use std::collections::HashMap;

/// A kernel ready to run at the source level: the flattened code of every
/// function, and the kernel's module for its op and oracle tables.
#[derive(Clone, Debug)]
pub struct SourceProgram {
    /// The kernel lowered to the IR: its op and oracle tables name what the
    /// source-level code does (the blocks are not run).
    pub module: Module,
    code: Vec<Vec<Instr>>,
}

impl SourceProgram {
    /// Flattens every function of `kernel`.
    pub fn new(kernel: &Kernel) -> Result<SourceProgram, String> {
        let mut code = Vec::new();
        for (fid, f) in kernel.file.functions().enumerate() {
            code.push(compile::compile(kernel, fid, f).map_err(|d| d.to_string())?);
        }
        Ok(SourceProgram {
            module: lower(kernel, false),
            code,
        })
    }
}

struct Frame {
    scopes: Vec<(Scope, Atom, u32)>,
    vars: Vars,
    gotos: HashMap<usize, (u32, u32)>,
    prefix: Vec<Atom>,
}

/// The key of the current statement execution, without its own atom:
/// the invocation key, then one atom per key scope.
fn base(frame: &Frame) -> Vec<Atom> {
    let mut atoms = frame.prefix.clone();
    atoms.extend(
        frame
            .scopes
            .iter()
            .filter(|s| !matches!(s.0, Scope::Irreducible(_)))
            .map(|s| s.1),
    );
    atoms
}

/// Moves into instruction `target`: leaves the scopes it is not in,
/// enters those it is in (DESIGN.md 2.3, 2.4).
fn enter(
    m: &mut Machine<'_>,
    frame: &mut Frame,
    code: &[Instr],
    target: usize,
    restart: Option<Scope>,
) {
    let Some(instr) = code.get(target) else {
        return;
    };
    let chain = &instr.chain;
    let mut common = frame
        .scopes
        .iter()
        .zip(chain.iter())
        .take_while(|(a, b)| a.0 == **b)
        .count();
    if let Some(r) = restart {
        if let Some(p) = chain.iter().position(|s| *s == r) {
            common = common.min(p);
        }
    }
    frame.scopes.truncate(common);
    for s in &chain[common..] {
        let atom = match *s {
            Scope::Loop(l) | Scope::Irreducible(l) => Atom::Iter { loop_id: l, n: 0 },
            Scope::Member(scope) | Scope::Cond(scope) => Atom::Choice {
                scope,
                seq: m.fresh_choice(),
            },
        };
        frame.scopes.push((*s, atom, m.decisions));
    }
}

impl Program for SourceProgram {
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
        let (Some(func), Some(code)) = (self.module.functions.get(f), self.code.get(f)) else {
            return Err(Stop::OutOfBounds(format!("internal: no function {f}")));
        };
        let mut frame = Frame {
            scopes: Vec::new(),
            vars: func.params.iter().cloned().zip(args).collect(),
            gotos: HashMap::new(),
            prefix,
        };
        let mut pc = 0;
        enter(m, &mut frame, code, 0, None);
        loop {
            m.step()?;
            let Some(instr) = code.get(pc) else {
                return Ok(0);
            };
            let base = base(&frame);
            if instr.event && !matches!(instr.op, Op::Observe) {
                m.record(&base, instr.sid, EventKind::Stmt);
            }
            let vars = &mut frame.vars;
            let mut restart = None;
            let next = match &instr.op {
                Op::Observe => {
                    m.record(&base, instr.sid, EventKind::Op { args: Vec::new() });
                    pc + 1
                }
                Op::Nop => pc + 1,
                Op::Eval(e) => {
                    m.eval(vars, &base, e, false)?;
                    pc + 1
                }
                Op::SetLocal { name, value } => {
                    m.assign_begin();
                    let v = match value {
                        Some(e) => m.eval(vars, &base, e, true),
                        None => Ok(0),
                    };
                    m.assign_end(name);
                    vars.insert(name.clone(), v?);
                    pc + 1
                }
                Op::Branch { cond, then, els } => {
                    let v = match cond {
                        Some(c) => m.eval(vars, &base, c, true)?,
                        None => 1,
                    };
                    if v != 0 {
                        *then
                    } else {
                        *els
                    }
                }
                Op::Switch {
                    value,
                    cases,
                    default,
                } => {
                    let v = m.eval(vars, &base, value, true)?;
                    cases
                        .iter()
                        .find(|(c, _)| *c == v)
                        .map(|(_, t)| *t)
                        .unwrap_or(*default)
                }
                Op::Jump {
                    target,
                    restart: r,
                    backward_goto,
                } => {
                    if *backward_goto {
                        let decisions = m.decisions;
                        let entry = frame.gotos.entry(pc).or_insert((0, decisions));
                        entry.0 += 1;
                        if entry.0 > m.bounds.max_iters {
                            let what = format!(
                                "the backwards goto at line {} runs more than max-iters={} times",
                                self.module.line(instr.sid),
                                m.bounds.max_iters
                            );
                            let since = entry.1;
                            return Err(m.cut(what, since));
                        }
                    }
                    restart = *r;
                    *target
                }
                Op::NextIter { loop_id, head } => {
                    let max = m.bounds.max_iters;
                    let line = self.module.line(*loop_id);
                    restart = Some(Scope::Cond(*loop_id));
                    let counted = |s: &Scope| {
                        *s == Scope::Loop(*loop_id) || *s == Scope::Irreducible(*loop_id)
                    };
                    if let Some(s) = frame.scopes.iter_mut().rev().find(|s| counted(&s.0)) {
                        if let Atom::Iter { n, .. } = &mut s.1 {
                            *n += 1;
                            if *n > max {
                                let what = format!(
                                    "the loop at line {line} starts iteration {} > max-iters={max}",
                                    *n
                                );
                                let since = s.2;
                                return Err(m.cut(what, since));
                            }
                        }
                    }
                    *head
                }
                Op::Return(e) => {
                    let v = match e {
                        Some(e) => m.eval(vars, &base, e, true)?,
                        None => 0,
                    };
                    return Ok(v);
                }
            };
            enter(m, &mut frame, code, next, restart);
            pc = next;
        }
    }
}
