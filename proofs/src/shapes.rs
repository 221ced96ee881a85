//! The small CFGs theorems range over, built directly as IR modules.
//!
//! A shape is a list of successor lists ([`convcheck_ir::build`]): block
//! `i` ends in `ret` (no successor), `br` (one) or a two-way branch on the
//! varying oracle `c` (two). The entry, block 0, is never a target, as LLVM
//! requires. [`with_ops`] puts an observation point (a convergent
//! operation, labelled `oI`) in every block marked so; the other blocks
//! are empty.

use convcheck_ir::build::{cfg_from_successors, module_of};
use convcheck_ir::ops::{OpId, OpInfo, OpKind, OracleClass, OracleId, OracleInfo, Space};
use convcheck_ir::span::Span;
use convcheck_ir::{CallKind, Expr, Inst, InstKind, Module, Term};

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
        memory_none: false,
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

/// Adds an oracle with domain {0, 1} to `module`'s table.
pub fn add_oracle(module: &mut Module, name: &str, class: OracleClass) -> OracleId {
    module.oracles.push(OracleInfo {
        name: name.into(),
        class,
        domain: vec![0, 1],
        span: Span::default(),
    });
    module.oracles.len() - 1
}

/// `name = value` (an instruction of op `g`, the function's statement).
pub fn set_local(name: &str, value: Expr) -> Inst {
    Inst {
        kind: InstKind::SetLocal {
            name: name.into(),
            value: Some(value),
        },
        sid: convcheck_ir::build::G,
        token: None,
    }
}

/// `local[index] = 0` with a new op labelled `label`: a memory access whose
/// event shows the value of `index` (local memory never races).
pub fn store_local(module: &mut Module, label: &str, index: Expr) -> Inst {
    let op = add_op(
        module,
        label,
        OpKind::Mem {
            space: Space::Local,
            write: true,
        },
    );
    Inst {
        kind: InstKind::Eval(Expr::Store {
            op,
            space: Space::Local,
            index: Box::new(index),
            value: Box::new(Expr::Const(0)),
            access: convcheck_ir::Access::ELEMENT,
        }),
        sid: op,
        token: None,
    }
}

/// Makes block `b`'s two-way branch read `cond` instead of `c`.
pub fn branch_on(module: &mut Module, b: usize, cond: Expr) {
    if let Term::CondBr { cond: c, .. } = &mut module.functions[0].blocks[b].term {
        *c = cond;
    }
}

/// A call of the external convergent function `label` (a convergent
/// operation, `Eval` of a call, which SimplifyCFG may hoist or sink): a new
/// op, and the varying oracle named `label` for its value, shared by every
/// call of that name.
pub fn convergent_call(module: &mut Module, label: &str) -> Inst {
    let o = match module.oracle(label) {
        Some(o) => o,
        None => add_oracle(module, label, OracleClass::Varying),
    };
    let kind = CallKind::Op(o);
    let op = add_op(module, label, OpKind::Call(kind));
    Inst {
        kind: InstKind::Eval(Expr::Call {
            op,
            kind,
            callee: label.into(),
            args: Vec::new(),
        }),
        sid: op,
        token: None,
    }
}

/// Two diamonds whose sides call the same convergent function `a` (what
/// SimplifyCFG's hoist and sink move), on the varying `c`, one inside a
/// loop.
pub fn diamonds() -> Vec<Module> {
    let mut v = Vec::new();
    for succ in [
        vec![vec![1, 2], vec![3], vec![3], vec![]],
        vec![vec![1], vec![2, 3], vec![4], vec![4], vec![1, 5], vec![]],
    ] {
        let mut m = with_ops(&succ, &[false; 6][..succ.len()]);
        let sides: Vec<usize> = if succ.len() == 4 {
            vec![1, 2]
        } else {
            vec![2, 3]
        };
        for b in sides {
            let call = convergent_call(&mut m, "a");
            m.functions[0].blocks[b].insts.push(call);
        }
        v.push(m);
    }
    v
}
