//! Flattening of a function body into instructions for the interpreter.
//!
//! Structured statements become branches and jumps, the way C is executed;
//! what makes this more than a textbook flattening is that every instruction
//! carries the *key scope chain* of its statement ([`crate::sema::Scope`]).
//! The interpreter compares the chains of consecutive instructions to know
//! which scopes a thread left and entered, which is exactly the information
//! the source-level key rules need (seed 000, Iteration Statement):
//!
//! - the head of a reducible loop (its condition, and a `for`'s step) lies
//!   in the loop's scope; the latch is a `NextIter` instruction, which starts
//!   the next iteration (while rewriting of `for`, seed 000);
//! - an iteration statement that is not reducible has no loop scope: its
//!   condition is a `Cond` scope renewed at every evaluation, and its body's
//!   statements are members of an implementation-defined region;
//! - a `goto` to the label of a region member restarts that member, so every
//!   execution of a member gets a fresh choice variable.

use crate::sema::{FuncId, Kernel, Scope};
use crate::span::{Diagnostic, Diagnostics, Span};
use crate::syntax::ast::*;
use convcheck_ir::Expr as IrExpr;
use std::collections::HashMap;

/// One instruction.
#[derive(Clone, Debug)]
pub struct Instr {
    /// What it does.
    pub op: Op,
    /// The statement it belongs to; events it records carry this id.
    pub sid: StmtId,
    /// The key scopes enclosing it.
    pub chain: Vec<Scope>,
    /// Whether executing it records a statement event for `sid`.
    pub event: bool,
}

/// Instruction kinds.
#[derive(Clone, Debug)]
pub enum Op {
    /// `...` as a statement: a convergent observation point.
    Observe,
    /// Evaluate an expression for its effects.
    Eval(IrExpr),
    /// Assign a local from its declaration.
    SetLocal {
        /// The local.
        name: String,
        /// Its initial value (0 when absent).
        value: Option<IrExpr>,
    },
    /// Two-way branch; a missing condition is true (`for (;;)`).
    Branch {
        /// The condition.
        cond: Option<IrExpr>,
        /// Where to go when it is non-zero.
        then: usize,
        /// Where to go when it is zero.
        els: usize,
    },
    /// Multi-way branch of a `switch`.
    Switch {
        /// The scrutinee.
        value: IrExpr,
        /// Case values and their targets.
        cases: Vec<(i64, usize)>,
        /// The `default` target, or the end of the switch.
        default: usize,
    },
    /// Unconditional jump. `restart` names a scope the target starts anew
    /// even if the thread is already in it.
    Jump {
        /// The target.
        target: usize,
        /// The scope to restart, if any.
        restart: Option<Scope>,
        /// Whether this is a `goto` to a label that stands before it.
        backward_goto: bool,
    },
    /// Start the next iteration of a loop, then jump to `head`. In a
    /// reducible loop this increments the iteration number in the keys; in
    /// one that is not, it only counts iterations against the bound, and
    /// the condition's choice variable is renewed.
    NextIter {
        /// The loop.
        loop_id: StmtId,
        /// Where the next iteration starts.
        head: usize,
    },
    /// Return from the function.
    Return(Option<IrExpr>),
    /// Does nothing: marks a label's statement, so that a `goto` to it
    /// lands in the label's own key scopes (and restarts its member) even
    /// when the statement itself emits no instruction.
    Nop,
}

enum Breakable {
    Loop {
        breaks: Vec<usize>,
        continues: Vec<usize>,
    },
    Switch {
        breaks: Vec<usize>,
        cases: Vec<(CaseLabel, usize, Span)>,
    },
}

struct Compiler<'k> {
    k: &'k Kernel,
    f: FuncId,
    code: Vec<Instr>,
    labels: HashMap<String, (usize, StmtId)>,
    gotos: Vec<(usize, String)>,
    stack: Vec<Breakable>,
    errors: Vec<Diagnostic>,
}

/// Flattens one function. Errors: `break` / `continue` / `case` outside the
/// statements they need.
pub fn compile(k: &Kernel, fid: FuncId, f: &Function) -> Result<Vec<Instr>, Diagnostics> {
    let mut c = Compiler {
        k,
        f: fid,
        code: Vec::new(),
        labels: HashMap::new(),
        gotos: Vec::new(),
        stack: Vec::new(),
        errors: Vec::new(),
    };
    c.stmt(&f.body);
    c.emit(Op::Return(None), f.body.id, Vec::new(), false);
    for (at, label) in std::mem::take(&mut c.gotos) {
        if let Some(&(pc, sid)) = c.labels.get(&label) {
            let restart = k.members.contains(&sid).then_some(Scope::Member(sid));
            let backward = sid < c.code[at].sid;
            if let Op::Jump {
                target,
                restart: r,
                backward_goto,
            } = &mut c.code[at].op
            {
                *target = pc;
                *r = restart;
                *backward_goto = backward;
            }
        }
    }
    if c.errors.is_empty() {
        Ok(c.code)
    } else {
        Err(Diagnostics(c.errors))
    }
}

