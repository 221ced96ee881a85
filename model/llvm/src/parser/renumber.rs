//! Dense numbering of a function's unnamed values, as LLVM prints them.
//!
//! LLVM 19 reads numbered values, arguments and blocks whose numbers skip
//! ahead (`%0`, then `%2`); the numbers are only how the text refers to
//! unnamed values, and LLVM's printer numbers them densely again (`%2`
//! becomes `%1`). The mapping names parameters' oracles and some labels
//! after those numbers, so a function read with gaps is renumbered the way
//! opt will print it: the k-th numbered definition (arguments, then each
//! block's label and results, in order) becomes `%k`, and every reference
//! follows. Names inside text kept as written (a generic instruction's
//! operands, metadata) are not rewritten.
#![deny(unsafe_code)]

use std::collections::HashMap;

use crate::inst::InstKind;
use crate::module::Function;
use crate::value::{Name, TypedValue, Value};

/// Renumbers `f`'s numbered locals densely in definition order.
pub(crate) fn dense(f: &mut Function) {
    let mut map: HashMap<u32, u32> = HashMap::new();
    let mut next = 0u32;
    let mut define = |n: &Name| {
        if let Name::Numbered(k) = n {
            map.insert(*k, next);
            next = next.saturating_add(1);
        }
    };
    for p in &f.params {
        define(&p.name);
    }
    for b in &f.blocks {
        define(&b.name);
        for i in &b.instructions {
            if let Some(r) = &i.result {
                define(r);
            }
        }
    }
    let name = |n: &mut Name| {
        if let Name::Numbered(k) = n {
            if let Some(d) = map.get(k) {
                *k = *d;
            }
        }
    };
    let value = |v: &mut Value| {
        if let Value::Local(n) = v {
            name(n)
        }
    };
    let typed = |v: &mut TypedValue| value(&mut v.value);
    for p in &mut f.params {
        name(&mut p.name);
    }
    for b in &mut f.blocks {
        name(&mut b.name);
        for i in &mut b.instructions {
            if let Some(r) = &mut i.result {
                name(r);
            }
            match &mut i.kind {
                InstKind::Phi(p) => {
                    for (v, from) in &mut p.incoming {
                        value(v);
                        name(from);
                    }
                }
                InstKind::Select(s) => {
                    typed(&mut s.cond);
                    typed(&mut s.if_true);
                    typed(&mut s.if_false);
                }
                InstKind::ICmp(c) => {
                    value(&mut c.lhs);
                    value(&mut c.rhs);
                }
                InstKind::Binary(x) => {
                    value(&mut x.lhs);
                    value(&mut x.rhs);
                }
                InstKind::Cast(c) => typed(&mut c.value),
                InstKind::Freeze(v) => typed(v),
                InstKind::Alloca(a) => {
                    if let Some(c) = &mut a.count {
                        typed(c);
                    }
                }
                InstKind::Load(l) => typed(&mut l.ptr),
                InstKind::Store(s) => {
                    typed(&mut s.value);
                    typed(&mut s.ptr);
                }
                InstKind::GetElementPtr(g) => {
                    typed(&mut g.base);
                    g.indices.iter_mut().for_each(typed);
                }
                InstKind::Call(c) => {
                    value(&mut c.callee);
                    for a in &mut c.args {
                        value(&mut a.value);
                    }
                    for bundle in &mut c.bundles {
                        bundle.inputs.iter_mut().for_each(typed);
                    }
                }
                InstKind::Br(d) => name(d),
                InstKind::CondBr {
                    cond,
                    if_true,
                    if_false,
                } => {
                    value(cond);
                    name(if_true);
                    name(if_false);
                }
                InstKind::Switch(s) => {
                    typed(&mut s.value);
                    name(&mut s.default);
                    for c in &mut s.cases {
                        name(&mut c.dest);
                    }
                }
                InstKind::Ret(v) => {
                    if let Some(v) = v {
                        typed(v);
                    }
                }
                InstKind::Unreachable => {}
                InstKind::Generic(g) => {
                    g.uses.iter_mut().for_each(name);
                    g.labels.iter_mut().for_each(name);
                }
            }
        }
    }
}
