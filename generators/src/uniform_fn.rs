//! Random LLVM IR functions for the uniformity oracle
//! (`convcheck fuzz --uniformity`, issue 23): AMDGPU kernels whose CFG is a
//! random CFG of [`crate::cfg_gen`] (irreducible cycles included), whose
//! branches test the thread index (divergent), a kernel argument
//! (uniform) or a value of their block, and whose blocks with several
//! predecessors start with phis of constants, arguments and the values
//! their predecessors computed: the material of the analysis's joins,
//! cycle exits and temporal divergence.
//!
//! **Valid by construction.** An operand is a constant, an argument, the
//! thread index (defined in a separate entry block, which dominates
//! everything), or a value of the same block defined before it; a phi's
//! incoming value from predecessor `P` may also be any value of `P`
//! (defined in `P`, so available at the end of `P`). The first block of
//! the random CFG is not the function's entry (LLVM's entry block may have
//! no predecessors); a conditional branch or switch with two equal targets
//! becomes a plain branch.
//!
//! **Shrinking.** A [`UniformFn`] is a structure, not text:
//! [`UniformFn::candidates`] lists the smaller functions one step away
//! (a branch replaced by a jump to one of its targets, unreachable blocks
//! dropped, a phi or value replaced by a constant, a branch on the thread
//! index made uniform), which the campaign's minimizer tries in order.
//!
//! Determinism: the same input bytes give the same function, byte for
//! byte in its text.

use crate::cfg_gen::{generate_cfg, CfgConfig};
use crate::draw::Draw;
use arbitrary::Unstructured;
use convcheck_ir::Term;
use std::collections::BTreeMap;
use std::fmt::Write;

/// What random functions contain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UniformFnConfig {
    /// The CFG's shape (blocks, cycles, irreducibility, switches). Its
    /// convergent operations are not used.
    pub cfg: CfgConfig,
    /// Chance, in percent, that a branch tests the thread index. Default 50.
    pub divergent_percent: u8,
    /// Most phis in a block with several predecessors. Default 2.
    pub max_phis: usize,
    /// Most other values per block. Default 2.
    pub max_values: usize,
    /// Chance, in percent, that a phi's incoming value is a constant.
    /// Default 40.
    pub constant_percent: u8,
    /// Chance, in percent, that an edge is stretched into a chain of one
    /// to three blocks: the random CFG's arms are mostly one block long
    /// (every block falls through to the next), while the analysis's join
    /// search goes wrong on longer ones (llvm/llvm-project#137277).
    /// Default 25.
    pub stretch_percent: u8,
    /// Whether blocks are printed in a shuffled order (`%bb0` first): the
    /// analysis walks blocks in an order that depends on the layout.
    /// Default on.
    pub shuffle: bool,
}

impl Default for UniformFnConfig {
    fn default() -> UniformFnConfig {
        UniformFnConfig {
            cfg: CfgConfig {
                max_blocks: 7,
                max_observations_per_block: 0,
                ..CfgConfig::default()
            },
            divergent_percent: 50,
            max_phis: 2,
            max_values: 2,
            constant_percent: 40,
            stretch_percent: 25,
            shuffle: true,
        }
    }
}

/// A value an instruction reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Operand {
    /// An `i32` constant.
    Const(i32),
    /// Kernel argument `k` (`%a0`, `%a1`): uniform.
    Arg(usize),
    /// The thread index `%tid`: divergent.
    Tid,
    /// Value number `n` (`%vN`).
    Value(u32),
}

/// A non-phi value: `%vN = OP i32 lhs, rhs` or `%vN = icmp ...` widened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Def {
    /// Its number (`%vN`).
    pub id: u32,
    /// `add`, `xor`, `sub` or `and` (no multiplication: a product of two
    /// unknowns makes the solver slow, and joins and cycles are what the
    /// oracle is after)
    pub op: &'static str,
    /// Its operands.
    pub args: Vec<Operand>,
}

/// A phi: one incoming value per predecessor block (by index).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Phi {
    /// Its number (`%vN`).
    pub id: u32,
    /// Per predecessor block, the value.
    pub incoming: BTreeMap<usize, Operand>,
}

/// A branch condition: `icmp PRED i32 lhs, K`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cond {
    /// `eq`, `ult`, `sgt` ...
    pub pred: &'static str,
    /// What is tested.
    pub lhs: Operand,
    /// Against which constant.
    pub rhs: i32,
}

