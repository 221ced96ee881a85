//! Random CFGs, reducible and irreducible, with a companion kernel.
//!
//! A [`CfgCase`] is a one-function [`Cfg`] plus a kernel [`File`] that gives
//! its operands meaning: one observation point `...; // O<n>` per
//! `Observe` instruction of the CFG (its provenance), and one use of every
//! oracle the CFG branches on (`if (c<n>) ;` for a conditional branch,
//! `switch (s<n>) { case 0: ; case 1: ; }` for a switch, so that `sema`
//! gives the switch oracle the domain {0, 1, 2}). The case's
//! [`CfgCase::program`] runs on the companion's [`Kernel`].
//!
//! Construction keeps every CFG runnable within any iteration bound:
//!
//! - block `i` always has a *forward* successor `fwd(i) > i` (the last
//!   block returns), so every block reaches the exit;
//! - only blocks ending in a conditional branch or a switch, which read a
//!   varying oracle, have edges to earlier blocks (or themselves), so every
//!   cycle makes a decision on every turn;
//! - with [`CfgConfig::irreducible`] off, edges to earlier blocks are moved
//!   to the forward successor until the CFG is reducible (checked here with
//!   dominators, independently of the model's cycle code);
//! - with [`CfgConfig::unreachable`] off, `fwd(i) = i + 1`, so every block is
//!   reachable.
//!
//! The graph helpers ([`reachable`], [`dominators`], [`is_reducible`],
//! [`sccs`]) are written from the textbook definitions so that the cycle
//! oracle can compare the model's `CycleInfo` against them.

use crate::analysis::renumber;
use crate::draw::Draw;
use arbitrary::{Arbitrary, Unstructured};
use convcheck_model::cfg::{Block, BlockId, Cfg, Inst, InstKind, Module, Term};
use convcheck_model::exec::cfg::CfgProgram;
use convcheck_model::sema::Kernel;
use convcheck_model::syntax::ast::*;
use convcheck_model::Span;
use std::collections::BTreeSet;

/// What random CFGs may contain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CfgConfig {
    /// Most blocks (at most 64). Default 8.
    pub max_blocks: usize,
    /// Whether cycles may have several entries. Default on.
    pub irreducible: bool,
    /// Whether blocks may end in a `switch`. Default on.
    pub switches: bool,
    /// Whether some blocks may be unreachable from the entry (their edges
    /// into reachable blocks are what LLVM's CycleInfo must ignore).
    /// Default off.
    pub unreachable: bool,
    /// Chance, in percent, that a block (other than the last) branches.
    /// Default 60.
    pub branch_percent: u8,
    /// Chance, in percent, that a branch's extra target is an earlier block
    /// or the block itself (making a cycle). Default 50.
    pub back_percent: u8,
    /// Most observation points per block. Default 1.
    pub max_observations_per_block: usize,
}

impl Default for CfgConfig {
    fn default() -> CfgConfig {
        CfgConfig {
            max_blocks: 8,
            irreducible: true,
            switches: true,
            unreachable: false,
            branch_percent: 60,
            back_percent: 50,
            max_observations_per_block: 1,
        }
    }
}

/// Swarm draw of a CFG configuration.
impl<'a> Arbitrary<'a> for CfgConfig {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<CfgConfig> {
        Ok(CfgConfig {
            max_blocks: u.int_in_range(1..=12)?,
            irreducible: u.arbitrary()?,
            switches: u.arbitrary()?,
            unreachable: u.arbitrary()?,
            branch_percent: u.int_in_range(0..=100)?,
            back_percent: u.int_in_range(0..=100)?,
            max_observations_per_block: u.int_in_range(0..=2)?,
        })
    }
}

/// A random CFG and the kernel that gives its oracles and observation
/// points meaning.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CfgCase {
    /// The companion kernel.
    pub file: File,
    /// The CFG (function 0 of the companion's module).
    pub cfg: Cfg,
}

impl CfgCase {
    /// The companion kernel after analysis.
    ///
    /// # Panics
    ///
    /// If `sema` rejects the companion, which the construction rules out.
    pub fn kernel(&self) -> Kernel {
        match Kernel::new("cfg.c", self.file.clone()) {
            Ok(k) => k,
            Err(d) => panic!("the companion kernel of a random CFG is invalid: {d}"),
        }
    }

    /// The CFG as a runnable program with LLVM's cycle hierarchy.
    pub fn program(&self) -> CfgProgram {
        CfgProgram::new(Module {
            functions: vec![self.cfg.clone()],
        })
    }
}

