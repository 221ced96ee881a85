//! The small CFGs theorems range over, built directly as IR modules.
//!
//! A shape is a list of successor lists ([`convcheck_ir::build`]): block
//! `i` ends in `ret` (no successor), `br` (one) or a two-way branch on the
//! varying oracle `c` (two). The entry, block 0, is never a target, as LLVM
//! requires. [`with_ops`] puts an observation point (a convergent
//! operation, labelled `oI`) in every block marked so; the other blocks
//! are empty.

use convcheck_ir::build::{cfg_from_successors, module_of};
use convcheck_ir::ops::{OpId, OpInfo, OpKind};
use convcheck_ir::span::Span;
use convcheck_ir::{Inst, InstKind, Module};

/// The terminators over `n` blocks: `ret`, `br t`, `br c, t, e` with
/// targets 1..n (`t < e`).
pub fn terminators(n: usize) -> Vec<Vec<usize>> {
    let mut v = vec![vec![]];
    for t in 1..n {
        v.push(vec![t]);
    }
    for a in 1..n {
        for b in a + 1..n {
            v.push(vec![a, b]);
        }
    }
    v
}

/// Every CFG of `n` blocks (each block any terminator).
pub fn all(n: usize) -> Vec<Vec<Vec<usize>>> {
    let ts = terminators(n);
    let mut out: Vec<Vec<Vec<usize>>> = vec![vec![]];
    for _ in 0..n {
        let mut next = Vec::new();
        for p in &out {
            for t in &ts {
                let mut q = p.clone();
                q.push(t.clone());
                next.push(q);
            }
        }
        out = next;
    }
    out
}

/// A small deterministic generator (SplitMix64), so samples are the same
/// on every run.
pub struct Rng(pub u64);

impl Rng {
    /// The next value.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A value below `n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// `count` CFGs of `n` blocks drawn uniformly (fixed seed).
pub fn sample(n: usize, count: usize, seed: u64) -> Vec<Vec<Vec<usize>>> {
    let ts = terminators(n);
    let mut rng = Rng(seed);
    (0..count)
        .map(|_| (0..n).map(|_| ts[rng.below(ts.len())].clone()).collect())
        .collect()
}

/// Adds an op to `module`'s table and returns its id.
pub fn add_op(module: &mut Module, label: &str, kind: OpKind) -> OpId {
    let id = OpId(module.ops.len() as u32);
    module.ops.push(OpInfo {
        label: label.into(),
        span: Span::default(),
        kind,
        func: 0,
    });
    id
}

/// An observation point with op `sid`.
pub fn observe(sid: OpId) -> Inst {
    Inst {
        kind: InstKind::Observe,
        sid,
        token: None,
    }
}

/// The module of `succ` with an observation point `oI` in each block `I`
/// for which `ops[I]` holds.
pub fn with_ops(succ: &[Vec<usize>], ops: &[bool]) -> Module {
    let mut m = module_of(cfg_from_successors(succ));
    for (i, &has) in ops.iter().enumerate() {
        if has {
            let sid = add_op(&mut m, &format!("o{i}"), OpKind::Observe);
            m.functions[0].blocks[i].insts.push(observe(sid));
        }
    }
    m
}

/// Whether every block is reachable from the entry.
pub fn all_reachable(succ: &[Vec<usize>]) -> bool {
    let g = cfg_from_successors(succ);
    g.reachable().len() == succ.len()
}