/// How a block ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Exit {
    /// `ret void`.
    Ret,
    /// `br label %bbT`.
    Br(usize),
    /// `br i1 %cN, label %bbT, label %bbE`.
    CondBr(Cond, usize, usize),
    /// `switch i32 X, label %bbD [0, %bbA; 1, %bbB]` (distinct targets).
    Switch(Operand, Vec<(i32, usize)>, usize),
}

impl Exit {
    fn succs(&self) -> Vec<usize> {
        match self {
            Exit::Ret => Vec::new(),
            Exit::Br(t) => vec![*t],
            Exit::CondBr(_, a, b) => vec![*a, *b],
            Exit::Switch(_, cases, d) => {
                let mut v: Vec<usize> = cases.iter().map(|c| c.1).collect();
                v.push(*d);
                v
            }
        }
    }
}

/// One block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UBlock {
    /// Its phis.
    pub phis: Vec<Phi>,
    /// Its other values.
    pub defs: Vec<Def>,
    /// How it ends.
    pub exit: Exit,
}

/// A random function (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UniformFn {
    /// Its name (`@NAME`).
    pub name: String,
    /// Its blocks, `%bb0` first (entered from the function's entry).
    pub blocks: Vec<UBlock>,
    /// The order the blocks are printed in (block indices, 0 first).
    pub layout: Vec<usize>,
}

/// The number of kernel arguments (`%a0`, `%a1`).
const ARGS: usize = 2;

/// Predecessors of every block (each once).
fn preds(blocks: &[UBlock]) -> Vec<Vec<usize>> {
    let mut p = vec![Vec::new(); blocks.len()];
    for (b, block) in blocks.iter().enumerate() {
        for s in block.exit.succs() {
            if s < p.len() && !p[s].contains(&b) {
                p[s].push(b);
            }
        }
    }
    p
}

