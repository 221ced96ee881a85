//! Modules, functions, blocks and instructions (DESIGN.md 2.1, CFG level):
//! basic blocks of instructions ending in `br`, conditional `br`, `switch`
//! or `ret`.
//!
//! A [`Module`] is self-describing: besides one [`Cfg`] per function it
//! holds the op table (label, location and kind of every static operation)
//! and the oracle table (every source of per-thread values, with its class),
//! so running, printing, checking and transforming a module need nothing
//! but the module. Front ends (the kernel language, LLVM IR) build modules;
//! transforms rewrite them.
//!
//! Every instruction keeps the op it came from (its *provenance*), which
//! names its instances in trace tables and matches them across a transform;
//! every block keeps the op that created it. Passes move, clone and delete
//! instructions but never invent an op.
//!
//! Convergence-control tokens (LLVM's `entry`, `loop`, `anchor`) are
//! instructions that define a named token; controlled operations name the
//! token they use, printed as a `convergencectrl` operand bundle.

use crate::expr::Expr;
use crate::ops::{OpId, OpInfo, OracleId, OracleInfo};

/// Index of a block in [`Cfg::blocks`]; block 0 is the entry.
pub type BlockId = usize;

/// The three convergence-control intrinsics of LLVM.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TokenKind {
    /// `llvm.experimental.convergence.entry`: the threads converged at the
    /// function's entry.
    Entry,
    /// `llvm.experimental.convergence.loop`: the heart of a cycle; one
    /// instance per iteration, relative to its parent token.
    Loop,
    /// `llvm.experimental.convergence.anchor`: implementation-defined.
    Anchor,
}

impl TokenKind {
    /// The intrinsic's name suffix.
    pub fn name(self) -> &'static str {
        match self {
            TokenKind::Entry => "entry",
            TokenKind::Loop => "loop",
            TokenKind::Anchor => "anchor",
        }
    }
}

/// What an instruction does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InstKind {
    /// A convergent observation point (`...` in the source).
    Observe,
    /// Evaluates an expression: calls, stores and loads inside it are
    /// instances.
    Eval(Expr),
    /// Sets a local.
    SetLocal {
        /// The local.
        name: String,
        /// Its value (0 when absent).
        value: Option<Expr>,
    },
    /// `%name = phi [v, %pred], ...`: the value of the edge the block was
    /// entered by. The phis at the start of a block read their operands
    /// together, before any of them is set (LLVM's semantics).
    Phi {
        /// The local.
        name: String,
        /// One value per predecessor block.
        incoming: Vec<(BlockId, Expr)>,
    },
    /// Defines token `name` with a convergence-control intrinsic.
    Token {
        /// Which intrinsic.
        kind: TokenKind,
        /// The token's name (`tok.3`, printed `%tok.3`).
        name: String,
    },
}

/// One instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inst {
    /// What it does.
    pub kind: InstKind,
    /// The op it came from (its provenance); instances of an observation
    /// point carry this id.
    pub sid: OpId,
    /// The token in its `convergencectrl` bundle, if any: for a `loop`
    /// token its parent, for an operation the token it is controlled by.
    pub token: Option<String>,
}

/// How a block ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Term {
    /// `br label %b`.
    Br(BlockId),
    /// `br i1 cond, label %then, label %els`.
    CondBr {
        /// The condition.
        cond: Expr,
        /// Taken when the condition is non-zero.
        then: BlockId,
        /// Taken when it is zero.
        els: BlockId,
    },
    /// `switch`.
    Switch {
        /// The scrutinee.
        value: Expr,
        /// Case values and their targets.
        cases: Vec<(i64, BlockId)>,
        /// The default target.
        default: BlockId,
    },
    /// `ret`.
    Ret(Option<Expr>),
    /// `unreachable`: reaching it is undefined behaviour (DESIGN.md 2.7, as
    /// Alive2 treats it): a reference run that reaches it constrains
    /// nothing, a target run that reaches it where the reference's run is
    /// defined is a violation. The LLVM mapper also ends a block with it
    /// where the IR branches on `undef` or `poison` or assumes `false`.
    Unreachable,
}

