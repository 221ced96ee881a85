//! Per-group values: the group's index and the group count in every
//! dimension (CUDA's `blockIdx`, `gridDim`; OpenCL's `get_group_id`,
//! `get_num_groups`; AMDGPU's `workgroup.id`), DESIGN.md 2.9 and issue 20
//! class f.
//!
//! **One value per group.** These are the same in every thread of a group
//! and at every read. A function that no defined function of the module
//! calls (a kernel) reads each one it uses once, at the top of its entry
//! block, where every thread is converged, from a *uniform* oracle
//! (`group_id.x`, `group_count.y`, ...) into a local (`convcheck.group_id.x`):
//! one value for the whole group, however often and wherever the kernel
//! reads it, so a pass that merges, hoists or duplicates the reads changes
//! nothing. A function that another defined function calls (a device
//! function not inlined) reads an *invariant* oracle instead: one value per
//! thread, which allows more scenarios than a GPU has (threads of one group
//! with different indices), never fewer.
//!
//! **Shapes.** The model numbers a group's `N` threads in one dimension
//! (DESIGN.md 2.9). A function that reads the thread index or the group
//! size in dimension y or z sees its group as a shape `Nx × Ny × Nz`, with
//! `Nx` and `Ny` per-group values like the above (`group_size.x`,
//! `group_size.y`, in `[1, 1024]`), and its threads numbered x fastest,
//! as CUDA, HIP and OpenCL number them: `tid = x + Nx·(y + Ny·z)`, so
//! `threadIdx.x = tid urem Nx`, `threadIdx.y = (tid udiv Nx) urem Ny`,
//! `threadIdx.z = tid udiv (Nx·Ny)`, `blockDim.x = Nx`, `blockDim.y = Ny`
//! and `blockDim.z = ⌈N / (Nx·Ny)⌉`, the fewest planes that hold the `N`
//! threads (when `Nx·Ny` does not divide `N` the last plane is partial:
//! the scenario's threads are the first `N` of the group). A warp is
//! consecutive linear indices. A function that reads only dimension x
//! keeps `threadIdx.x = tid` and `blockDim.x = N`.
//!
//! **Ranges.** A kernel that reads both a group index and the group count
//! of one dimension sees the index below the count (the index is the
//! oracle's value when it is below the count, else 0), as on every GPU.
//!
//! **Ranges of the values.** The values are those clang's and LLVM's `range` attributes
//! on the NVVM special registers state (`IntrinsicsNVVM.td`): the group
//! index in `[0, 2^31 - 1)` in x and `[0, 65535)` in y and z, the group
//! count in `[1, 2^31)` in x and `[1, 65536)` in y and z. The oracle's
//! value `o` is mapped into the range exactly ([`in_range`]), so that no
//! engine meets a scenario no GPU can
//! produce (a group index of `2^62`, which made IPSCCP's `zext nneg` look
//! like a change).
//!
//! **Stated facts.** A user who knows the launch states it
//! ([`GpuFacts`]: `--block-dim`, `--grid-dim`, `--warp-size`): the group's
//! shape is then those constants in every function (`threadIdx.x = tid urem
//! X` even in a function that reads only dimension x, since the group has
//! `X·Y·Z` threads), the group count is constant and the group index
//! ranges over `[0, count)`, and the lane index is `tid urem W`.
#![deny(unsafe_code)]

use convcheck_ir::{BinOp, Expr, Inst, InstKind, OpInfo, OpKind, OracleClass, UnOp};

use super::builtins::{classify, Builtin};
use super::func::FnMapper;
use super::values::bin;
use super::{plain, span_at};

/// Which per-group value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum GroupValue {
    /// The group's index (`ctaid`, `blockIdx`, `get_group_id`).
    Id,
    /// The number of groups (`nctaid`, `gridDim`, `get_num_groups`).
    Count,
    /// The group's size in x or y (`ntid`, `blockDim`, `get_local_size`)
    /// in a function that reads dimension y or z (below).
    Size,
}

