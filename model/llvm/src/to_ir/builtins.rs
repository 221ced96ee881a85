//! The functions convcheck knows by name: GPU builtins and intrinsics.
//!
//! CUDA reaches the work-item builtins through NVVM intrinsics
//! (`llvm.nvvm.read.ptx.sreg.tid.x`), HIP and OpenCL on AMDGPU through
//! AMDGPU intrinsics or the device library (`llvm.amdgcn.workitem.id.x`,
//! `__ockl_get_local_id`), and OpenCL C through overloaded builtins that
//! clang mangles (`_Z12get_local_idj`), so those are recognised by their
//! demangled base name ([`demangled_base`]). What each becomes:
//!
//! - thread index in dimension x: [`Builtin::Tid`]; group size in x:
//!   [`Builtin::GroupSize`]; the group's index and the group count in
//!   every dimension: one value per group ([`super::groups`]); the global
//!   index in x: `group_id.x · N + tid` (no global offset); the global
//!   size in x: `N · group_count.x`. The thread index and group size in
//!   dimensions y and z: [`Builtin::ThreadIn`], [`Builtin::SizeIn`], from
//!   the group's shape ([`super::groups`]).
//! - the lane index (`llvm.nvvm.read.ptx.sreg.laneid`): [`Builtin::LaneId`],
//!   the linear thread index modulo the warp size; the warp size
//!   (`llvm.nvvm.read.ptx.sreg.warpsize`, `llvm.amdgcn.wavefrontsize`):
//!   [`Builtin::WarpSize`], 32 on NVPTX, on AMDGPU the function's
//!   `+wavefrontsize32`/`+wavefrontsize64` target feature, else what the
//!   user states (`--warp-size`), else outside the model.
//! - barriers: `llvm.nvvm.barrier0`, `llvm.nvvm.barrier.sync`,
//!   `llvm.nvvm.bar.sync`, `llvm.amdgcn.s.barrier` (gfx12's split
//!   barrier, `llvm.amdgcn.s.barrier.signal` and `.wait`, is outside the
//!   model), `__syncthreads`,
//!   barrier 0 of `llvm.nvvm.barrier.n` and of LLVM 21's
//!   `llvm.nvvm.barrier.cta.sync.aligned.all` / `.cta.sync.all`
//!   ([`numbered_barrier`]; partial and named barriers are outside the
//!   model),
//!   OpenCL's `barrier` and `work_group_barrier`, SPIR-V's
//!   `__spirv_ControlBarrier`; the data-carrying `llvm.nvvm.barrier0.popc`,
//!   `.and`, `.or` (and `__syncthreads_count`, `_and`, `_or`).
//! - fences: `llvm.nvvm.membar.*`, `__threadfence*`, OpenCL's `mem_fence`,
//!   `read_mem_fence`, `write_mem_fence`, `atomic_work_item_fence` (and the
//!   `fence` instruction).
//! - dropped, having no effect the model sees: `llvm.lifetime.*`,
//!   `llvm.dbg.*`, `llvm.assume`, `llvm.experimental.noalias.scope.decl`,
//!   `llvm.donothing`, `llvm.sideeffect`, `llvm.var.annotation`.
//! - computed: `llvm.smin`, `llvm.smax`, `llvm.umin`, `llvm.umax`,
//!   `llvm.abs`, `llvm.expect`, and the bit-manipulation and saturating
//!   intrinsics of [`super::intrinsics`] (`llvm.ctpop`, `ctlz`, `cttz`,
//!   `bswap`, `bitreverse`, `fshl`, `fshr`, `{u,s}{add,sub}.sat`, NVVM's
//!   `popc`, `clz`, `brev`): exact expressions.
//! - `convcheck.tid`, `convcheck.group_size` and `oracle.NAME`: what
//!   [`crate::write`] prints for `tid`, `N` and oracle reads.
//!
//! Any other intrinsic is outside the model unless it is `convergent` (the
//! cross-lane operations: ballots, shuffles, `readfirstlane`), which makes
//! it a convergent operation like any convergent external function.
#![deny(unsafe_code)]

use convcheck_ir::{BarrierKind, TokenKind};

use super::groups::GroupValue;

