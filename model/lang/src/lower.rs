//! Lowering of kernels to CFGs, the way clang emits C at -O0.
//!
//! Block structure follows clang's: `if.then` / `if.else` / `if.end`;
//! `while.cond` / `while.body` / `while.end`; `do.body` / `do.cond` /
//! `do.end`; `for.cond` / `for.body` / `for.inc` / `for.end`; `sw.bb` /
//! `sw.default` / `sw.epilog` for a `switch`; a block named after each
//! label. Code after a `goto`, `break`, `continue` or `return` starts a new
//! block that nothing reaches; unreachable blocks are removed at the end.
//! Every block records the statement that created it (its provenance).
//!
//! With `tokens` on, convergence-control tokens are placed from the source
//! structure as a front end that knows the loops would (DESIGN.md section
//! 4, `--tokens`): an `entry` token at the start of the function, a `loop`
//! token at the head of every reducible source loop (its parent: the token
//! of the enclosing loop, or `entry`), and every convergent operation is
//! controlled by the token of its innermost enclosing source loop, or by
//! `entry`. Where the source leaves convergence implementation-defined
//! (members of goto cycles, bodies of loops entered from outside,
//! `noconvergent` statements) an `anchor` token is placed at the start of
//! the member and controls the operations inside it.

use crate::sema::{FuncId, Kernel};
use crate::syntax::ast::*;
use convcheck_ir::{Block, BlockId, Cfg, Expr as IrExpr, Inst, InstKind, Module, Term, TokenKind};
use std::collections::HashMap;

/// Lowers every function of a kernel.
pub fn lower(kernel: &Kernel, tokens: bool) -> Module {
    let functions = kernel
        .file
        .functions()
        .enumerate()
        .map(|(fid, f)| {
            let mut l = Lowering {
                k: kernel,
                f: fid,
                tokens,
                blocks: Vec::new(),
                cur: None,
                names: HashMap::new(),
                labels: HashMap::new(),
                jumps: Vec::new(),
                switches: Vec::new(),
                token_stack: Vec::new(),
                next_token: 0,
                order: Vec::new(),
            };
            l.function(f)
        })
        .collect();
    Module {
        name: kernel.file_name.clone(),
        max_group: None,
        ops: crate::to_ir::ops(kernel),
        oracles: kernel.oracles.clone(),
        functions,
    }
}

struct SwitchCtx {
    block: BlockId,
    cases: Vec<(CaseLabel, BlockId)>,
}

struct Lowering<'k> {
    k: &'k Kernel,
    f: FuncId,
    tokens: bool,
    blocks: Vec<Block>,
    cur: Option<BlockId>,
    names: HashMap<String, usize>,
    labels: HashMap<String, BlockId>,
    /// (break target, continue target) of enclosing loops and switches;
    /// `None` continue for a switch.
    jumps: Vec<(BlockId, Option<BlockId>)>,
    switches: Vec<SwitchCtx>,
    token_stack: Vec<String>,
    next_token: usize,
    /// Blocks in the order code started going into them (clang's order).
    order: Vec<BlockId>,
}

