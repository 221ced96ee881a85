//! Loads that may read a promoted alloca before anything is stored to it
//! (issue 20, red-team G10). LangRef: an alloca's bytes start `undef`, so
//! such a load reads `undef` where no store reached it. The mapper reads
//! it as `select(slot.defined, slot, oracle uninit.%v)`, the oracle of
//! class `choice` (docs/src/semantics.md, "An uninitialised local"): the
//! reference's to choose, fresh at each load, one value once frozen. A
//! load every path to which stores the slot first keeps reading the slot
//! alone, so clang -O0's locals, stored before they are read, cost no
//! free value.
#![deny(unsafe_code)]

use std::collections::{HashMap, HashSet};

use convcheck_ir::{Expr, Inst, InstKind, OpKind, OracleClass};

use super::func::FnMapper;
use super::{plain, span_at};
use crate::inst::{CastOp, InstKind as K, Instruction};
use crate::module::Function;
use crate::types::Type;
use crate::value::{Name, TypedValue, Value};

/// The results of the integer loads of `promoted` slots (alloca or cast
/// name to slot name) that some path from the entry reaches with no store
/// to their slot on the way.
pub(crate) fn uninit_loads<'f>(
    f: &'f Function,
    promoted: &HashMap<&Name, String>,
) -> HashSet<&'f Name> {
    let slot_of = |v: &Value| match v {
        Value::Local(p) => promoted.get(p).cloned(),
        _ => None,
    };
    let writes = |i: &Instruction| match &i.kind {
        K::Store(s) => slot_of(&s.ptr.value).into_iter().collect(),
        _ => Vec::new(),
    };
    let reads = |i: &Instruction| match &i.kind {
        K::Load(l) => slot_of(&l.ptr.value),
        _ => None,
    };
    unwritten_reads(f, writes, reads, false)
        .into_keys()
        .collect()
}