impl Compiler<'_> {
    fn ir(&self, e: &Expr) -> IrExpr {
        crate::to_ir::expr(self.k, self.f, e)
    }

    fn here(&self) -> usize {
        self.code.len()
    }

    fn emit(&mut self, op: Op, sid: StmtId, chain: Vec<Scope>, event: bool) -> usize {
        self.code.push(Instr {
            op,
            sid,
            chain,
            event,
        });
        self.code.len() - 1
    }

    fn chain(&self, s: &Stmt) -> Vec<Scope> {
        self.k.node(s.id).chain.clone()
    }

    /// The chain of a loop's head (condition and step).
    fn head_chain(&self, s: &Stmt) -> Vec<Scope> {
        let mut c = self.chain(s);
        if self.k.irreducible.contains(&s.id) {
            c.push(Scope::Irreducible(s.id));
            c.push(Scope::Cond(s.id));
        } else {
            c.push(Scope::Loop(s.id));
        }
        c
    }

    fn jump(&mut self, sid: StmtId, chain: Vec<Scope>, event: bool) -> usize {
        let op = Op::Jump {
            target: usize::MAX,
            restart: None,
            backward_goto: false,
        };
        self.emit(op, sid, chain, event)
    }

    fn patch(&mut self, at: usize, to: usize) {
        match &mut self.code[at].op {
            Op::Jump { target, .. } => *target = to,
            Op::Branch { els, .. } => *els = to,
            _ => {}
        }
    }

    fn set_then(&mut self, at: usize, to: usize) {
        if let Op::Branch { then, .. } = &mut self.code[at].op {
            *then = to;
        }
    }

    fn latch(&mut self, s: &Stmt, to: usize) {
        let hc = self.head_chain(s);
        let op = Op::NextIter {
            loop_id: s.id,
            head: to,
        };
        self.emit(op, s.id, hc, false);
    }

    fn finish_loop(&mut self, cont: usize, exit: usize) {
        if let Some(Breakable::Loop { breaks, continues }) = self.stack.pop() {
            for b in breaks {
                self.patch(b, exit);
            }
            for c in continues {
                self.patch(c, cont);
            }
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        let chain = self.chain(s);
        match &s.kind {
            StmtKind::Observe => {
                self.emit(Op::Observe, s.id, chain, true);
            }
            StmtKind::Empty => {}
            StmtKind::Expr(e) => {
                self.emit(Op::Eval(self.ir(e)), s.id, chain, false);
            }
            StmtKind::Local { name, init, .. } => {
                let op = Op::SetLocal {
                    name: name.clone(),
                    value: init.as_ref().map(|e| self.ir(e)),
                };
                self.emit(op, s.id, chain, false);
            }
            StmtKind::Compound(list) => list.iter().for_each(|c| self.stmt(c)),
            StmtKind::NoConvergent(body) => self.stmt(body),
            StmtKind::If { cond, then, els } => {
                let op = Op::Branch {
                    cond: Some(self.ir(cond)),
                    then: 0,
                    els: 0,
                };
                let b = self.emit(op, s.id, chain.clone(), true);
                self.set_then(b, b + 1);
                self.stmt(then);
                if let Some(e) = els {
                    let j = self.jump(s.id, chain, false);
                    let here = self.here();
                    self.patch(b, here);
                    self.stmt(e);
                    let end = self.here();
                    self.patch(j, end);
                } else {
                    let here = self.here();
                    self.patch(b, here);
                }
            }
            StmtKind::While { cond, body } => {
                let op = Op::Branch {
                    cond: Some(self.ir(cond)),
                    then: 0,
                    els: 0,
                };
                let head = self.emit(op, s.id, self.head_chain(s), true);
                self.set_then(head, head + 1);
                self.stack.push(Breakable::Loop {
                    breaks: Vec::new(),
                    continues: Vec::new(),
                });
                self.stmt(body);
                let latch = self.here();
                self.latch(s, head);
                let exit = self.here();
                self.patch(head, exit);
                self.finish_loop(latch, exit);
            }
            StmtKind::DoWhile { body, cond } => {
                let start = self.here();
                self.stack.push(Breakable::Loop {
                    breaks: Vec::new(),
                    continues: Vec::new(),
                });
                self.stmt(body);
                let op = Op::Branch {
                    cond: Some(self.ir(cond)),
                    then: 0,
                    els: 0,
                };
                let b = self.emit(op, s.id, self.head_chain(s), true);
                self.set_then(b, b + 1);
                self.latch(s, start);
                let exit = self.here();
                self.patch(b, exit);
                self.finish_loop(b, exit);
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                if let Some(i) = init {
                    self.stmt(i);
                }
                let op = Op::Branch {
                    cond: cond.as_ref().map(|e| self.ir(e)),
                    then: 0,
                    els: 0,
                };
                let hc = self.head_chain(s);
                let head = self.emit(op, s.id, hc.clone(), true);
                self.set_then(head, head + 1);
                self.stack.push(Breakable::Loop {
                    breaks: Vec::new(),
                    continues: Vec::new(),
                });
                self.stmt(body);
                let cont = self.here();
                if let Some(st) = step {
                    self.emit(Op::Eval(self.ir(st)), s.id, hc, false);
                }
                self.latch(s, head);
                let exit = self.here();
                self.patch(head, exit);
                self.finish_loop(cont, exit);
            }
            StmtKind::Switch { value, body } => {
                let op = Op::Switch {
                    value: self.ir(value),
                    cases: Vec::new(),
                    default: usize::MAX,
                };
                let sw = self.emit(op, s.id, chain, true);
                self.stack.push(Breakable::Switch {
                    breaks: Vec::new(),
                    cases: Vec::new(),
                });
                self.stmt(body);
                let exit = self.here();
                if let Some(Breakable::Switch { breaks, cases }) = self.stack.pop() {
                    for b in breaks {
                        self.patch(b, exit);
                    }
                    if let Op::Switch {
                        cases: cs, default, ..
                    } = &mut self.code[sw].op
                    {
                        *default = exit;
                        for (label, pc, _) in cases {
                            match label {
                                CaseLabel::Case(v) => cs.push((v, pc)),
                                CaseLabel::Default => *default = pc,
                            }
                        }
                    }
                }
            }
            StmtKind::Case { label, body } => {
                let here = self.here();
                let ok = match self
                    .stack
                    .iter_mut()
                    .rev()
                    .find(|b| matches!(b, Breakable::Switch { .. }))
                {
                    Some(Breakable::Switch { cases, .. }) => {
                        cases.push((*label, here, s.span));
                        true
                    }
                    _ => false,
                };
                if !ok {
                    let d = Diagnostic::new(
                        &self.k.file_name,
                        s.span.start,
                        "`case` outside a `switch`",
                    );
                    self.errors.push(d);
                }
                self.stmt(body);
            }
            StmtKind::Label { label, body } => {
                let here = self.here();
                self.labels.insert(label.clone(), (here, s.id));
                self.emit(Op::Nop, s.id, chain, false);
                self.stmt(body);
            }
            StmtKind::Goto(l) => {
                let j = self.jump(s.id, chain, true);
                self.gotos.push((j, l.clone()));
            }
            StmtKind::Break => {
                let j = self.jump(s.id, chain, true);
                match self.stack.last_mut() {
                    Some(Breakable::Loop { breaks, .. })
                    | Some(Breakable::Switch { breaks, .. }) => breaks.push(j),
                    None => {
                        let d = Diagnostic::new(
                            &self.k.file_name,
                            s.span.start,
                            "`break` outside a loop or `switch`",
                        );
                        self.errors.push(d);
                    }
                }
            }
            StmtKind::Continue => {
                let j = self.jump(s.id, chain, true);
                match self
                    .stack
                    .iter_mut()
                    .rev()
                    .find(|b| matches!(b, Breakable::Loop { .. }))
                {
                    Some(Breakable::Loop { continues, .. }) => continues.push(j),
                    _ => {
                        let d = Diagnostic::new(
                            &self.k.file_name,
                            s.span.start,
                            "`continue` outside a loop",
                        );
                        self.errors.push(d);
                    }
                }
            }
            StmtKind::Return(e) => {
                self.emit(
                    Op::Return(e.as_ref().map(|e| self.ir(e))),
                    s.id,
                    chain,
                    true,
                );
            }
        }
    }
}