impl Lowering<'_> {
    fn function(&mut self, f: &Function) -> Cfg {
        let entry = self.new_block("entry", Some(f.body.id));
        self.cur = Some(entry);
        // The entry block comes first even if nothing is pushed into it
        // before its terminator is set (a function that starts with a
        // `switch`).
        self.note(entry);
        // Labels may be jumped to before they are seen: make their blocks
        // first, in source order.
        f.body.walk(&mut |s| {
            if let StmtKind::Label { label, .. } = &s.kind {
                let b = self.new_block(label, Some(s.id));
                self.labels.insert(label.clone(), b);
            }
        });
        if self.tokens {
            let name = "entry".to_string();
            self.push_inst(
                InstKind::Token {
                    kind: TokenKind::Entry,
                    name: name.clone(),
                },
                f.body.id,
                None,
            );
            self.token_stack.push(name);
        }
        self.stmt(&f.body);
        if self.cur.is_some() {
            self.terminate(Term::Ret(None));
        }
        // Put blocks in emission order, the entry first.
        let mut order = std::mem::take(&mut self.order);
        for b in 0..self.blocks.len() {
            if !order.contains(&b) {
                order.push(b);
            }
        }
        let mut map = vec![0; self.blocks.len()];
        for (new, &old) in order.iter().enumerate() {
            map[old] = new;
        }
        let mut blocks: Vec<Block> = order.iter().map(|&b| self.blocks[b].clone()).collect();
        for b in &mut blocks {
            b.term.map_succs(|s| map[s]);
        }
        self.blocks.clear();
        let mut cfg = Cfg {
            name: f.name.clone(),
            params: f.params.iter().map(|p| p.name.clone()).collect(),
            param_oracles: self
                .k
                .functions
                .get(self.f)
                .map(|fi| fi.param_oracles.clone())
                .unwrap_or_default(),
            blocks,
        };
        cfg.remove_unreachable();
        cfg
    }

    fn new_block(&mut self, hint: &str, origin: Option<StmtId>) -> BlockId {
        let n = self.names.entry(hint.to_string()).or_insert(0);
        let name = if *n == 0 {
            hint.to_string()
        } else {
            format!("{hint}{n}")
        };
        *n += 1;
        self.blocks.push(Block {
            name,
            insts: Vec::new(),
            // Every block is terminated before lowering ends; a block left
            // open is closed with `ret` by `function`.
            term: Term::Ret(None),
            origin,
        });
        self.blocks.len() - 1
    }

    /// The block code goes into; after a jump, a fresh unreachable one.
    fn current(&mut self, origin: StmtId) -> BlockId {
        match self.cur {
            Some(b) => b,
            None => {
                let b = self.new_block("dead", Some(origin));
                self.cur = Some(b);
                b
            }
        }
    }

    fn push_inst(&mut self, kind: InstKind, sid: StmtId, token: Option<String>) {
        let b = self.current(sid);
        self.note(b);
        self.blocks[b].insts.push(Inst { kind, sid, token });
    }

    fn note(&mut self, b: BlockId) {
        if !self.order.contains(&b) {
            self.order.push(b);
        }
    }

    fn terminate(&mut self, term: Term) {
        if let Some(b) = self.cur.take() {
            self.note(b);
            self.blocks[b].term = term;
        }
    }

    /// Ends the current block with a jump to `to` (fall-through).
    fn goto(&mut self, to: BlockId) {
        if self.cur.is_some() {
            self.terminate(Term::Br(to));
        }
    }

    fn controlling_token(&self) -> Option<String> {
        self.token_stack.last().cloned()
    }

    fn fresh_token(&mut self, what: &str, sid: StmtId) -> String {
        self.next_token += 1;
        format!("{what}.{}.{}", sid.0, self.next_token)
    }

    /// Whether an expression holds a convergent operation (and so needs a
    /// token when tokens are on).
    fn convergent(&self, e: &Expr) -> bool {
        self.ir(e).has_convergent_call()
    }

    fn ir(&self, e: &Expr) -> IrExpr {
        crate::to_ir::expr(self.k, self.f, e)
    }

    fn stmt(&mut self, s: &Stmt) {
        // An implementation-defined member gets its own anchor.
        if !(self.tokens && self.k.members.contains(&s.id)) {
            return self.stmt_inner(s);
        }
        let name = self.fresh_token("anchor", s.id);
        // A label or case starts a block that jumps enter: the anchor goes
        // after every label and case that wraps the member's first
        // statement, in the innermost one's block, so that no jump to any
        // of those labels can bypass it.
        let mut inner = s;
        while let StmtKind::Label { body, .. } | StmtKind::Case { body, .. } = &inner.kind {
            self.enter_label(inner);
            inner = body;
        }
        let kind = InstKind::Token {
            kind: TokenKind::Anchor,
            name: name.clone(),
        };
        self.push_inst(kind, s.id, None);
        self.token_stack.push(name);
        if std::ptr::eq(inner, s) {
            self.stmt_inner(s);
        } else {
            self.stmt(inner);
        }
        self.token_stack.pop();
    }

    /// Starts the block of a label or `case` statement (falling through
    /// from the current block).
    fn enter_label(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Label { label, .. } => {
                if let Some(&b) = self.labels.get(label) {
                    if self.cur != Some(b) {
                        self.goto(b);
                        self.cur = Some(b);
                    }
                }
            }
            StmtKind::Case { label, .. } => {
                let hint = match label {
                    CaseLabel::Case(_) => "sw.bb",
                    CaseLabel::Default => "sw.default",
                };
                let b = self.new_block(hint, Some(s.id));
                self.goto(b);
                if let Some(ctx) = self.switches.last_mut() {
                    ctx.cases.push((*label, b));
                }
                self.cur = Some(b);
            }
            _ => {}
        }
    }

    fn stmt_inner(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Observe => {
                let t = self.controlling_token();
                self.push_inst(InstKind::Observe, s.id, t);
            }
            StmtKind::Empty => {}
            StmtKind::Expr(e) => {
                let t = if self.convergent(e) {
                    self.controlling_token()
                } else {
                    None
                };
                self.push_inst(InstKind::Eval(self.ir(e)), s.id, t);
            }
            StmtKind::Local { name, init, .. } => {
                let t = match init {
                    Some(e) if self.convergent(e) => self.controlling_token(),
                    _ => None,
                };
                let kind = InstKind::SetLocal {
                    name: name.clone(),
                    value: init.as_ref().map(|e| self.ir(e)),
                };
                self.push_inst(kind, s.id, t);
            }
            StmtKind::Compound(list) => list.iter().for_each(|c| self.stmt(c)),
            StmtKind::NoConvergent(body) => self.stmt(body),
            StmtKind::If { cond, then, els } => {
                self.current(s.id);
                let then_b = self.new_block("if.then", Some(s.id));
                let else_b = els.as_ref().map(|_| self.new_block("if.else", Some(s.id)));
                let end = self.new_block("if.end", Some(s.id));
                self.terminate(Term::CondBr {
                    cond: self.ir(cond),
                    then: then_b,
                    els: else_b.unwrap_or(end),
                });
                self.cur = Some(then_b);
                self.stmt(then);
                self.goto(end);
                if let (Some(e), Some(b)) = (els, else_b) {
                    self.cur = Some(b);
                    self.stmt(e);
                    self.goto(end);
                }
                self.cur = Some(end);
            }
            StmtKind::While { cond, body } => {
                let head = self.new_block("while.cond", Some(s.id));
                let body_b = self.new_block("while.body", Some(s.id));
                let end = self.new_block("while.end", Some(s.id));
                self.goto(head);
                self.cur = Some(head);
                self.loop_token(s);
                self.terminate(Term::CondBr {
                    cond: self.ir(cond),
                    then: body_b,
                    els: end,
                });
                self.cur = Some(body_b);
                self.jumps.push((end, Some(head)));
                self.stmt(body);
                self.jumps.pop();
                self.goto(head);
                self.end_loop_token(s);
                self.cur = Some(end);
            }
            StmtKind::DoWhile { body, cond } => {
                let body_b = self.new_block("do.body", Some(s.id));
                let cond_b = self.new_block("do.cond", Some(s.id));
                let end = self.new_block("do.end", Some(s.id));
                self.goto(body_b);
                self.cur = Some(body_b);
                self.loop_token(s);
                self.jumps.push((end, Some(cond_b)));
                self.stmt(body);
                self.jumps.pop();
                self.goto(cond_b);
                self.cur = Some(cond_b);
                self.terminate(Term::CondBr {
                    cond: self.ir(cond),
                    then: body_b,
                    els: end,
                });
                self.end_loop_token(s);
                self.cur = Some(end);
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
                let head = self.new_block("for.cond", Some(s.id));
                let body_b = self.new_block("for.body", Some(s.id));
                let inc = self.new_block("for.inc", Some(s.id));
                let end = self.new_block("for.end", Some(s.id));
                self.goto(head);
                self.cur = Some(head);
                self.loop_token(s);
                match cond {
                    Some(c) => self.terminate(Term::CondBr {
                        cond: self.ir(c),
                        then: body_b,
                        els: end,
                    }),
                    None => self.terminate(Term::Br(body_b)),
                }
                self.cur = Some(body_b);
                self.jumps.push((end, Some(inc)));
                self.stmt(body);
                self.jumps.pop();
                self.goto(inc);
                self.cur = Some(inc);
                if let Some(st) = step {
                    let t = if self.convergent(st) {
                        self.controlling_token()
                    } else {
                        None
                    };
                    self.push_inst(InstKind::Eval(self.ir(st)), s.id, t);
                }
                self.goto(head);
                self.end_loop_token(s);
                self.cur = Some(end);
            }
            StmtKind::Switch { value, body } => {
                let from = self.current(s.id);
                self.note(from);
                let end = self.new_block("sw.epilog", Some(s.id));
                self.cur = None;
                self.switches.push(SwitchCtx {
                    block: from,
                    cases: Vec::new(),
                });
                self.jumps.push((end, None));
                self.stmt(body);
                self.jumps.pop();
                self.goto(end);
                if let Some(ctx) = self.switches.pop() {
                    let mut cases = Vec::new();
                    let mut default = end;
                    for (label, b) in ctx.cases {
                        match label {
                            CaseLabel::Case(v) => cases.push((v, b)),
                            CaseLabel::Default => default = b,
                        }
                    }
                    self.blocks[ctx.block].term = Term::Switch {
                        value: self.ir(value),
                        cases,
                        default,
                    };
                }
                self.cur = Some(end);
            }
            StmtKind::Case { body, .. } | StmtKind::Label { body, .. } => {
                self.enter_label(s);
                self.stmt(body);
            }
            StmtKind::Goto(l) => {
                self.current(s.id);
                if let Some(&b) = self.labels.get(l) {
                    self.terminate(Term::Br(b));
                }
            }
            StmtKind::Break => {
                self.current(s.id);
                if let Some(&(b, _)) = self.jumps.last() {
                    self.terminate(Term::Br(b));
                }
            }
            StmtKind::Continue => {
                self.current(s.id);
                if let Some(&(_, Some(c))) = self.jumps.iter().rev().find(|j| j.1.is_some()) {
                    self.terminate(Term::Br(c));
                }
            }
            StmtKind::Return(e) => {
                self.current(s.id);
                self.terminate(Term::Ret(e.as_ref().map(|e| self.ir(e))));
            }
        }
    }

    /// Places a `loop` token at the head of a reducible source loop.
    fn loop_token(&mut self, s: &Stmt) {
        if !self.tokens || self.k.irreducible.contains(&s.id) {
            return;
        }
        let name = self.fresh_token("loop", s.id);
        let parent = self.controlling_token();
        self.push_inst(
            InstKind::Token {
                kind: TokenKind::Loop,
                name: name.clone(),
            },
            s.id,
            parent,
        );
        self.token_stack.push(name);
    }

    fn end_loop_token(&mut self, s: &Stmt) {
        if self.tokens && !self.k.irreducible.contains(&s.id) {
            self.token_stack.pop();
        }
    }
}

impl Kernel {
    /// The kernel's module without tokens: its op and oracle tables are
    /// those of every module lowered from the kernel, so it names the
    /// instances of any run of it.
    pub fn module(&self) -> Module {
        lower(self, false)
    }
}