impl UniformFn {
    /// Generates a function named `name` from `u`'s decisions.
    pub fn generate(name: &str, config: &UniformFnConfig, u: &mut Unstructured<'_>) -> UniformFn {
        let shape = generate_cfg(&config.cfg, u);
        let cfg = shape.cfg();
        let mut d = Draw::new(u);
        // The exits, with placeholder conditions, give the predecessors.
        let placeholder = Cond {
            pred: "eq",
            lhs: Operand::Const(0),
            rhs: 0,
        };
        let mut blocks: Vec<UBlock> = cfg
            .blocks
            .iter()
            .map(|b| UBlock {
                phis: Vec::new(),
                defs: Vec::new(),
                exit: match &b.term {
                    Term::CondBr { then, els, .. } if then != els => {
                        Exit::CondBr(placeholder.clone(), *then, *els)
                    }
                    Term::CondBr { then, .. } => Exit::Br(*then),
                    Term::Switch { cases, default, .. } => {
                        let mut seen = vec![*default];
                        let mut cs = Vec::new();
                        for (v, t) in cases {
                            if !seen.contains(t) {
                                seen.push(*t);
                                cs.push((*v as i32, *t));
                            }
                        }
                        if cs.is_empty() {
                            Exit::Br(*default)
                        } else {
                            Exit::Switch(Operand::Const(0), cs, *default)
                        }
                    }
                    Term::Br(t) => Exit::Br(*t),
                    Term::Ret(_) | Term::Unreachable => Exit::Ret,
                },
            })
            .collect();
        let ps = preds(&blocks);
        let mut next = 0u32;
        // Phis where several ways come in (the entry counts for `%bb0`).
        for (b, block) in blocks.iter_mut().enumerate() {
            if usize::from(b == 0) + ps[b].len() < 2 {
                continue;
            }
            for _ in 0..d.range(0, config.max_phis) {
                block.phis.push(Phi {
                    id: next,
                    incoming: BTreeMap::new(),
                });
                next += 1;
            }
        }
        let operand = |d: &mut Draw<'_, '_>, here: &[u32], divergent: bool| -> Operand {
            if divergent {
                return Operand::Tid;
            }
            match d.below(3) {
                0 if !here.is_empty() => Operand::Value(here[d.below(here.len())]),
                1 => Operand::Const(d.below(4) as i32),
                _ => Operand::Arg(d.below(ARGS)),
            }
        };
        // Values and branch conditions, over the block's phis and values.
        for block in blocks.iter_mut() {
            let mut here: Vec<u32> = block.phis.iter().map(|p| p.id).collect();
            for _ in 0..d.range(0, config.max_values) {
                let divergent = d.chance(config.divergent_percent / 2);
                let lhs = operand(&mut d, &here, divergent);
                let rhs = operand(&mut d, &here, false);
                let op = ["add", "xor", "sub", "and"][d.below(4)];
                block.defs.push(Def {
                    id: next,
                    op,
                    args: vec![lhs, rhs],
                });
                here.push(next);
                next += 1;
            }
            match &mut block.exit {
                Exit::CondBr(c, ..) => {
                    let divergent = d.chance(config.divergent_percent);
                    *c = Cond {
                        pred: ["eq", "ult", "ne", "sgt"][d.below(4)],
                        lhs: operand(&mut d, &here, divergent),
                        rhs: d.below(4) as i32,
                    };
                }
                Exit::Switch(x, ..) => {
                    let divergent = d.chance(config.divergent_percent);
                    *x = operand(&mut d, &here, divergent);
                }
                _ => {}
            }
        }
        // Stretched edges: a chain of empty blocks, appended; a chain
        // block passes on its origin's values (the origin dominates it).
        let n = blocks.len();
        let mut origin: Vec<usize> = (0..n).collect();
        for b in 0..n {
            for t in blocks[b].exit.succs() {
                if !d.chance(config.stretch_percent) {
                    continue;
                }
                let len = d.range(1, 3);
                let first = blocks.len();
                for k in 0..len {
                    let to = if k + 1 == len { t } else { first + k + 1 };
                    blocks.push(UBlock {
                        phis: Vec::new(),
                        defs: Vec::new(),
                        exit: Exit::Br(to),
                    });
                    origin.push(origin[b]);
                }
                let last = first + len - 1;
                retarget(&mut blocks[b].exit, t, first);
                for p in &mut blocks[t].phis {
                    if let Some(v) = p.incoming.remove(&b) {
                        p.incoming.insert(last, v);
                    }
                }
            }
        }
        let ps = preds(&blocks);
        // Incoming values: a constant or any value of the predecessor.
        for b in 0..blocks.len() {
            for k in 0..blocks[b].phis.len() {
                for &from in &ps[b] {
                    let o = origin[from];
                    let avail: Vec<u32> = blocks[o]
                        .phis
                        .iter()
                        .map(|x| x.id)
                        .chain(blocks[o].defs.iter().map(|x| x.id))
                        .collect();
                    let v = if d.chance(config.constant_percent) || avail.is_empty() {
                        Operand::Const(d.below(3) as i32)
                    } else {
                        Operand::Value(avail[d.below(avail.len())])
                    };
                    blocks[b].phis[k].incoming.insert(from, v);
                }
            }
        }
        let mut layout: Vec<usize> = (0..blocks.len()).collect();
        if config.shuffle {
            for k in (2..layout.len()).rev() {
                let j = 1 + d.below(k);
                layout.swap(k, j);
            }
        }
        UniformFn {
            name: name.to_string(),
            blocks,
            layout,
        }
    }

    /// The function as LLVM IR (a `define`, without the module's triple
    /// and declarations: see [`module_text`]).
    pub fn function_text(&self) -> String {
        let ps = preds(&self.blocks);
        let op = |o: &Operand| match o {
            Operand::Const(c) => c.to_string(),
            Operand::Arg(k) => format!("%a{k}"),
            Operand::Tid => "%tid".into(),
            Operand::Value(n) => format!("%v{n}"),
        };
        let mut out = String::new();
        let args: Vec<String> = (0..ARGS).map(|k| format!("i32 %a{k}")).collect();
        let _ = writeln!(
            out,
            "define amdgpu_kernel void @{}({}) {{",
            self.name,
            args.join(", ")
        );
        let _ = writeln!(out, "entry:");
        let _ = writeln!(
            out,
            "  %tid = call i32 @llvm.amdgcn.workitem.id.x()\n  br label %bb0"
        );
        for &b in &self.layout {
            let block = &self.blocks[b];
            let _ = writeln!(out, "bb{b}:");
            for phi in &block.phis {
                let mut ins: Vec<String> = Vec::new();
                if b == 0 {
                    ins.push("[ 0, %entry ]".into());
                }
                for &p in &ps[b] {
                    let v = phi.incoming.get(&p).copied().unwrap_or(Operand::Const(0));
                    ins.push(format!("[ {}, %bb{p} ]", op(&v)));
                }
                let _ = writeln!(out, "  %v{} = phi i32 {}", phi.id, ins.join(", "));
            }
            for def in &block.defs {
                let _ = writeln!(
                    out,
                    "  %v{} = {} i32 {}, {}",
                    def.id,
                    def.op,
                    op(&def.args[0]),
                    op(&def.args[1])
                );
            }
            match &block.exit {
                Exit::Ret => {
                    let _ = writeln!(out, "  ret void");
                }
                Exit::Br(t) => {
                    let _ = writeln!(out, "  br label %bb{t}");
                }
                Exit::CondBr(c, t, e) => {
                    let _ = writeln!(
                        out,
                        "  %c{b} = icmp {} i32 {}, {}\n  br i1 %c{b}, label %bb{t}, label %bb{e}",
                        c.pred,
                        op(&c.lhs),
                        c.rhs
                    );
                }
                Exit::Switch(x, cases, dflt) => {
                    let cs: Vec<String> = cases
                        .iter()
                        .map(|(v, t)| format!("i32 {v}, label %bb{t}"))
                        .collect();
                    let _ = writeln!(
                        out,
                        "  switch i32 {}, label %bb{dflt} [ {} ]",
                        op(x),
                        cs.join(" ")
                    );
                }
            }
        }
        out.push_str("}\n");
        out
    }