/// Generates a random CFG case from `u`'s decisions.
pub fn generate_cfg(config: &CfgConfig, u: &mut Unstructured<'_>) -> CfgCase {
    let mut d = Draw::new(u);
    let n = d.range(1, config.max_blocks.clamp(1, 64));
    let mut fwd = vec![0; n];
    let mut terms = Vec::with_capacity(n);
    for i in 0..n {
        if i + 1 == n {
            terms.push(Term::Ret(None));
            continue;
        }
        fwd[i] = if config.unreachable && d.chance(30) {
            d.range(i + 1, n - 1)
        } else {
            i + 1
        };
        let other = |d: &mut Draw<'_, '_>| {
            if d.chance(config.back_percent) {
                d.below(i + 1)
            } else {
                d.range(i + 1, n - 1)
            }
        };
        let term = if !d.chance(config.branch_percent) {
            Term::Br(fwd[i])
        } else if config.switches && d.chance(25) {
            let a = other(&mut d);
            let b = other(&mut d);
            Term::Switch {
                value: Expr {
                    kind: ExprKind::Name(String::new()),
                    span: Span::default(),
                },
                cases: vec![(0, a), (1, b)],
                default: fwd[i],
            }
        } else {
            let o = other(&mut d);
            let (then, els) = if d.chance(50) {
                (o, fwd[i])
            } else {
                (fwd[i], o)
            };
            Term::CondBr {
                cond: Expr {
                    kind: ExprKind::Name(String::new()),
                    span: Span::default(),
                },
                then,
                els,
            }
        };
        terms.push(term);
    }
    let mut blocks: Vec<Block> = terms
        .into_iter()
        .enumerate()
        .map(|(i, term)| Block {
            name: if i == 0 {
                "entry".to_string()
            } else {
                format!("bb{i}")
            },
            insts: Vec::new(),
            term,
            origin: None,
        })
        .collect();
    if !config.irreducible {
        make_reducible(&mut blocks, &fwd);
    }
    let observes: Vec<usize> = (0..n)
        .map(|_| d.range(0, config.max_observations_per_block))
        .collect();
    companion(blocks, &observes)
}

/// Moves edges to earlier blocks to the forward successor until the CFG is
/// reducible: first those whose target does not dominate their source,
/// then any. Each step removes one edge to an earlier block, and a CFG
/// without any is acyclic, so this ends.
fn make_reducible(blocks: &mut [Block], fwd: &[usize]) {
    loop {
        let cfg = Cfg {
            name: String::new(),
            params: Vec::new(),
            blocks: blocks.to_vec(),
        };
        if is_reducible(&cfg) {
            return;
        }
        let dom = dominators(&cfg);
        let back: Vec<(usize, usize)> = (0..blocks.len())
            .flat_map(|u| {
                blocks[u]
                    .term
                    .succs()
                    .into_iter()
                    .filter(move |&v| v <= u)
                    .map(move |v| (u, v))
            })
            .collect();
        let Some(&(u, v)) = back
            .iter()
            .find(|(u, v)| dom[*u] & (1 << *v) == 0)
            .or(back.first())
        else {
            return;
        };
        let to = fwd[u];
        blocks[u].term.map_succs(|s| if s == v { to } else { s });
    }
}

/// Builds the companion kernel and fills in the CFG's operands.
fn companion(mut blocks: Vec<Block>, observes: &[usize]) -> CfgCase {
    let stmt = |kind| Stmt {
        id: StmtId(0),
        name: None,
        kind,
        span: Span::default(),
    };
    let name = |n: String| Expr {
        kind: ExprKind::Name(n),
        span: Span::default(),
    };
    let mut list = Vec::new();
    let mut obs = 0;
    for &k in observes {
        for _ in 0..k {
            obs += 1;
            list.push(Stmt {
                name: Some(format!("O{obs}")),
                ..stmt(StmtKind::Observe)
            });
        }
    }
    for (i, b) in blocks.iter_mut().enumerate() {
        match &mut b.term {
            Term::CondBr { cond, .. } => {
                *cond = name(format!("c{i}"));
                list.push(stmt(StmtKind::If {
                    cond: cond.clone(),
                    then: Box::new(stmt(StmtKind::Empty)),
                    els: None,
                }));
            }
            Term::Switch { value, cases, .. } => {
                *value = name(format!("s{i}"));
                let arms = cases
                    .iter()
                    .map(|(v, _)| {
                        stmt(StmtKind::Case {
                            label: CaseLabel::Case(*v),
                            body: Box::new(stmt(StmtKind::Empty)),
                        })
                    })
                    .collect();
                list.push(stmt(StmtKind::Switch {
                    value: value.clone(),
                    body: Box::new(stmt(StmtKind::Compound(arms))),
                }));
            }
            Term::Br(_) | Term::Ret(_) => {}
        }
    }
    let mut file = File {
        items: vec![Item::Function(Function {
            ret: "void".into(),
            name: "kernel".into(),
            params: Vec::new(),
            body: stmt(StmtKind::Compound(list)),
            span: Span::default(),
        })],
    };
    renumber(&mut file);
    // The observation points are the first statements of the body, so
    // their ids are 1, 2, ... in order.
    let mut sid = 1;
    for (b, &k) in blocks.iter_mut().zip(observes) {
        for _ in 0..k {
            b.insts.push(Inst {
                kind: InstKind::Observe,
                sid: StmtId(sid),
                token: None,
            });
            sid += 1;
        }
    }
    let cfg = Cfg {
        name: "kernel".into(),
        params: Vec::new(),
        blocks,
    };
    CfgCase { file, cfg }
}

