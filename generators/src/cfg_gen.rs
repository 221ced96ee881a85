//! Random IR functions, reducible and irreducible, as complete,
//! self-describing modules: no kernel is involved.
//!
//! A [`CfgCase`] is a [`Module`] with one function, `kernel`, whose op and
//! oracle tables say what everything in it is, so it runs, prints and
//! checks on its own ([`CfgCase::program`], [`CfgCase::text`]):
//!
//! - the **oracle table** holds, in block order, one varying oracle per
//!   convergent call (`op<k>`, the value the call would return; the value
//!   is never used, so it is never read) and one per branching block:
//!   `c<i>` with domain {0, 1}, the condition of block `i`'s conditional
//!   branch (`br $c<i>, ...`), or `s<i>` with domain {0, 1, 2}, the value
//!   of its switch (cases 0 and 1, and a value that takes the default);
//! - the **op table** holds one `stmt` op per block, labelled with the
//!   block's name (the block's origin, so block instances name their
//!   block), and one op per convergent operation, numbered `k = 1, 2, ...`
//!   over the function in block order: an observation point
//!   ([`InstKind::Observe`]) labelled `O<k>`, or a convergent call
//!   (`eval` of an [`Expr::Call`] with [`CallKind::Op`]) of the external
//!   function `op<k>`, labelled `op<k>`; the instruction's provenance is
//!   the operation's own op. Spans are unknown (line 0): the module was
//!   never text.
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
//! Determinism: every decision comes from the input through [`Draw`], and
//! nothing iterates over a hash map, so the same input gives the same
//! module, byte for byte in its text form.
//!
//! The graph helpers ([`reachable`], [`dominators`], [`is_reducible`],
//! [`sccs`]) are written from the textbook definitions so that the cycle
//! oracle can compare the model's `CycleInfo` against them.

use crate::draw::Draw;
use arbitrary::{Arbitrary, Unstructured};
use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::print::module_text;
use convcheck_ir::{
    Block, BlockId, CallKind, Cfg, Expr, Inst, InstKind, Module, OpId, OpInfo, OpKind, OracleClass,
    OracleInfo, Span, Term,
};
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
    /// Most convergent operations per block. Default 1.
    pub max_observations_per_block: usize,
    /// Chance, in percent, that a convergent operation is a convergent
    /// call (`call op $op<k> @op<k>()`) rather than an observation point.
    /// Default 30.
    pub call_percent: u8,
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
            call_percent: 30,
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
            call_percent: u.int_in_range(0..=100)?,
        })
    }
}

/// A random IR function as a self-describing module (see the module
/// documentation for its tables).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CfgCase {
    /// The module: one function, `kernel`, with its op and oracle tables.
    pub module: Module,
}

impl CfgCase {
    /// The function (function 0 of the module).
    pub fn cfg(&self) -> &Cfg {
        &self.module.functions[0]
    }

    /// The module as a runnable program with LLVM's cycle hierarchy.
    pub fn program(&self) -> CfgProgram {
        CfgProgram::new(self.module.clone())
    }

    /// The module in the IR's text form (`convcheck_ir::print`).
    pub fn text(&self) -> String {
        module_text(&self.module)
    }
}

/// The name of the module of every random CFG case, used in messages.
pub const MODULE_NAME: &str = "random-cfg";

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
        // Operands are placeholders until the oracle table is built.
        let term = if !d.chance(config.branch_percent) {
            Term::Br(fwd[i])
        } else if config.switches && d.chance(25) {
            let a = other(&mut d);
            let b = other(&mut d);
            Term::Switch {
                value: Expr::Const(0),
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
                cond: Expr::Const(0),
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
    // For every block, its convergent operations: `true` for a call.
    let ops: Vec<Vec<bool>> = (0..n)
        .map(|_| {
            let k = d.range(0, config.max_observations_per_block);
            (0..k).map(|_| d.chance(config.call_percent)).collect()
        })
        .collect();
    CfgCase {
        module: describe(blocks, &ops),
    }
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
            param_oracles: Vec::new(),
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

/// Builds the op and oracle tables, fills in the blocks' origins,
/// convergent operations (`ops[b]`, `true` for a call) and branch
/// conditions, and wraps the function in its module.
fn describe(mut blocks: Vec<Block>, ops: &[Vec<bool>]) -> Module {
    let mut table: Vec<OpInfo> = Vec::new();
    let mut oracles: Vec<OracleInfo> = Vec::new();
    let mut new_op = |label: String, kind: OpKind| {
        table.push(OpInfo {
            label,
            span: Span::default(),
            kind,
            func: 0,
            memory_none: false,
        });
        OpId(table.len() as u32 - 1)
    };
    let mut new_oracle = |name: String, domain: Vec<i64>| {
        oracles.push(OracleInfo {
            name,
            class: OracleClass::Varying,
            domain,
            span: Span::default(),
        });
        oracles.len() - 1
    };
    let mut k = 0;
    for (i, (b, calls)) in blocks.iter_mut().zip(ops).enumerate() {
        b.origin = Some(new_op(b.name.clone(), OpKind::Stmt));
        for &call in calls {
            k += 1;
            let inst = if call {
                let callee = format!("op{k}");
                let o = new_oracle(callee.clone(), vec![0, 1]);
                let kind = CallKind::Op(o);
                let op = new_op(callee.clone(), OpKind::Call(kind));
                Inst {
                    kind: InstKind::Eval(Expr::Call {
                        op,
                        kind,
                        callee,
                        args: Vec::new(),
                    }),
                    sid: op,
                    token: None,
                }
            } else {
                Inst {
                    kind: InstKind::Observe,
                    sid: new_op(format!("O{k}"), OpKind::Observe),
                    token: None,
                }
            };
            b.insts.push(inst);
        }
        match &mut b.term {
            Term::CondBr { cond, .. } => {
                *cond = Expr::Oracle(new_oracle(format!("c{i}"), vec![0, 1]));
            }
            Term::Switch { value, cases, .. } => {
                // The case values and one value that takes the default,
                // as the kernel language's analysis gives a switch oracle.
                let mut domain: Vec<i64> = cases.iter().map(|c| c.0).collect();
                let other = (0..).find(|v| !domain.contains(v)).unwrap_or(0);
                domain.push(other);
                domain.sort_unstable();
                domain.dedup();
                *value = Expr::Oracle(new_oracle(format!("s{i}"), domain));
            }
            Term::Br(_) | Term::Ret(_) | Term::Unreachable => {}
        }
    }
    Module {
        name: MODULE_NAME.into(),
        max_group: None,
        ops: table,
        oracles,
        functions: vec![Cfg {
            name: "kernel".into(),
            params: Vec::new(),
            param_oracles: Vec::new(),
            blocks,
        }],
    }
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