impl Term {
    /// Successor blocks in order, duplicates kept.
    pub fn succs(&self) -> Vec<BlockId> {
        match self {
            Term::Br(b) => vec![*b],
            Term::CondBr { then, els, .. } => vec![*then, *els],
            Term::Switch { cases, default, .. } => {
                let mut v: Vec<BlockId> = cases.iter().map(|c| c.1).collect();
                v.push(*default);
                v
            }
            Term::Ret(_) | Term::Unreachable => Vec::new(),
        }
    }

    /// Rewrites every successor through `f`.
    pub fn map_succs(&mut self, mut f: impl FnMut(BlockId) -> BlockId) {
        match self {
            Term::Br(b) => *b = f(*b),
            Term::CondBr { then, els, .. } => {
                *then = f(*then);
                *els = f(*els);
            }
            Term::Switch { cases, default, .. } => {
                for c in cases.iter_mut() {
                    c.1 = f(c.1);
                }
                *default = f(*default);
            }
            Term::Ret(_) | Term::Unreachable => {}
        }
    }
}

/// A basic block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// Its name (unique in the function), as clang would name it
    /// (`for.cond`, `if.then3`, a label's name).
    pub name: String,
    /// Its instructions.
    pub insts: Vec<Inst>,
    /// Its terminator.
    pub term: Term,
    /// The op that created it (a statement of the front end's input).
    pub origin: Option<OpId>,
}

/// One function of the IR: its signature and its CFG.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cfg {
    /// The function's name.
    pub name: String,
    /// Parameter names (locals set on entry).
    pub params: Vec<String>,
    /// The oracle that gives each parameter's value when the function is
    /// the kernel entry (a kernel argument).
    pub param_oracles: Vec<OracleId>,
    /// Blocks; block 0 is the entry.
    pub blocks: Vec<Block>,
}

/// A module: functions, and the tables that describe their operations and
/// oracles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Module {
    /// The name of the input it came from, used in messages.
    pub name: String,
    /// The most threads a group of the module's target has, where the
    /// module states its target (NVPTX: 1024; AMDGPU: 1024, or what a
    /// kernel's `amdgpu-flat-work-group-size` states): a scenario with a
    /// larger group does not exist on that target, so no engine tries one
    /// (DESIGN.md 2.9; issue 20 class f). `None`: any group size.
    pub max_group: Option<u32>,
    /// Every static operation, indexed by [`OpId`].
    pub ops: Vec<OpInfo>,
    /// Every oracle, indexed by [`OracleId`].
    pub oracles: Vec<OracleInfo>,
    /// The functions.
    pub functions: Vec<Cfg>,
}

impl Module {
    /// The op `id`, if the table has it.
    pub fn op(&self, id: OpId) -> Option<&OpInfo> {
        self.ops.get(id.0 as usize)
    }

    /// The label of op `id` (`?` for an id the table does not have).
    pub fn label(&self, id: OpId) -> &str {
        self.op(id).map_or("?", |o| o.label.as_str())
    }

    /// The line op `id` starts on (0 when unknown).
    pub fn line(&self, id: OpId) -> u32 {
        self.op(id).map_or(0, |o| o.span.start.line)
    }

    /// The oracle called `name`.
    pub fn oracle(&self, name: &str) -> Option<OracleId> {
        self.oracles.iter().position(|o| o.name == name)
    }

    /// The function called `name`.
    pub fn function(&self, name: &str) -> Option<crate::ops::FuncId> {
        self.functions.iter().position(|f| f.name == name)
    }