const DIMS: [&str; 3] = ["x", "y", "z"];

/// What the user states about a launch (DESIGN.md 2.9, issue 21 item 5):
/// a GPU runs a kernel with one block shape, one grid shape and one warp
/// size, and a check that knows them meets only the scenarios of that
/// launch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GpuFacts {
    /// The group's shape `[x, y, z]` (CUDA's `blockDim`, OpenCL's local
    /// size): a group has `x·y·z` threads and the group size reads these
    /// constants.
    pub block: Option<[u32; 3]>,
    /// The group count `[x, y, z]` (CUDA's `gridDim`, OpenCL's number of
    /// groups): the count reads these constants and the group index in
    /// dimension `d` ranges over `[0, grid[d])`.
    pub grid: Option<[u32; 3]>,
    /// The warp (wave) size: the lane index (`%laneid`) is `tid urem W`
    /// and the warp size (`warpSize`, `llvm.amdgcn.wavefrontsize`) is `W`.
    pub warp: Option<u32>,
}

impl GpuFacts {
    /// The threads of a group with the stated shape, if one is stated.
    pub fn threads(&self) -> Option<u64> {
        self.block
            .map(|b| b.iter().map(|&d| u64::from(d)).product())
    }

    /// The stated constant for `w` in dimension `dim`, if any.
    fn constant(&self, w: GroupValue, dim: u8) -> Option<i64> {
        let d = usize::from(dim.min(2));
        match w {
            GroupValue::Size => self.block.map(|b| i64::from(b[d])),
            GroupValue::Count => self.grid.map(|g| i64::from(g[d])),
            GroupValue::Id => None,
        }
    }

    /// The values `w` takes in dimension `dim`: the stated grid bounds the
    /// group index.
    fn range(&self, w: GroupValue, dim: u8) -> (i64, i64) {
        match (w, self.grid) {
            (GroupValue::Id, Some(g)) => (0, i64::from(g[usize::from(dim.min(2))]).max(1)),
            _ => w.range(dim),
        }
    }
}

impl GroupValue {
    /// The oracle's name in dimension `dim` (0 to 2): `group_id.x`.
    pub fn oracle_name(self, dim: u8) -> String {
        let what = match self {
            GroupValue::Id => "group_id",
            GroupValue::Count => "group_count",
            GroupValue::Size => "group_size",
        };
        format!("{what}.{}", DIMS[usize::from(dim.min(2))])
    }

    /// The values it takes in dimension `dim`: `[lo, hi)`.
    pub fn range(self, dim: u8) -> (i64, i64) {
        match (self, dim) {
            (GroupValue::Id, 0) => (0, (1 << 31) - 1),
            (GroupValue::Id, _) => (0, 65535),
            (GroupValue::Count, 0) => (1, 1 << 31),
            (GroupValue::Count, _) => (1, 65536),
            (GroupValue::Size, 2) => (1, 65),
            (GroupValue::Size, _) => (1, 1025),
        }
    }
}

