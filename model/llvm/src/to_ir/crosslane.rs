//! Cross-lane intrinsics that LLVM makes `convergent` by their definition
//! (`IntrConvergent` in `IntrinsicsNVVM.td` and `IntrinsicsAMDGPU.td`),
//! whatever their declaration in a module says (issue 21 item 1).
//!
//! LLVM gives an intrinsic the attributes of its definition, not those of
//! the `declare` line, so LLVM's own tests and hand-written modules often
//! declare `@llvm.amdgcn.ds.swizzle` or `@llvm.nvvm.vote.uni.sync` with no
//! attributes at all, while opt prints them back with `convergent` (and,
//! for AMDGPU's, `memory(none)`). [`convergent`] names those operations,
//! so that such a call is the convergent operation it is in LLVM (a
//! warp or wave operation whose arguments are observed) instead of an
//! intrinsic outside the model; [`memory_none`] those of them that LLVM
//! defines as accessing no memory (`IntrNoMem`), so that the reference
//! and opt's output agree on them (`convcheck_ir::exec::observe::
//! memory_none_everywhere`). NVVM's warp operations access inaccessible
//! memory (`IntrInaccessibleMemOnly`): their order against loads and
//! stores stays observed, as it is for clang's declarations of them.
//!
//! Only operations whose definitions we have read are listed: an
//! intrinsic listed here that LLVM did not define as convergent would
//! make moves LLVM allows look like violations.
#![deny(unsafe_code)]

/// NVVM's warp operations (prefixes): `shfl.sync` up, down, bfly and idx,
/// `vote` any, all, uni and ballot, `match` any and all, `activemask`,
/// `redux.sync`, and `bar.warp.sync` (`__syncwarp(mask)`: `IntrConvergent`
/// with no memory restriction, so its order against every load and store
/// is observed, and its mask is an observed argument; the lanes it
/// synchronizes are not used to order memory between threads, so a race
/// it would prevent between lanes of one warp is still reported, as for the
/// CUDA prelude's `__syncwarp`).
const NVVM: [&str; 6] = [
    "llvm.nvvm.shfl.sync.",
    "llvm.nvvm.vote.",
    "llvm.nvvm.match.",
    "llvm.nvvm.activemask",
    "llvm.nvvm.redux.sync.",
    "llvm.nvvm.bar.warp.sync",
];

/// AMDGPU's wave operations (names, or prefixes ending in `.`), all
/// `IntrNoMem`.
const AMDGPU: [&str; 17] = [
    "llvm.amdgcn.readfirstlane",
    "llvm.amdgcn.readlane",
    "llvm.amdgcn.writelane",
    "llvm.amdgcn.ballot",
    "llvm.amdgcn.inverse.ballot",
    "llvm.amdgcn.icmp",
    "llvm.amdgcn.fcmp",
    "llvm.amdgcn.ds.swizzle",
    "llvm.amdgcn.ds.bpermute",
    "llvm.amdgcn.ds.permute",
    "llvm.amdgcn.mov.dpp",
    "llvm.amdgcn.mov.dpp8",
    "llvm.amdgcn.update.dpp",
    "llvm.amdgcn.permlane16",
    "llvm.amdgcn.permlanex16",
    "llvm.amdgcn.permlane64",
    "llvm.amdgcn.wave.reduce.",
];

/// Whether `entry` names intrinsic `name`: the name itself or one of its
/// overloads (`llvm.amdgcn.readlane.i32`), or, for an entry ending in
/// `.`, any name it starts.
fn names(entry: &str, name: &str) -> bool {
    if entry.ends_with('.') {
        return name.starts_with(entry);
    }
    name == entry
        || name
            .strip_prefix(entry)
            .is_some_and(|rest| rest.starts_with('.'))
}

/// Whether LLVM defines intrinsic `name` as convergent (see the module
/// documentation).
pub(crate) fn convergent(name: &str) -> bool {
    NVVM.iter().chain(AMDGPU.iter()).any(|e| names(e, name))
}

/// Whether LLVM defines intrinsic `name` as a convergent operation that
/// accesses no memory.
pub(crate) fn memory_none(name: &str) -> bool {
    AMDGPU.iter().any(|e| names(e, name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overloads_are_named_and_neighbours_are_not() {
        for n in [
            "llvm.nvvm.shfl.sync.down.i32",
            "llvm.nvvm.vote.uni.sync",
            "llvm.nvvm.match.any.sync.i64",
            "llvm.nvvm.activemask",
            "llvm.nvvm.bar.warp.sync",
            "llvm.amdgcn.readlane",
            "llvm.amdgcn.readlane.i32",
            "llvm.amdgcn.ds.swizzle",
            "llvm.amdgcn.update.dpp.i32",
            "llvm.amdgcn.mov.dpp.i32",
            "llvm.amdgcn.mov.dpp8.i32",
            "llvm.amdgcn.permlanex16.i32",
            "llvm.amdgcn.wave.reduce.umax.i32",
        ] {
            assert!(convergent(n), "{n}");
        }
        for n in [
            "llvm.nvvm.read.ptx.sreg.tid.x",
            "llvm.nvvm.read.ptx.sreg.laneid",
            "llvm.nvvm.barrier.sync.cnt",
            "llvm.amdgcn.readlanes",
            "llvm.amdgcn.mbcnt.lo",
            "llvm.amdgcn.workitem.id.x",
            "llvm.ctpop.i32",
        ] {
            assert!(!convergent(n), "{n}");
        }
        assert!(memory_none("llvm.amdgcn.ds.swizzle"));
        assert!(!memory_none("llvm.nvvm.vote.ballot.sync"));
    }
}
