//! Where an alloca's address may be captured (issue 20; review F5).
//!
//! An alloca's address is *captured* where a pointer based on it (through
//! `getelementptr`, pointer casts, phis and selects) is stored as a value,
//! passed to a call that may capture it (not `nocapture` or
//! `captures(none)`, not `llvm.memcpy`/`memmove`/`memset`/`lifetime`),
//! converted to an integer, returned, or used by anything else but a
//! load's or store's address or a comparison ([`captures`]). A call that
//! may access any memory may access the alloca only where one of its
//! captures may have run before it: a capture earlier in the call's block,
//! or in a block from which the call's block is reachable (so a capture
//! later in the call's block counts where the block is in a cycle)
//! ([`FnMapper::captured_at`]). GVN's forward of a slot's value across a
//! call before the slot's capture is then no alarm
//! (`c-private-slot-forwarded-before-its-capture-gvn`); before, capture was
//! flow-insensitive (a capture anywhere in the function).
#![deny(unsafe_code)]

use std::collections::{HashMap, HashSet};

use super::func::FnMapper;
use super::{unsup, R};
use crate::inst::{CastOp, InstKind as K, Instruction};
use crate::module::{Function, Module};
use crate::value::{Name, TypedValue, Value};

/// Each pointer of `f` based on an alloca (through `getelementptr`,
/// pointer casts, phis and selects), with the allocas it may be based on.
pub(crate) fn based_on<'f>(f: &'f Function) -> HashMap<&'f Name, Vec<&'f Name>> {
    let mut based: HashMap<&Name, Vec<&Name>> = HashMap::new();
    for (_, inst) in f.instructions() {
        if let (Some(r), K::Alloca(_)) = (&inst.result, &inst.kind) {
            based.insert(r, vec![r]);
        }
    }
    let derived_from = |k: &'f K| -> Vec<&'f Value> {
        match k {
            K::GetElementPtr(g) => vec![&g.base.value],
            K::Cast(c) if matches!(c.op, CastOp::BitCast | CastOp::AddrSpaceCast) => {
                vec![&c.value.value]
            }
            K::Phi(p) => p.incoming.iter().map(|(v, _)| v).collect(),
            K::Select(s) => vec![&s.if_true.value, &s.if_false.value],
            _ => Vec::new(),
        }
    };
    loop {
        let mut changed = false;
        for (_, inst) in f.instructions() {
            let Some(r) = &inst.result else { continue };
            let mut roots: Vec<&Name> = Vec::new();
            for v in derived_from(&inst.kind) {
                if let Value::Local(n) = v {
                    if let Some(rs) = based.get(n) {
                        roots.extend(rs.iter().copied());
                    }
                }
            }
            if roots.is_empty() {
                continue;
            }
            let entry = based.entry(r).or_default();
            for x in roots {
                if !entry.contains(&x) {
                    entry.push(x);
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    based
}

/// The allocas of `f` whose address may be captured: a pointer based on
/// one (through `getelementptr`, pointer casts, phis and selects) is
/// stored as a value, passed to a call that may capture it, converted to
/// an integer, returned, or used by anything but a load's or store's
/// address, a comparison and the derivations above; each with the
/// instructions that may capture it.
pub(crate) fn captures<'f>(f: &'f Function, m: &Module) -> Vec<(&'f Name, &'f Instruction)> {
    let based = based_on(f);
    let mut captured: Vec<(&Name, &Instruction)> = Vec::new();
    for (_, inst) in f.instructions() {
        let mut capturing: Vec<&Value> = Vec::new();
        match &inst.kind {
            K::GetElementPtr(g) => capturing.extend(g.indices.iter().map(|i| &i.value)),
            K::Cast(c) if matches!(c.op, CastOp::BitCast | CastOp::AddrSpaceCast) => {}
            K::Phi(_) => {}
            K::Select(s) => capturing.push(&s.cond.value),
            K::ICmp(_) => {}
            K::Load(_) => {}
            K::Store(st) => capturing.push(&st.value.value),
            K::Call(c) => {
                capturing.push(&c.callee);
                for (i, a) in c.args.iter().enumerate() {
                    if !super::effects::not_captured(c, i, m) {
                        capturing.push(&a.value);
                    }
                }
                for b in &c.bundles {
                    capturing.extend(b.inputs.iter().map(|i| &i.value));
                }
            }
            k => {
                for (n, _) in super::analyse::local_uses(k) {
                    if let Some(rs) = based.get(n) {
                        captured.extend(rs.iter().map(|r| (*r, inst)));
                    }
                }
            }
        }
        for v in capturing {
            if let Value::Local(n) = v {
                if let Some(rs) = based.get(n) {
                    captured.extend(rs.iter().map(|r| (*r, inst)));
                }
            }
        }
    }
    captured
}

/// The allocas of `f` whose address may be captured anywhere.
pub(crate) fn captured_allocas<'f>(f: &'f Function, m: &Module) -> HashSet<&'f Name> {
    captures(f, m).into_iter().map(|(n, _)| n).collect()
}

/// Whether a function that calls `f`, directly or not, has an alloca
/// whose address may be captured: a call in `f` that may read other
/// memory may then read it (review2 G1).
pub(crate) fn callers_capture(f: &Function, m: &Module) -> bool {
    let mut seen: HashSet<&Name> = HashSet::new();
    let mut work: Vec<&Name> = vec![&f.name];
    while let Some(n) = work.pop() {
        for g in m.defined_functions() {
            let calls_n = g
                .calls()
                .any(|(_, c)| c.callee.as_global().is_some_and(|x| x == n));
            if calls_n && seen.insert(&g.name) {
                if !captures(g, m).is_empty() {
                    return true;
                }
                work.push(&g.name);
            }
        }
    }
    false
}

/// The position (block index, instruction index) of each instruction of
/// `f`, by address.
fn positions(f: &Function) -> HashMap<*const Instruction, (usize, usize)> {
    let mut out = HashMap::new();
    for (bi, b) in f.blocks.iter().enumerate() {
        for (ii, i) in b.instructions.iter().enumerate() {
            out.insert(i as *const Instruction, (bi, ii));
        }
    }
    out
}

/// For each block of `f`, the blocks reachable from it by one edge or
/// more.
fn reachable(f: &Function) -> Vec<Vec<bool>> {
    let (_, succ) = crate::verify::block_graph(&f.blocks);
    (0..f.blocks.len())
        .map(|start| {
            let mut seen = vec![false; f.blocks.len()];
            let mut stack: Vec<usize> = succ[start].clone();
            while let Some(b) = stack.pop() {
                if !seen[b] {
                    seen[b] = true;
                    stack.extend(succ[b].iter().copied());
                }
            }
            seen
        })
        .collect()
}

/// Where the captured allocas of a function may have been captured: the
/// base of each, with the positions of its captures, and the blocks each
/// block reaches.
#[derive(Default)]
pub(crate) struct CaptureSites {
    sites: Vec<(i64, Vec<(usize, usize)>)>,
    reach: Vec<Vec<bool>>,
    at: HashMap<*const Instruction, (usize, usize)>,
}

impl CaptureSites {
    /// The sites of `f`'s allocas kept in memory (`bases`: name to base).
    pub(crate) fn new(f: &Function, m: &Module, bases: &HashMap<&Name, i64>) -> CaptureSites {
        let at = positions(f);
        let mut by_base: HashMap<i64, Vec<(usize, usize)>> = HashMap::new();
        for (n, i) in captures(f, m) {
            if let (Some(b), Some(p)) = (bases.get(n), at.get(&(i as *const Instruction))) {
                by_base.entry(*b).or_default().push(*p);
            }
        }
        let mut sites: Vec<(i64, Vec<(usize, usize)>)> = by_base.into_iter().collect();
        sites.sort_unstable();
        CaptureSites {
            sites,
            reach: reachable(f),
            at,
        }
    }

    /// The bases of the allocas a capture of which may have run before
    /// `inst` (every captured one, where `inst` is not of the function).
    pub(crate) fn before(&self, inst: &Instruction) -> Vec<i64> {
        let here = self.at.get(&(inst as *const Instruction)).copied();
        self.sites
            .iter()
            .filter(|(_, ps)| {
                let Some((bi, ii)) = here else { return true };
                ps.iter().any(|&(cb, ci)| {
                    (cb == bi && ci < ii) || self.reach.get(cb).is_some_and(|r| r[bi])
                })
            })
            .map(|(b, _)| *b)
            .collect()
    }
}

impl FnMapper<'_> {
    /// The bases of the captured allocas a call at `inst` may access.
    pub(crate) fn captured_at(&self, inst: &Instruction) -> Vec<i64> {
        self.capture_sites.before(inst)
    }

    /// Refuses a load or store (`what`) at `inst` through `ptr`, a pointer
    /// of unknown origin (not rooted in a global, an alloca or a parameter:
    /// a loaded address, a call's result) that may address private memory
    /// (generic or private type), where an alloca of the function whose
    /// address escaped may have been captured before it: such a pointer may
    /// be that alloca's address, while the model sends the access to
    /// another object (review2 G7: a store of 7 through the pointer loaded
    /// back from `@gp` did not reach the alloca, so GVN's forward of the
    /// alloca's 1 across it was `preserved` and its correct 7 an alarm).
    pub(crate) fn unknown_private_access(
        &self,
        inst: &Instruction,
        ptr: &TypedValue,
        what: &str,
    ) -> R<()> {
        if !matches!(ptr.ty.addrspace(), Some(0 | 5) | None) {
            return Ok(());
        }
        let (_, name, global) = self.location(ptr);
        if global.is_some() || name == "null" || name.starts_with('@') {
            return Ok(());
        }
        if let Some(n) = name.strip_prefix('%') {
            let known = self
                .defs
                .iter()
                .any(|(d, i)| d.to_string() == n && matches!(i.kind, K::Alloca(_)))
                || self.f.params.iter().any(|p| p.name.to_string() == n);
            if known {
                return Ok(());
            }
        }
        if self.captured_at(inst).is_empty() {
            return Ok(());
        }
        unsup(
            format!(
                "a {what} through a pointer of unknown origin ({name}) where an alloca \
                 whose address escaped may be its object: the model sends the access \
                 elsewhere"
            ),
            inst.line(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Which allocas' addresses may be captured: stored as a value, passed
    /// to a call that may capture it, converted to an integer; not when
    /// only loaded, stored through, indexed, compared, copied by
    /// `llvm.memcpy` or passed as `nocapture`.
    #[test]
    fn captured_allocas_are_those_whose_address_may_escape() {
        let src = "@gp = global ptr null\n\
                   declare void @take(ptr)\n\
                   declare void @look(ptr nocapture)\n\
                   declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)\n\
                   define void @k(ptr %d) {\n\
                   entry:\n\
                   \x20 %own = alloca [2 x i32]\n\
                   \x20 %stored = alloca i32\n\
                   \x20 %passed = alloca i32\n\
                   \x20 %looked = alloca i32\n\
                   \x20 %copied = alloca i32\n\
                   \x20 %int = alloca i32\n\
                   \x20 %e = getelementptr [2 x i32], ptr %own, i32 0, i32 1\n\
                   \x20 store i32 1, ptr %e\n\
                   \x20 %c = icmp eq ptr %e, %d\n\
                   \x20 %s = getelementptr i8, ptr %stored, i32 0\n\
                   \x20 store ptr %s, ptr @gp\n\
                   \x20 call void @take(ptr %passed)\n\
                   \x20 call void @look(ptr %looked)\n\
                   \x20 call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %copied, i64 4, i1 false)\n\
                   \x20 %i = ptrtoint ptr %int to i64\n\
                   \x20 ret void\n\
                   }\n";
        let m = crate::parse_module(src, "t.ll").expect("parses");
        let k = m.function("k").expect("@k");
        let mut got: Vec<String> = captured_allocas(k, &m)
            .into_iter()
            .map(|n| n.to_string())
            .collect();
        got.sort();
        assert_eq!(got, ["int", "passed", "stored"]);
    }

    /// A call before the only capture may not reach the slot; one after
    /// it, or in a loop whose body captures it later, may.
    #[test]
    fn a_capture_counts_where_it_may_have_run_before() {
        let src = "@gp = global ptr null\n\
                   declare void @ext()\n\
                   define void @k(i1 %c) {\n\
                   entry:\n\
                   \x20 %a = alloca i32\n\
                   \x20 call void @ext()\n\
                   \x20 br label %loop\n\
                   loop:\n\
                   \x20 call void @ext()\n\
                   \x20 store ptr %a, ptr @gp\n\
                   \x20 br i1 %c, label %loop, label %exit\n\
                   exit:\n\
                   \x20 call void @ext()\n\
                   \x20 ret void\n\
                   }\n";
        let m = crate::parse_module(src, "t.ll").expect("parses");
        let k = m.function("k").expect("@k");
        let a = k.blocks[0].instructions[0].result.clone().expect("%a");
        let bases: HashMap<&Name, i64> = [(&a, 7)].into_iter().collect();
        let sites = CaptureSites::new(k, &m, &bases);
        let call = |b: usize, i: usize| sites.before(&k.blocks[b].instructions[i]);
        assert_eq!(call(0, 1), Vec::<i64>::new());
        assert_eq!(call(1, 0), [7]);
        assert_eq!(call(2, 0), [7]);
    }
}