// ----- graph helpers, from the definitions -----

/// Blocks reachable from the entry.
pub fn reachable(cfg: &Cfg) -> BTreeSet<BlockId> {
    let mut seen = BTreeSet::new();
    let mut stack = vec![0];
    while let Some(b) = stack.pop() {
        if b < cfg.blocks.len() && seen.insert(b) {
            stack.extend(cfg.blocks[b].term.succs());
        }
    }
    seen
}

/// For every block, the bit set of its dominators (bit `d` set when `d`
/// dominates it); 0 for unreachable blocks. At most 64 blocks.
pub fn dominators(cfg: &Cfg) -> Vec<u64> {
    let n = cfg.blocks.len();
    assert!(n <= 64, "dominators: at most 64 blocks");
    let reach = reachable(cfg);
    let all: u64 = reach.iter().fold(0, |m, &b| m | (1 << b));
    let preds = cfg.preds();
    let mut dom: Vec<u64> = (0..n)
        .map(|b| if reach.contains(&b) { all } else { 0 })
        .collect();
    if n > 0 {
        dom[0] = 1;
    }
    let mut changed = true;
    while changed {
        changed = false;
        for &b in reach.iter().skip_while(|&&b| b == 0) {
            let meet = preds[b]
                .iter()
                .filter(|p| reach.contains(p))
                .fold(all, |m, &p| m & dom[p]);
            let new = meet | (1 << b);
            if new != dom[b] {
                dom[b] = new;
                changed = true;
            }
        }
    }
    dom
}

/// Whether the reachable CFG is reducible: every edge that a depth-first
/// search from the entry finds going back to a block on its stack goes to
/// a dominator of its source (Hecht and Ullman).
pub fn is_reducible(cfg: &Cfg) -> bool {
    let n = cfg.blocks.len();
    let dom = dominators(cfg);
    // 0 = unvisited, 1 = on the stack, 2 = done.
    let mut state = vec![0u8; n];
    let mut stack: Vec<(BlockId, usize)> = vec![(0, 0)];
    if n == 0 {
        return true;
    }
    state[0] = 1;
    while let Some(&mut (b, ref mut next)) = stack.last_mut() {
        let succs = cfg.blocks[b].term.succs();
        if *next < succs.len() {
            let s = succs[*next];
            *next += 1;
            match state[s] {
                0 => {
                    state[s] = 1;
                    stack.push((s, 0));
                }
                1 if dom[b] & (1 << s) == 0 => return false,
                _ => {}
            }
        } else {
            state[b] = 2;
            stack.pop();
        }
    }
    true
}

/// The strongly connected regions of the subgraph on `region` that have an
/// internal edge, each sorted, in ascending order of their smallest block;
/// from the reachability relation (quadratic, for small CFGs).
pub fn sccs(cfg: &Cfg, region: &BTreeSet<BlockId>) -> Vec<BTreeSet<BlockId>> {
    let nodes: Vec<BlockId> = region.iter().copied().collect();
    // reach[i] = the nodes reachable from nodes[i] by at least one edge
    // inside the region.
    let reach: Vec<BTreeSet<BlockId>> = nodes
        .iter()
        .map(|&b| {
            let mut seen = BTreeSet::new();
            let mut stack: Vec<BlockId> = cfg.blocks[b]
                .term
                .succs()
                .into_iter()
                .filter(|s| region.contains(s))
                .collect();
            while let Some(x) = stack.pop() {
                if seen.insert(x) {
                    stack.extend(
                        cfg.blocks[x]
                            .term
                            .succs()
                            .into_iter()
                            .filter(|s| region.contains(s)),
                    );
                }
            }
            seen
        })
        .collect();
    let index = |b: BlockId| nodes.iter().position(|&x| x == b).unwrap_or(0);
    let mut out: Vec<BTreeSet<BlockId>> = Vec::new();
    for (i, &b) in nodes.iter().enumerate() {
        if !reach[i].contains(&b) || out.iter().any(|c| c.contains(&b)) {
            continue;
        }
        let scc: BTreeSet<BlockId> = reach[i]
            .iter()
            .copied()
            .filter(|&x| reach[index(x)].contains(&b))
            .collect();
        out.push(scc);
    }
    out
}