/// The loads (by result) that `reads` says read an object and that some
/// path from the entry (with `every`: every path) reaches with no
/// instruction `writes` names for it on the way, each with its object: a
/// must-analysis (with `every`, a may-analysis) over the blocks.
fn unwritten_reads<T: Clone + Eq + std::hash::Hash>(
    f: &Function,
    writes: impl Fn(&Instruction) -> Vec<T>,
    reads: impl Fn(&Instruction) -> Option<T>,
    every: bool,
) -> HashMap<&Name, T> {
    let (_, succs) = crate::verify::block_graph(&f.blocks);
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); f.blocks.len()];
    for (i, ss) in succs.iter().enumerate() {
        for &j in ss {
            preds[j].push(i);
        }
    }
    // The objects written on every path (with `every`: some path) to a
    // block's end (`None`: not reached yet).
    let gen: Vec<HashSet<T>> = f
        .blocks
        .iter()
        .map(|b| b.instructions.iter().flat_map(&writes).collect())
        .collect();
    let mut out: Vec<Option<HashSet<T>>> = vec![None; f.blocks.len()];
    let entry_in = |i: usize, out: &[Option<HashSet<T>>]| -> HashSet<T> {
        if i == 0 {
            return HashSet::new();
        }
        let mut acc: Option<HashSet<T>> = None;
        for &p in &preds[i] {
            if let Some(o) = &out[p] {
                acc = Some(match acc {
                    None => o.clone(),
                    Some(a) if every => a.union(o).cloned().collect(),
                    Some(a) => a.intersection(o).cloned().collect(),
                });
            }
        }
        acc.unwrap_or_default()
    };
    loop {
        let mut changed = false;
        for i in 0..f.blocks.len() {
            let mut s = entry_in(i, &out);
            s.extend(gen[i].iter().cloned());
            if out[i].as_ref() != Some(&s) {
                out[i] = Some(s);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let mut loads = HashMap::new();
    for (i, b) in f.blocks.iter().enumerate() {
        let mut written = entry_in(i, &out);
        for inst in &b.instructions {
            if let (Some(x), Some(r)) = (reads(inst), &inst.result) {
                if !written.contains(&x) {
                    loads.insert(r, x);
                }
            }
            written.extend(writes(inst));
        }
    }
    loads
}

/// The allocas kept in memory that a load may read before anything was
/// written to them, and what writes them (see [`memory_uninit`]).
#[derive(Default)]
pub(crate) struct MemUninit<'f> {
    /// Each such load (by result), with the alloca it reads.
    pub loads: HashMap<&'f Name, &'f Name>,
    /// Those that every path reaches with nothing written to the alloca.
    pub never: HashSet<&'f Name>,
    /// The instructions (by address) that may write those allocas or let
    /// their address go elsewhere, each with the allocas it touches.
    pub touches: HashMap<usize, Vec<&'f Name>>,
    /// Those allocas, sorted.
    pub allocas: Vec<&'f Name>,
}

/// Loads of the allocas `kept` in memory that may read bytes nothing was
/// written to yet (LangRef: an alloca's bytes start `undef`), the sound
/// subset: a load of an integer, not volatile nor atomic, through a
/// pointer based on one alloca only, that some path from the entry
/// reaches before any instruction *touches* the alloca. Everything that
/// uses a pointer based on it touches it (a store, a call, an atomic, a
/// memory intrinsic, a capture: [`super::capture::captures`]) but a
/// load's address, a comparison, `getelementptr`, pointer casts, phis and
/// selects deriving a pointer, and `llvm.lifetime.*`. Before such an
/// instruction no pointer that is not based on the alloca can reach it
/// (LangRef: pointer aliasing rules), so nothing wrote it.
pub(crate) fn memory_uninit<'f>(f: &'f Function, kept: &HashSet<&Name>) -> MemUninit<'f> {
    let based = super::capture::based_on(f);
    let touched = |i: &Instruction| -> Vec<&'f Name> {
        let derived: Vec<&Value> = match &i.kind {
            K::Load(l) => vec![&l.ptr.value],
            K::ICmp(_) | K::Phi(_) => return Vec::new(),
            K::GetElementPtr(g) => vec![&g.base.value],
            K::Cast(c) if matches!(c.op, CastOp::BitCast | CastOp::AddrSpaceCast) => {
                vec![&c.value.value]
            }
            K::Select(s) => vec![&s.if_true.value, &s.if_false.value],
            K::Call(c)
                if c.callee_name()
                    .is_some_and(|n| n.starts_with("llvm.lifetime.")) =>
            {
                return Vec::new()
            }
            _ => Vec::new(),
        };
        let mut uses: Vec<&Name> = super::analyse::local_uses(&i.kind)
            .into_iter()
            .map(|(n, _)| n)
            .collect();
        for v in derived {
            if let Value::Local(n) = v {
                if let Some(k) = uses.iter().position(|u| *u == n) {
                    uses.remove(k);
                }
            }
        }
        let mut out: Vec<&'f Name> = Vec::new();
        for n in uses {
            for a in based.get(n).map(Vec::as_slice).unwrap_or(&[]) {
                if !out.contains(a) {
                    out.push(a);
                }
            }
        }
        out
    };
    let reads = |i: &Instruction| -> Option<&'f Name> {
        let K::Load(l) = &i.kind else { return None };
        if l.volatile || l.atomic.is_some() || !matches!(l.ty, Type::Int(_)) {
            return None;
        }
        let Value::Local(p) = &l.ptr.value else {
            return None;
        };
        match based.get(p).map(Vec::as_slice) {
            Some([a]) if kept.contains(a) => Some(*a),
            _ => None,
        }
    };
    let loads = unwritten_reads(f, touched, reads, false);
    let never = unwritten_reads(f, touched, reads, true)
        .into_keys()
        .collect();
    let mut allocas: Vec<&Name> = loads.values().copied().collect();
    allocas.sort();
    allocas.dedup();
    let mut touches = HashMap::new();
    for (_, inst) in f.instructions() {
        let ts: Vec<&Name> = touched(inst)
            .into_iter()
            .filter(|a| allocas.contains(a))
            .collect();
        if !ts.is_empty() {
            touches.insert(inst as *const Instruction as usize, ts);
        }
    }
    MemUninit {
        loads,
        never,
        touches,
        allocas,
    }
}

/// Where nothing was written to the alloca `a` kept in memory yet: 0.
fn mem_shadow(a: &Name) -> String {
    format!("{}.written", plain(a))
}