    /// Instructions, for comparing sizes while minimizing: phis, values,
    /// branches and blocks.
    pub fn size(&self) -> usize {
        self.blocks
            .iter()
            .map(|b| 1 + b.phis.len() + b.defs.len() + b.exit.succs().len())
            .sum()
    }

    /// The functions one shrinking step away, smallest change first (see
    /// the module documentation). Each is valid.
    pub fn candidates(&self) -> Vec<UniformFn> {
        let mut out = Vec::new();
        // A branch becomes a jump to one of its targets.
        for (b, block) in self.blocks.iter().enumerate() {
            let succs = match &block.exit {
                Exit::CondBr(..) | Exit::Switch(..) => block.exit.succs(),
                _ => continue,
            };
            for t in succs {
                let mut f = self.clone();
                f.blocks[b].exit = Exit::Br(t);
                out.push(f.without_unreachable());
            }
        }
        // An empty block that only jumps on is bypassed by its one
        // predecessor (unless that would branch twice to one block).
        let ps = preds(&self.blocks);
        for (b, block) in self.blocks.iter().enumerate() {
            let Exit::Br(t) = block.exit else { continue };
            let [p] = ps[b].as_slice() else { continue };
            let p = *p;
            if b == 0 || t == b || !block.phis.is_empty() || !block.defs.is_empty() {
                continue;
            }
            if self.blocks[p].exit.succs().contains(&t) {
                continue;
            }
            let mut f = self.clone();
            retarget(&mut f.blocks[p].exit, b, t);
            for phi in &mut f.blocks[t].phis {
                if let Some(v) = phi.incoming.remove(&b) {
                    phi.incoming.insert(p, v);
                }
            }
            out.push(f.without_unreachable());
        }
        // A phi or value goes (its uses read 0).
        for (b, block) in self.blocks.iter().enumerate() {
            for k in 0..block.phis.len() {
                let mut f = self.clone();
                let id = f.blocks[b].phis.remove(k).id;
                f.replace(id, Operand::Const(0));
                out.push(f);
            }
            for k in 0..block.defs.len() {
                let mut f = self.clone();
                let id = f.blocks[b].defs.remove(k).id;
                f.replace(id, Operand::Const(0));
                out.push(f);
            }
        }
        // A phi's incoming value becomes a constant; an operand of a value
        // or branch on the thread index becomes an argument.
        for (b, block) in self.blocks.iter().enumerate() {
            for (k, phi) in block.phis.iter().enumerate() {
                for (&p, v) in &phi.incoming {
                    if !matches!(v, Operand::Const(_)) {
                        let mut f = self.clone();
                        f.blocks[b].phis[k].incoming.insert(p, Operand::Const(0));
                        out.push(f);
                    }
                }
            }
            if let Exit::CondBr(c, ..) = &block.exit {
                if c.lhs == Operand::Tid {
                    let mut f = self.clone();
                    if let Exit::CondBr(c, ..) = &mut f.blocks[b].exit {
                        c.lhs = Operand::Arg(0);
                    }
                    out.push(f);
                }
            }
        }
        out
    }

