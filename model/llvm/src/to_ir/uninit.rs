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
use crate::inst::{InstKind as K, Instruction};
use crate::module::Function;
use crate::types::Type;
use crate::value::{Name, Value};

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
    let (_, succs) = crate::verify::block_graph(&f.blocks);
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); f.blocks.len()];
    for (i, ss) in succs.iter().enumerate() {
        for &j in ss {
            preds[j].push(i);
        }
    }
    // Must-analysis: the slots stored on every path to a block's end
    // (`None`: not reached yet, the top of the lattice).
    let gen: Vec<HashSet<String>> = f
        .blocks
        .iter()
        .map(|b| {
            b.instructions
                .iter()
                .filter_map(|i| match &i.kind {
                    K::Store(s) => slot_of(&s.ptr.value),
                    _ => None,
                })
                .collect()
        })
        .collect();
    let mut out: Vec<Option<HashSet<String>>> = vec![None; f.blocks.len()];
    let entry_in = |i: usize, out: &[Option<HashSet<String>>]| -> HashSet<String> {
        if i == 0 {
            return HashSet::new();
        }
        let mut acc: Option<HashSet<String>> = None;
        for &p in &preds[i] {
            if let Some(o) = &out[p] {
                acc = Some(match acc {
                    None => o.clone(),
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
    let mut loads = HashSet::new();
    for (i, b) in f.blocks.iter().enumerate() {
        let mut stored = entry_in(i, &out);
        for inst in &b.instructions {
            match &inst.kind {
                K::Store(s) => {
                    if let Some(slot) = slot_of(&s.ptr.value) {
                        stored.insert(slot);
                    }
                }
                K::Load(l) => {
                    if let (Some(slot), Some(r)) = (slot_of(&l.ptr.value), &inst.result) {
                        if !stored.contains(&slot) {
                            loads.insert(r);
                        }
                    }
                }
                _ => {}
            }
        }
    }
    loads
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
        let span = super::span_at(self.f.span.line, self.f.span.col);
        slots
            .into_iter()
            .map(|slot| {
                let sid = self.t.op(convcheck_ir::OpInfo {
                    label: format!("{slot} undefined"),
                    span,
                    kind: OpKind::Stmt,
                    func: self.fid,
                    memory_none: false,
                });
                Inst {
                    kind: InstKind::SetLocal {
                        name: slot_shadow(&slot),
                        value: Some(Expr::Const(0)),
                    },
                    sid,
                    token: None,
                }
            })
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
}