impl FnMapper<'_> {
    /// The value a load of the promoted slot `slot` reads: the slot, or,
    /// where the load may run before any store to it and the slot is still
    /// undefined, the program's own choice `uninit.%v` (LangRef: the
    /// alloca's bytes are `undef`).
    pub fn slot_read(&mut self, inst: &Instruction, ty: &Type, slot: String) -> Expr {
        let uninit = !self.ctx.opts.unchecked_poison
            && matches!(ty, Type::Int(_))
            && inst
                .result
                .as_ref()
                .is_some_and(|r| self.uninit.contains(r));
        if !uninit {
            return Expr::Var(slot);
        }
        let r = inst.result.as_ref().map(plain).unwrap_or_default();
        let o = self.t.oracle(
            &format!("uninit.{r}"),
            OracleClass::Choice,
            span_at(inst.span.line, inst.span.col),
        );
        Expr::Select(
            Box::new(Expr::Var(slot_shadow(&slot))),
            Box::new(Expr::Var(slot)),
            Box::new(Expr::Oracle(o)),
        )
    }
}

/// The shadow of a promoted slot: 1 where its value is defined.
pub(crate) fn slot_shadow(slot: &str) -> String {
    format!("{slot}.defined")
}

impl<'a> FnMapper<'a> {
    /// Every promoted slot undefined at the function's entry (a load before
    /// any store reads `undef`).
    pub fn slot_prelude(&mut self) -> Vec<Inst> {
        if self.ctx.opts.unchecked_poison {
            return Vec::new();
        }
        let mut slots: Vec<String> = self.promoted.values().cloned().collect();
        slots.sort();
        slots.dedup();
        let mut shadows: Vec<(String, String)> = slots
            .iter()
            .map(|s| (format!("{s} undefined"), slot_shadow(s)))
            .collect();
        shadows.extend(
            self.mem_uninit
                .allocas
                .iter()
                .map(|a| (format!("%{} unwritten", plain(a)), mem_shadow(a))),
        );
        let span = super::span_at(self.f.span.line, self.f.span.col);
        shadows
            .into_iter()
            .map(|(label, shadow)| self.set_local(label, span, shadow, Expr::Const(0)))
            .collect()
    }

    /// After a store of `v` to a promoted slot: the slot's definedness.
    pub fn slot_stored(&mut self, slot: &str, v: &Value, inst: &Instruction, out: &mut Vec<Inst>) {
        if self.ctx.opts.unchecked_poison {
            return;
        }
        let sid = self.op("defined", OpKind::Stmt, inst);
        out.push(Inst {
            kind: InstKind::SetLocal {
                name: slot_shadow(slot),
                value: Some(self.defined(v)),
            },
            sid,
            token: None,
        });
    }
}