    /// The kernel entry: `name` if given, else the only function that no
    /// other function calls.
    pub fn entry(&self, name: Option<&str>) -> Result<crate::ops::FuncId, String> {
        let names = || {
            self.functions
                .iter()
                .map(|f| f.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        if let Some(n) = name {
            return self.function(n).ok_or_else(|| {
                format!(
                    "{}: no function named `{n}` (functions: {})",
                    self.name,
                    names()
                )
            });
        }
        let mut called = vec![false; self.functions.len()];
        for f in &self.functions {
            for b in &f.blocks {
                for e in b.exprs() {
                    e.walk(&mut |x| {
                        if let Expr::Call {
                            kind: crate::ops::CallKind::Real(g),
                            ..
                        } = x
                        {
                            if let Some(c) = called.get_mut(*g) {
                                *c = true;
                            }
                        }
                    });
                }
            }
        }
        let roots: Vec<usize> = (0..self.functions.len()).filter(|f| !called[*f]).collect();
        match roots.as_slice() {
            [one] => Ok(*one),
            [] if self.functions.is_empty() => Err(format!("{}: defines no function", self.name)),
            _ => Err(format!(
                "{}: several kernels; choose one with --function (functions: {})",
                self.name,
                names()
            )),
        }
    }
}

impl Block {
    /// Every operand expression of the block, instructions then terminator.
    pub fn exprs(&self) -> Vec<&Expr> {
        let mut out = Vec::new();
        for i in &self.insts {
            match &i.kind {
                InstKind::Eval(e) | InstKind::SetLocal { value: Some(e), .. } => out.push(e),
                InstKind::Phi { incoming, .. } => out.extend(incoming.iter().map(|x| &x.1)),
                _ => {}
            }
        }
        match &self.term {
            Term::CondBr { cond: e, .. } | Term::Switch { value: e, .. } | Term::Ret(Some(e)) => {
                out.push(e)
            }
            _ => {}
        }
        out
    }
}

impl Cfg {
    /// Predecessors of every block.
    pub fn preds(&self) -> Vec<Vec<BlockId>> {
        let mut p = vec![Vec::new(); self.blocks.len()];
        for (b, block) in self.blocks.iter().enumerate() {
            for s in block.term.succs() {
                if !p[s].contains(&b) {
                    p[s].push(b);
                }
            }
        }
        p
    }

    /// Blocks reachable from the entry, in depth-first pre-order.
    pub fn reachable(&self) -> Vec<BlockId> {
        let mut seen = vec![false; self.blocks.len()];
        let mut order = Vec::new();
        let mut stack = vec![0];
        while let Some(b) = stack.pop() {
            if b >= seen.len() || seen[b] {
                continue;
            }
            seen[b] = true;
            order.push(b);
            for s in self.blocks[b].term.succs().into_iter().rev() {
                stack.push(s);
            }
        }
        order
    }

    /// Removes blocks unreachable from the entry, renumbering the rest in
    /// their current order.
    pub fn remove_unreachable(&mut self) {
        let mut keep = vec![false; self.blocks.len()];
        for b in self.reachable() {
            keep[b] = true;
        }
        let mut map = vec![usize::MAX; self.blocks.len()];
        let mut n = 0;
        for (b, k) in keep.iter().enumerate() {
            if *k {
                map[b] = n;
                n += 1;
            }
        }
        let old = std::mem::take(&mut self.blocks);
        for (b, mut block) in old.into_iter().enumerate() {
            if keep[b] {
                block.term.map_succs(|s| map[s]);
                for inst in &mut block.insts {
                    if let InstKind::Phi { incoming, .. } = &mut inst.kind {
                        incoming.retain(|(p, _)| keep.get(*p).copied().unwrap_or(false));
                        for (p, _) in incoming.iter_mut() {
                            *p = map[*p];
                        }
                    }
                }
                self.blocks.push(block);
            }
        }
    }

    /// The block named `name`.
    pub fn block(&self, name: &str) -> Option<BlockId> {
        self.blocks.iter().position(|b| b.name == name)
    }
}