/// The most threads a group of `m`'s target has (DESIGN.md 2.9, issue 20
/// class f), what [`convcheck_ir::Module::max_group`] records: on NVPTX
/// 1024 (`%ntid.x` in `[1, 1024]`, and LLVM states `tid.x < 1024`:
/// opt-19's NVVMIntrRangePass puts `range(i32 0, 1024)` on the read,
/// opt-22's intrinsic carries it, and InstCombine folds with it); on
/// AMDGPU 1024 (opt-22's `llvm.amdgcn.workitem.id.x` is below 1024), or
/// the maximum `amdgpu-flat-work-group-size="min,max"` states (a launch
/// above it is undefined; one bound per module, the largest any defined
/// function allows). The target is the triple, or
/// where a module has none, the special-register intrinsics it declares
/// (their ranges are LLVM's whatever the triple). `None` elsewhere.
pub(crate) fn max_group(m: &crate::module::Module) -> Option<u32> {
    const MOST: u32 = 1024;
    let triple = m.triple.as_deref().unwrap_or("");
    let declares = |prefix: &str| {
        m.functions
            .iter()
            .any(|f| !f.is_definition && plain(&f.name).starts_with(prefix))
    };
    if triple.starts_with("nvptx") || (triple.is_empty() && declares("llvm.nvvm.read.ptx.sreg.")) {
        return Some(MOST);
    }
    if triple.starts_with("amdgcn") || (triple.is_empty() && declares("llvm.amdgcn.workitem.id.")) {
        // One bound per module: the largest any defined function allows
        // (a function that states nothing allows 1024).
        let allowed = m.defined_functions().map(|f| {
            super::conventions::str_attr(m, &f.attrs, "amdgpu-flat-work-group-size")
                .and_then(|v| v.split_once(','))
                .and_then(|(_, hi)| hi.trim().parse::<u32>().ok())
                .map_or(MOST, |hi| hi.clamp(1, MOST))
        });
        return Some(allowed.max().unwrap_or(MOST));
    }
    None
}

/// `e` mapped onto `[lo, hi)` exactly: `lo + (e urem n)` with
/// `n = hi - lo`. (A remainder rather than a mask and a test: the
/// checker's domain analysis does not follow a remainder, so the values it
/// tries for the oracle stay its own, while a mask would read as a
/// narrower view of the value and a test as cuts near `n`; the product
/// explores every value regardless.)
pub(crate) fn in_range(e: Expr, lo: i64, hi: i64) -> Expr {
    let n = (hi - lo).max(1);
    let v = bin(BinOp::URem, e, Expr::Const(n));
    if lo == 0 {
        v
    } else {
        bin(BinOp::Add, v, Expr::Const(lo))
    }
}

/// The local a kernel reads a per-group value into.
fn local(w: GroupValue, dim: u8) -> String {
    format!("convcheck.{}", w.oracle_name(dim))
}

