//! The CFG level (DESIGN.md 2.1): basic blocks of instructions ending in
//! `br`, conditional `br`, `switch` or `ret`.
//!
//! A [`Module`] holds one [`Cfg`] per function of a kernel. CFGs come from
//! [`lower`] (the way clang lowers C at -O0, every block keeping the
//! statement it came from) and are what transforms rewrite. Instructions
//! keep the expressions of the kernel language, so CFG execution reads
//! oracles exactly as source execution does, and every convergent
//! operation keeps the id of the source operation it came from (its
//! *provenance*), which names it in trace tables and matches its instances
//! across a transform.
//!
//! Convergence-control tokens (LLVM's `entry`, `loop`, `anchor`) are
//! instructions that define a named token; controlled operations name the
//! token they use, printed as a `convergencectrl` operand bundle.
//!
//! Submodules: [`lower`] builds CFGs from kernels, [`cycles`] computes the
//! cycle hierarchy, [`print`] writes the text and DOT forms, [`tokens`]
//! checks the static rules of tokens and infers tokens.

pub mod cycles;
pub mod lower;
pub mod print;
pub mod tokens;

use crate::syntax::ast::{Expr, StmtId};

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
    /// instances, as at the source level.
    Eval(Expr),
    /// Sets a local.
    SetLocal {
        /// The local.
        name: String,
        /// Its value (0 when absent).
        value: Option<Expr>,
    },
    /// Defines token `name` with a convergence-control intrinsic.
    Token {
        /// Which intrinsic.
        kind: TokenKind,
        /// The token's name (`%tok.3`).
        name: String,
    },
}

/// One instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inst {
    /// What it does.
    pub kind: InstKind,
    /// The source statement it came from (its provenance); instances of an
    /// observation point carry this id.
    pub sid: StmtId,
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
            Term::Ret(_) => Vec::new(),
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
            Term::Ret(_) => {}
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
    /// The statement that created it.
    pub origin: Option<StmtId>,
}

/// One function's CFG.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cfg {
    /// The function's name.
    pub name: String,
    /// Parameter names.
    pub params: Vec<String>,
    /// Blocks; block 0 is the entry.
    pub blocks: Vec<Block>,
}

/// A kernel file at the CFG level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Module {
    /// One CFG per function definition, in the order of
    /// [`crate::sema::Kernel::functions`].
    pub functions: Vec<Cfg>,
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
                self.blocks.push(block);
            }
        }
    }

    /// The block named `name`.
    pub fn block(&self, name: &str) -> Option<BlockId> {
        self.blocks.iter().position(|b| b.name == name)
    }
}