/// A known function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Builtin {
    /// A convergence-control intrinsic.
    Token(TokenKind),
    /// No effect the model sees.
    Drop,
    /// The thread's index in its group.
    Tid,
    /// The group size.
    GroupSize,
    /// The global index: `group_id.x · N + tid`.
    GlobalId,
    /// A barrier.
    Barrier(BarrierKind),
    /// A memory fence.
    Fence,
    /// `llvm.smin` and friends: the operator comparing the operands, and
    /// whether the result is the first operand when it holds.
    MinMax { signed: bool, less: bool },
    /// `llvm.abs`
    Abs,
    /// `llvm.expect`: the first argument.
    Expect,
    /// An oracle read written by [`crate::write`]: `oracle.NAME`.
    Oracle(String),
    /// Outside the model, with the construct's name.
    Unsupported(String),
    /// An integer intrinsic computed exactly ([`super::intrinsics`]).
    Int(super::intrinsics::IntOp),
    /// A per-group value in dimension 0, 1 or 2 ([`super::groups`]).
    PerGroup(GroupValue, u8),
    /// The global size in x: `N · group_count.x`.
    GlobalSize,
    /// The thread index in dimension 1 or 2 ([`super::groups`]).
    ThreadIn(u8),
    /// The group size in dimension 1 or 2 ([`super::groups`]).
    SizeIn(u8),
    /// The lane index within the warp (`%laneid`): `tid urem W`.
    LaneId,
    /// The warp (wave) size `W` (`warpSize`, `llvm.amdgcn.wavefrontsize`).
    WarpSize,
}