impl FnMapper<'_> {
    /// Whether a defined function of the module calls this one.
    fn is_called(&self) -> bool {
        self.ctx.m.defined_functions().any(|g| {
            g.calls()
                .any(|(_, c)| c.callee.as_global().is_some_and(|n| *n == self.f.name))
        })
    }

    /// Whether the function reads the thread index or the group size in
    /// dimension y or z (then its groups have a shape, below).
    pub fn is_3d(&self) -> bool {
        self.f.calls().any(|(_, c)| {
            let Some(name) = c.callee.as_global() else {
                return false;
            };
            let dim = c.args.first().and_then(|a| a.value.as_int());
            let defined = self.ctx.m.function_by_name(name);
            !defined.is_some_and(|d| d.is_definition)
                && matches!(
                    classify(&plain(name), dim),
                    Some(Builtin::ThreadIn(_) | Builtin::SizeIn(_))
                )
        })
    }

    /// The thread index in dimension `dim`: `tid` in a one-dimensional
    /// function, else from the group's shape.
    pub fn thread_in(&mut self, dim: u8, line: u32) -> Expr {
        if let Some([_, 1, 1]) = self.ctx.opts.gpu.block {
            return if dim == 0 { Expr::Tid } else { Expr::Const(0) };
        }
        if !self.is_3d() && self.ctx.opts.gpu.block.is_none() {
            return Expr::Tid;
        }
        // The operands of the remainders and quotients as the 32-bit
        // values they are (a thread index and a group size are below
        // 2^32): the same values, which the product divides on 32 bits
        // (`convcheck_smt`'s `bv::narrow_division`).
        let w = |e: Expr| Expr::Unary(UnOp::ZExt(32), Box::new(e));
        let nx = w(self.group_value(GroupValue::Size, 0, line));
        let ny = w(self.group_value(GroupValue::Size, 1, line));
        match dim {
            0 => bin(BinOp::URem, w(Expr::Tid), nx),
            1 => bin(BinOp::URem, bin(BinOp::UDiv, w(Expr::Tid), nx), ny),
            _ => bin(BinOp::UDiv, Expr::Tid, bin(BinOp::Mul, nx, ny)),
        }
    }

    /// The group size in dimension `dim`: `N` in a one-dimensional
    /// function, else the shape's (z: the fewest planes that hold `N`).
    pub fn size_in(&mut self, dim: u8, line: u32) -> Expr {
        if let Some(c) = self.ctx.opts.gpu.constant(GroupValue::Size, dim) {
            return Expr::Const(c);
        }
        if !self.is_3d() {
            return Expr::GroupSize;
        }
        match dim {
            0 | 1 => self.group_value(GroupValue::Size, dim, line),
            _ => {
                let nx = self.group_value(GroupValue::Size, 0, line);
                let ny = self.group_value(GroupValue::Size, 1, line);
                let plane = bin(BinOp::Mul, nx, ny);
                let up = bin(
                    BinOp::Sub,
                    bin(BinOp::Add, Expr::GroupSize, plane.clone()),
                    Expr::Const(1),
                );
                bin(BinOp::UDiv, up, plane)
            }
        }
    }

    /// The warp size `W` where `name` reads it (or the lane index): what
    /// the user states, else 32 on NVPTX (PTX's `WARP_SZ`), else the AMDGPU
    /// function's `+wavefrontsize32` or `+wavefrontsize64` target feature;
    /// without any of these the function is outside the model (a wave of
    /// 32 or 64 threads changes which threads share a lane mask).
    pub fn warp_size(&self, name: &str, line: u32) -> super::R<i64> {
        if let Some(w) = self.ctx.opts.gpu.warp {
            return Ok(i64::from(w));
        }
        let triple = self.ctx.m.triple.as_deref().unwrap_or("");
        if triple.starts_with("nvptx") || name.starts_with("llvm.nvvm.") {
            return Ok(32);
        }
        let features = super::conventions::str_attr(self.ctx.m, &self.f.attrs, "target-features")
            .unwrap_or("");
        // The last mention wins, as in LLVM's feature strings.
        let stated = features.split(',').rev().find_map(|f| match f {
            "+wavefrontsize32" | "-wavefrontsize64" => Some(32),
            "+wavefrontsize64" | "-wavefrontsize32" => Some(64),
            _ => None,
        });
        match stated {
            Some(w) => Ok(w),
            None => super::unsup(
                format!(
                    "the wave size ({name}) of a function whose target features do not state \
                     it (give --warp-size)"
                ),
                line,
            ),
        }
    }

    /// The per-group values this function reads, in a fixed order.
    fn group_values(&self) -> Vec<(GroupValue, u8)> {
        let mut out = std::collections::BTreeSet::new();
        if self.is_3d() {
            out.insert((GroupValue::Size, 0));
            out.insert((GroupValue::Size, 1));
        }
        for (_, c) in self.f.calls() {
            let Some(name) = c.callee.as_global() else {
                continue;
            };
            let defined = self.ctx.m.function_by_name(name);
            if defined.is_some_and(|d| d.is_definition) {
                continue;
            }
            let dim = c.args.first().and_then(|a| a.value.as_int());
            match classify(&plain(name), dim) {
                Some(Builtin::PerGroup(w, d)) => {
                    out.insert((w, d));
                }
                Some(Builtin::GlobalId) => {
                    out.insert((GroupValue::Id, 0));
                }
                Some(Builtin::GlobalSize) => {
                    out.insert((GroupValue::Count, 0));
                }
                _ => {}
            }
        }
        let gpu = self.ctx.opts.gpu;
        out.into_iter()
            .filter(|&(w, d)| gpu.constant(w, d).is_none())
            .collect()
    }

    /// The reads a kernel makes at the top of its entry block, one per
    /// per-group value it uses (nothing for a called function).
    pub fn group_prelude(&mut self) -> Vec<Inst> {
        let values = self.group_values();
        if values.is_empty() || self.is_called() {
            return Vec::new();
        }
        let span = span_at(self.f.span.line, self.f.span.col);
        let mut out = Vec::new();
        // The counts first: a group's index is below the count in its
        // dimension (`blockIdx.x < gridDim.x` on every GPU), so an index
        // whose count the kernel also reads is taken modulo it.
        let counted: Vec<u8> = values
            .iter()
            .filter(|(w, _)| *w == GroupValue::Count)
            .map(|&(_, d)| d)
            .collect();
        let mut values = values;
        values.sort_by_key(|&(w, d)| (w != GroupValue::Count, w, d));
        for (w, dim) in values {
            let o = self
                .t
                .oracle(&w.oracle_name(dim), OracleClass::Uniform, span);
            let (lo, hi) = self.ctx.opts.gpu.range(w, dim);
            let sid = self.t.op(OpInfo {
                label: w.oracle_name(dim),
                span,
                kind: OpKind::Stmt,
                func: self.fid,
                memory_none: false,
            });
            let set = |value: Expr| Inst {
                kind: InstKind::SetLocal {
                    name: local(w, dim),
                    value: Some(value),
                },
                sid,
                token: None,
            };
            if w == GroupValue::Id && counted.contains(&dim) {
                // Below the count, which is itself within the index's
                // range: the oracle's value (read once) when it is below,
                // else 0. A comparison rather than a remainder: z3 decides
                // it at once where a 64-bit remainder by a variable stalls.
                let id = Expr::Var(local(w, dim));
                let count = Expr::Var(local(GroupValue::Count, dim));
                out.push(set(Expr::Oracle(o)));
                out.push(set(Expr::Select(
                    Box::new(bin(BinOp::ULt, id.clone(), count)),
                    Box::new(id),
                    Box::new(Expr::Const(0)),
                )));
            } else {
                out.push(set(in_range(Expr::Oracle(o), lo, hi)));
            }
        }
        out
    }

    /// The value of a per-group value where the function reads it: the
    /// kernel's local, or in a called function an invariant oracle.
    pub fn group_value(&mut self, w: GroupValue, dim: u8, line: u32) -> Expr {
        if let Some(c) = self.ctx.opts.gpu.constant(w, dim) {
            return Expr::Const(c);
        }
        if !self.is_called() {
            return Expr::Var(local(w, dim));
        }
        let o = self.t.oracle(
            &w.oracle_name(dim),
            OracleClass::Invariant,
            span_at(line, 1),
        );
        let (lo, hi) = self.ctx.opts.gpu.range(w, dim);
        in_range(Expr::Oracle(o), lo, hi)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::to_ir::intrinsics::tests::eval;

    /// Every 64-bit value lands in the range, and the small ones are kept.
    #[test]
    fn ranges_are_exact() {
        for w in [GroupValue::Id, GroupValue::Count] {
            for dim in 0..3 {
                let (lo, hi) = w.range(dim);
                for v in [
                    0,
                    1,
                    2,
                    65534,
                    65535,
                    1 << 31,
                    (1 << 31) - 2,
                    1 << 62,
                    -1,
                    i64::MIN,
                ] {
                    let r = eval(&in_range(Expr::Const(v), lo, hi));
                    assert!((lo..hi).contains(&r), "{w:?} {dim} {v} -> {r}");
                }
                assert_eq!(eval(&in_range(Expr::Const(0), lo, hi)), lo);
                assert_eq!(eval(&in_range(Expr::Const(1), lo, hi)), lo + 1);
                assert_eq!(eval(&in_range(Expr::Const(hi - lo - 1), lo, hi)), hi - 1);
            }
        }
    }
}