    /// Every use of value `id` reads `with` instead.
    fn replace(&mut self, id: u32, with: Operand) {
        let fix = |o: &mut Operand| {
            if *o == Operand::Value(id) {
                *o = with;
            }
        };
        for b in &mut self.blocks {
            for p in &mut b.phis {
                p.incoming.values_mut().for_each(fix);
            }
            for d in &mut b.defs {
                d.args.iter_mut().for_each(fix);
            }
            match &mut b.exit {
                Exit::CondBr(c, ..) => fix(&mut c.lhs),
                Exit::Switch(x, ..) => fix(x),
                _ => {}
            }
        }
    }

    /// The function without the blocks `%bb0` no longer reaches (their
    /// values and the phis' entries from them gone, uses of their values
    /// reading 0), blocks renumbered in order.
    fn without_unreachable(mut self) -> UniformFn {
        let n = self.blocks.len();
        let mut seen = vec![false; n];
        let mut stack = vec![0];
        while let Some(b) = stack.pop() {
            if b >= n || seen[b] {
                continue;
            }
            seen[b] = true;
            stack.extend(self.blocks[b].exit.succs());
        }
        let dead: Vec<u32> = (0..n)
            .filter(|b| !seen[*b])
            .flat_map(|b| {
                let bl = &self.blocks[b];
                bl.phis
                    .iter()
                    .map(|p| p.id)
                    .chain(bl.defs.iter().map(|d| d.id))
                    .collect::<Vec<_>>()
            })
            .collect();
        for id in dead {
            self.replace(id, Operand::Const(0));
        }
        let mut map = vec![usize::MAX; n];
        let mut k = 0;
        for (b, m) in map.iter_mut().enumerate() {
            if seen[b] {
                *m = k;
                k += 1;
            }
        }
        self.layout = self
            .layout
            .iter()
            .filter(|b| seen[**b])
            .map(|b| map[*b])
            .collect();
        let old = std::mem::take(&mut self.blocks);
        for (b, mut block) in old.into_iter().enumerate() {
            if !seen[b] {
                continue;
            }
            let remap = |t: &mut usize| *t = map[*t];
            match &mut block.exit {
                Exit::Br(t) => remap(t),
                Exit::CondBr(_, t, e) => {
                    remap(t);
                    remap(e);
                }
                Exit::Switch(_, cases, d) => {
                    cases.iter_mut().for_each(|c| remap(&mut c.1));
                    remap(d);
                }
                Exit::Ret => {}
            }
            for p in &mut block.phis {
                p.incoming = p
                    .incoming
                    .iter()
                    .filter(|(from, _)| seen[**from])
                    .map(|(from, v)| (map[*from], *v))
                    .collect();
            }
            self.blocks.push(block);
        }
        // Phi entries of edges that are gone go too. A block left with one
        // way in keeps its phis (LLVM allows a phi with one entry); one
        // left with none (only the entry block, whose phis have the
        // entry's edge) is fine too.
        let ps = preds(&self.blocks);
        for (b, block) in self.blocks.iter_mut().enumerate() {
            for p in &mut block.phis {
                p.incoming.retain(|from, _| ps[b].contains(from));
            }
        }
        self
    }
}

/// Makes the edge of `exit` to `from` go to `to`.
fn retarget(exit: &mut Exit, from: usize, to: usize) {
    let fix = |t: &mut usize| {
        if *t == from {
            *t = to;
        }
    };
    match exit {
        Exit::Br(t) => fix(t),
        Exit::CondBr(_, a, b) => {
            fix(a);
            fix(b);
        }
        Exit::Switch(_, cases, dflt) => {
            cases.iter_mut().for_each(|c| fix(&mut c.1));
            fix(dflt);
        }
        Exit::Ret => {}
    }
}

/// A module of AMDGPU kernels: the triple, the functions, the
/// declaration of the thread index.
pub fn module_text(functions: &[UniformFn]) -> String {
    let mut out = String::from("target triple = \"amdgcn-amd-amdhsa\"\n\n");
    for f in functions {
        out.push_str(&f.function_text());
        out.push('\n');
    }
    out.push_str("declare i32 @llvm.amdgcn.workitem.id.x()\n");
    out
}

/// The function for `seed` under `config`.
pub fn generate_seeded(name: &str, config: &UniformFnConfig, seed: u64) -> UniformFn {
    let bytes = crate::draw::seed_bytes(seed, crate::draw::SEED_BYTES);
    UniformFn::generate(name, config, &mut Unstructured::new(&bytes))
}