/// The base name of a simple Itanium-mangled name: `_Z12get_local_idj` is
/// `get_local_id`, `_ZL5tid_xv` is `tid_x`. Nested names (`_ZN...`) and
/// anything else give `None`.
pub fn demangled_base(name: &str) -> Option<&str> {
    let rest = name.strip_prefix("_Z")?;
    let rest = rest.strip_prefix('L').unwrap_or(rest);
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 4 {
        return None;
    }
    let len: usize = rest[..digits].parse().ok()?;
    let body = &rest[digits..];
    let base = body.get(..len)?;
    (!base.is_empty() && base.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_'))
        .then_some(base)
}

/// The dimension argument of an OpenCL work-item builtin, when constant.
pub(crate) type Dim = Option<i128>;

/// What the function called `name` is, given its first argument when it is
/// a constant (the dimension of the OpenCL work-item builtins). `None`
/// for a function convcheck does not know by name.
pub(crate) fn classify(name: &str, dim: Dim) -> Option<Builtin> {
    use Builtin::*;
    if let Some(rest) = name.strip_prefix("oracle.") {
        return Some(Oracle(rest.to_string()));
    }
    match name {
        "convcheck.tid" => return Some(Tid),
        "convcheck.group_size" => return Some(GroupSize),
        "llvm.experimental.convergence.entry" => return Some(Token(TokenKind::Entry)),
        "llvm.experimental.convergence.loop" => return Some(Token(TokenKind::Loop)),
        "llvm.experimental.convergence.anchor" => return Some(Token(TokenKind::Anchor)),
        _ => {}
    }
    if let Some(sreg) = name.strip_prefix("llvm.nvvm.read.ptx.sreg.") {
        return Some(nvvm_sreg(sreg, name));
    }
    if let Some(id) = name.strip_prefix("llvm.amdgcn.workitem.id.") {
        return Some(by_dim_letter(id, Tid, ThreadIn, "thread index", name));
    }
    if name == "llvm.amdgcn.wavefrontsize" {
        return Some(WarpSize);
    }
    if let Some(id) = name.strip_prefix("llvm.amdgcn.workgroup.id.") {
        return Some(per_group(id, GroupValue::Id, name));
    }
    if let Some(b) = barrier_or_fence(name) {
        return Some(b);
    }
    if let Some(b) = numbered_barrier(name, dim) {
        return Some(b);
    }
    if is_dropped(name) {
        return Some(Drop);
    }
    if let Some(b) = value_intrinsic(name) {
        return Some(b);
    }
    let base = demangled_base(name).unwrap_or(name);
    let by_dim = |what: Builtin, desc: &str| match (dim, &what) {
        (Some(0), _) => what,
        (Some(d @ 1..=2), Tid) => ThreadIn(d as u8),
        (Some(d @ 1..=2), GroupSize) => SizeIn(d as u8),
        (Some(d), _) => Unsupported(format!("the {desc} in dimension {d} ({name})")),
        (None, _) => Unsupported(format!(
            "the {desc} in a dimension not known statically ({name})"
        )),
    };
    match base {
        "get_local_id" | "__ockl_get_local_id" => Some(by_dim(Tid, "thread index")),
        "get_local_size" | "__ockl_get_local_size" => Some(by_dim(GroupSize, "group size")),
        "get_group_id" | "__ockl_get_group_id" => Some(group_by_dim(GroupValue::Id, dim, name)),
        "get_num_groups" | "__ockl_get_num_groups" => {
            Some(group_by_dim(GroupValue::Count, dim, name))
        }
        "get_global_id" | "__ockl_get_global_id" => Some(by_dim(GlobalId, "global index")),
        "get_global_size" | "__ockl_get_global_size" => Some(by_dim(GlobalSize, "global size")),
        "barrier" | "work_group_barrier" | "__spirv_ControlBarrier" => {
            Some(Barrier(BarrierKind::Plain))
        }
        "mem_fence" | "read_mem_fence" | "write_mem_fence" | "atomic_work_item_fence" => {
            Some(Fence)
        }
        _ => None,
    }
}

fn nvvm_sreg(sreg: &str, name: &str) -> Builtin {
    use Builtin::*;
    if let Some(d) = sreg.strip_prefix("tid.") {
        by_dim_letter(d, Tid, ThreadIn, "thread index", name)
    } else if let Some(d) = sreg.strip_prefix("ntid.") {
        by_dim_letter(d, GroupSize, SizeIn, "group size", name)
    } else if let Some(d) = sreg.strip_prefix("ctaid.") {
        per_group(d, GroupValue::Id, name)
    } else if let Some(d) = sreg.strip_prefix("nctaid.") {
        per_group(d, GroupValue::Count, name)
    } else if sreg == "laneid" {
        LaneId
    } else if sreg == "warpsize" {
        WarpSize
    } else {
        Unsupported(format!("the special register {name}"))
    }
}

/// A per-group value in the dimension named by a letter.
fn per_group(d: &str, w: GroupValue, name: &str) -> Builtin {
    match d {
        "x" => Builtin::PerGroup(w, 0),
        "y" => Builtin::PerGroup(w, 1),
        "z" => Builtin::PerGroup(w, 2),
        _ => Builtin::Unsupported(format!("the special register {name}")),
    }
}

/// A per-group value of an OpenCL builtin, in a dimension given by its
/// constant argument.
fn group_by_dim(w: GroupValue, dim: Dim, name: &str) -> Builtin {
    match dim {
        Some(d @ 0..=2) => Builtin::PerGroup(w, d as u8),
        // OpenCL: a dimension past the last gives 0 (get_group_id) or 1.
        Some(_) => Builtin::Unsupported(format!("a dimension past z ({name})")),
        None => Builtin::Unsupported(format!(
            "a per-group value in a dimension not known statically ({name})"
        )),
    }
}

/// `what` in dimension x, `other(1)` and `other(2)` in y and z.
fn by_dim_letter(
    d: &str,
    what: Builtin,
    other: fn(u8) -> Builtin,
    desc: &str,
    name: &str,
) -> Builtin {
    match d {
        "x" => what,
        "y" => other(1),
        "z" => other(2),
        _ => Builtin::Unsupported(format!("the {desc} in dimension {d} ({name})")),
    }
}

fn barrier_or_fence(name: &str) -> Option<Builtin> {
    use Builtin::*;
    // gfx12's split barrier (`llvm.amdgcn.s.barrier.signal`, `.wait`,
    // `.signal.isfirst`, `.signal.var`, `.init`, `.join`, `.leave`, ...):
    // a thread's accesses between its signal and its wait may run beside
    // another thread's accesses after that thread's wait, so neither call
    // alone is the model's barrier, and as a plain convergent operation
    // the pair would leave the reference racing and so excuse a target's
    // race. Outside the model until the pair is modelled.
    if name.starts_with("llvm.amdgcn.s.barrier.") {
        return Some(Unsupported(format!("gfx12's split barrier ({name})")));
    }
    Some(match name {
        "llvm.nvvm.barrier0"
        | "llvm.nvvm.barrier.sync"
        | "llvm.nvvm.bar.sync"
        | "llvm.amdgcn.s.barrier"
        | "__syncthreads" => Barrier(BarrierKind::Plain),
        "llvm.nvvm.barrier0.popc" | "__syncthreads_count" => Barrier(BarrierKind::Count),
        "llvm.nvvm.barrier0.and" | "__syncthreads_and" => Barrier(BarrierKind::And),
        "llvm.nvvm.barrier0.or" | "__syncthreads_or" => Barrier(BarrierKind::Or),
        // `bar.warp.sync` (`__syncwarp(mask)`) is a warp operation
        // (`crosslane`), as the CUDA prelude's `__syncwarp` is.
        "llvm.nvvm.barrier.sync.cnt" => Unsupported(format!("a partial barrier ({name})")),
        "llvm.nvvm.membar.cta"
        | "llvm.nvvm.membar.gl"
        | "llvm.nvvm.membar.sys"
        | "__threadfence"
        | "__threadfence_block"
        | "__threadfence_system" => Fence,
        _ => return None,
    })
}

/// NVVM's block barriers that take a barrier number: `llvm.nvvm.barrier.n`
/// (LLVM 19) and LLVM 21's names for `bar.sync`,
/// `llvm.nvvm.barrier.cta.sync.aligned.all` and
/// `llvm.nvvm.barrier.cta.sync.all` (opt-22 reads `llvm.nvvm.barrier0` as
/// the first, with number 0). Barrier 0, the one `__syncthreads` uses, is
/// the model's barrier; another number is a named barrier, outside the
/// model, and so are the partial barriers over a thread count
/// (`.count`, as `llvm.nvvm.barrier.sync.cnt`).
fn numbered_barrier(name: &str, number: Dim) -> Option<Builtin> {
    use Builtin::*;
    Some(match name {
        "llvm.nvvm.barrier.n"
        | "llvm.nvvm.barrier.cta.sync.aligned.all"
        | "llvm.nvvm.barrier.cta.sync.all" => match number {
            Some(0) => Barrier(BarrierKind::Plain),
            _ => Unsupported(format!("a named barrier other than barrier 0 ({name})")),
        },
        "llvm.nvvm.barrier"
        | "llvm.nvvm.barrier.cta.sync.aligned.count"
        | "llvm.nvvm.barrier.cta.sync.count" => Unsupported(format!("a partial barrier ({name})")),
        _ => return None,
    })
}

fn is_dropped(name: &str) -> bool {
    [
        "llvm.lifetime.",
        "llvm.dbg.",
        "llvm.experimental.noalias.scope.decl",
        "llvm.var.annotation",
    ]
    .iter()
    .any(|p| name.starts_with(p))
        || matches!(name, "llvm.assume" | "llvm.donothing" | "llvm.sideeffect")
}

fn value_intrinsic(name: &str) -> Option<Builtin> {
    use Builtin::*;
    let stem = name.rsplit_once(".i").map_or(name, |(s, w)| {
        if w.bytes().all(|c| c.is_ascii_digit()) && !w.is_empty() {
            s
        } else {
            name
        }
    });
    Some(match stem {
        "llvm.smin" => MinMax {
            signed: true,
            less: true,
        },
        "llvm.smax" => MinMax {
            signed: true,
            less: false,
        },
        "llvm.umin" => MinMax {
            signed: false,
            less: true,
        },
        "llvm.umax" => MinMax {
            signed: false,
            less: false,
        },
        "llvm.abs" => Abs,
        "llvm.expect" => Expect,
        _ => return super::intrinsics::int_op(stem).map(Int),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn demangling_takes_the_base_name() {
        assert_eq!(demangled_base("_Z12get_local_idj"), Some("get_local_id"));
        assert_eq!(demangled_base("_ZL5tid_xv"), Some("tid_x"));
        assert_eq!(
            demangled_base("_Z20sub_group_reduce_addi"),
            Some("sub_group_reduce_add")
        );
        assert_eq!(demangled_base("_ZN3foo3barEv"), None);
        assert_eq!(demangled_base("_Z99x"), None);
        assert_eq!(demangled_base("op"), None);
    }

    #[test]
    fn the_split_barrier_is_outside_the_model() {
        for name in [
            "llvm.amdgcn.s.barrier.signal",
            "llvm.amdgcn.s.barrier.wait",
            "llvm.amdgcn.s.barrier.signal.isfirst",
        ] {
            assert!(
                matches!(classify(name, None), Some(Builtin::Unsupported(_))),
                "{name}"
            );
        }
        assert_eq!(
            classify("llvm.amdgcn.s.barrier", None),
            Some(Builtin::Barrier(BarrierKind::Plain))
        );
    }

    #[test]
    fn work_item_builtins_by_dimension() {
        assert_eq!(classify("_Z12get_local_idj", Some(0)), Some(Builtin::Tid));
        assert_eq!(
            classify("_Z12get_local_idj", Some(1)),
            Some(Builtin::ThreadIn(1))
        );
        assert!(matches!(
            classify("_Z12get_local_idj", Some(3)),
            Some(Builtin::Unsupported(_))
        ));
        assert!(matches!(
            classify("_Z12get_local_idj", None),
            Some(Builtin::Unsupported(_))
        ));
        assert_eq!(
            classify("llvm.nvvm.read.ptx.sreg.ntid.x", None),
            Some(Builtin::GroupSize)
        );
        assert_eq!(
            classify("llvm.amdgcn.workitem.id.y", None),
            Some(Builtin::ThreadIn(1))
        );
        assert_eq!(
            classify("llvm.nvvm.read.ptx.sreg.ntid.z", None),
            Some(Builtin::SizeIn(2))
        );
        assert_eq!(
            classify("llvm.nvvm.read.ptx.sreg.nctaid.y", None),
            Some(Builtin::PerGroup(GroupValue::Count, 1))
        );
        assert_eq!(
            classify("llvm.umin.i32", None),
            Some(Builtin::MinMax {
                signed: false,
                less: true
            })
        );
        assert_eq!(classify("op", None), None);
        assert_eq!(
            classify("_Z7barrierj", Some(1)),
            Some(Builtin::Barrier(BarrierKind::Plain))
        );
    }
}