impl FnMapper<'_> {
    /// Before an instruction that may write an alloca a load may read
    /// unwritten ([`memory_uninit`]): it is written from there on.
    pub fn mem_touched(&mut self, inst: &Instruction, out: &mut Vec<Inst>) {
        let key = inst as *const Instruction as usize;
        let Some(allocas) = self.mem_uninit.touches.get(&key).cloned() else {
            return;
        };
        for a in allocas {
            let sid = self.op("written", OpKind::Stmt, inst);
            out.push(Inst {
                kind: InstKind::SetLocal {
                    name: mem_shadow(a),
                    value: Some(Expr::Const(1)),
                },
                sid,
                token: None,
            });
        }
    }

    /// The value of a load `e` of an alloca kept in memory that may run
    /// before anything was written to it ([`memory_uninit`]): where nothing
    /// was, the program's own choice `uninit.%v` (the load is not made
    /// there), as a promoted slot's is ([`FnMapper::slot_read`]).
    pub fn mem_uninit_read(&mut self, inst: &Instruction, ptr: &TypedValue, e: Expr) -> Expr {
        let Some(r) = inst.result.as_ref() else {
            return e;
        };
        let Some(&a) = self.mem_uninit.loads.get(r) else {
            return e;
        };
        if !self.used(inst) {
            return e;
        }
        // The load's address must be the alloca's own (not a phi that
        // may be another pointer).
        let base = self.alloca_base.get(a).copied();
        let own = matches!(
            self.object_of(ptr, inst.line()),
            Some(super::bounds::Object::Known { base: b, .. }) if Some(b) == base
        );
        if !own {
            return e;
        }
        let o = self.t.oracle(
            &format!("uninit.{}", plain(r)),
            OracleClass::Choice,
            span_at(inst.span.line, inst.span.col),
        );
        if self.mem_uninit.never.contains(r) {
            // Nothing is ever written before it: no load.
            return Expr::Oracle(o);
        }
        Expr::Select(
            Box::new(Expr::Var(mem_shadow(a))),
            Box::new(e),
            Box::new(Expr::Oracle(o)),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A load on a path with no store to its slot may read `undef`; one
    /// after a store on every path (both arms, or the entry), or in a
    /// loop entered after a store, may not; a store on one arm only, or
    /// later in a loop body, does not count at the join or the header.
    #[test]
    fn uninit_loads_are_those_some_path_reaches_unstored() {
        let src = "define void @k(i1 %c) {\n\
                   entry:\n\
                   \x20 %a = alloca i32\n\
                   \x20 %b = alloca i32\n\
                   \x20 %d = alloca i32\n\
                   \x20 %l = alloca i32\n\
                   \x20 %x0 = load i32, ptr %a\n\
                   \x20 store i32 1, ptr %d\n\
                   \x20 br i1 %c, label %t, label %e\n\
                   t:\n\
                   \x20 store i32 1, ptr %a\n\
                   \x20 store i32 1, ptr %b\n\
                   \x20 br label %j\n\
                   e:\n\
                   \x20 store i32 2, ptr %b\n\
                   \x20 br label %j\n\
                   j:\n\
                   \x20 %xa = load i32, ptr %a\n\
                   \x20 %xb = load i32, ptr %b\n\
                   \x20 br label %h\n\
                   h:\n\
                   \x20 %xd = load i32, ptr %d\n\
                   \x20 %xl = load i32, ptr %l\n\
                   \x20 store i32 3, ptr %l\n\
                   \x20 br i1 %c, label %h, label %x\n\
                   x:\n\
                   \x20 %yl = load i32, ptr %l\n\
                   \x20 ret void\n\
                   }\n";
        let m = crate::parse_module(src, "t.ll").expect("parses");
        let k = m.function("k").expect("@k");
        let names = ["a", "b", "d", "l"].map(|s| Name::Named(s.into()));
        let promoted: HashMap<&Name, String> = names.iter().map(|n| (n, n.to_string())).collect();
        let mut got: Vec<String> = uninit_loads(k, &promoted)
            .into_iter()
            .map(|n| n.to_string())
            .collect();
        got.sort();
        assert_eq!(got, ["x0", "xa", "xl"]);
    }

    /// A load of an alloca kept in memory before anything touches it
    /// reads unwritten bytes: on every path (`never`) or some (`loads`);
    /// `llvm.lifetime.*` touches nothing, a store or a call taking the
    /// pointer does (`touches`), and a load after them on every path is
    /// neither.
    #[test]
    fn memory_uninit_loads_are_those_before_any_touch() {
        let src = "declare void @f(ptr)\n\
                   declare void @llvm.lifetime.start.p0(i64, ptr)\n\
                   define void @k(i1 %c) {\n\
                   entry:\n\
                   \x20 %a = alloca [2 x i32]\n\
                   \x20 %b = alloca i32\n\
                   \x20 %p = getelementptr [2 x i32], ptr %a, i32 0, i32 1\n\
                   \x20 %x0 = load i32, ptr %p\n\
                   \x20 call void @llvm.lifetime.start.p0(i64 4, ptr %b)\n\
                   \x20 %xb = load i32, ptr %b\n\
                   \x20 br i1 %c, label %t, label %j\n\
                   t:\n\
                   \x20 store i32 1, ptr %p\n\
                   \x20 br label %j\n\
                   j:\n\
                   \x20 %x1 = load i32, ptr %a\n\
                   \x20 call void @f(ptr %b)\n\
                   \x20 %x2 = load i32, ptr %b\n\
                   \x20 ret void\n\
                   }\n";
        let m = crate::parse_module(src, "t.ll").expect("parses");
        let k = m.function("k").expect("@k");
        let names = ["a", "b"].map(|s| Name::Named(s.into()));
        let kept: HashSet<&Name> = names.iter().collect();
        let u = memory_uninit(k, &kept);
        let sorted = |it: &mut dyn Iterator<Item = String>| {
            let mut v: Vec<String> = it.collect();
            v.sort();
            v
        };
        let loads = sorted(&mut u.loads.iter().map(|(l, a)| format!("{l}:{a}")));
        assert_eq!(loads, ["x0:a", "x1:a", "xb:b"]);
        let never = sorted(&mut u.never.iter().map(|n| n.to_string()));
        assert_eq!(never, ["x0", "xb"]);
        let mut touches: Vec<String> = k
            .instructions()
            .filter_map(|(_, i)| {
                let ts = u.touches.get(&(i as *const Instruction as usize))?;
                Some(format!("{}:{}", i.opcode(), ts.len()))
            })
            .collect();
        touches.sort();
        assert_eq!(touches, ["call:1", "store:1"]);
    }
}
