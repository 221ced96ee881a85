//! Internal globals that nothing may write read their initializer
//! (LangRef "Linkage Types", "Global Variables"; red-team review of
//! 2026-11-29, review3 H4).
//!
//! A global with `internal` or `private` linkage cannot be named outside
//! its module: only the module's own instructions reach it, through its
//! address. Where every use of the address is the pointer of a load
//! (directly, through constant expressions `getelementptr`,
//! `addrspacecast` and `bitcast`, or through `getelementptr` and cast
//! instructions whose results are used the same way), no code writes it,
//! so every load reads its initializer, as from a `constant`: opt's
//! GlobalOpt folds such loads (`static __device__ int t = 5;` read only)
//! and marks the global `constant`. Anything else that mentions it (a
//! store, a call argument, a `ptrtoint`, a `phi` or `select`, another
//! global's initializer, an instruction convcheck keeps as text) may let
//! its address escape or write it, and the global stays what it was (its
//! loads read memory).
//!
//! Not covered: `thread_local` globals, globals of the shared and private
//! spaces (3 and 5: a group's or a thread's, never initialized from the
//! module on GPUs), `externally_initialized` ones, and aliases of them.
#![deny(unsafe_code)]

use std::collections::{HashMap, HashSet};

use convcheck_ir::Expr;

use super::func::FnMapper;
use super::memory::GlobalInfo;
use super::R;
use crate::inst::{CastOp, InstKind as K};
use crate::module::{GlobalVar, Linkage, Module};
use crate::value::{Name, TypedValue, Value};

/// Whether `g` is an internal global whose initializer nothing may
/// change (the module above).
pub(crate) fn never_written(m: &Module, g: &GlobalVar) -> bool {
    let local = matches!(
        g.qualifiers.linkage,
        Some(Linkage::Internal | Linkage::Private)
    );
    if !local
        || g.initializer.is_none()
        || g.externally_initialized
        || g.thread_local.is_some()
        || matches!(g.addrspace, 3 | 5)
    {
        return false;
    }
    address_only_loaded(m, &g.name)
}

/// Whether every use of the global `name`'s address in `m` is the pointer
/// of a load, directly or through address computations (the module
/// above): no instruction writes it and no pointer of unknown origin can
/// point into it.
pub(crate) fn address_only_loaded(m: &Module, name: &Name) -> bool {
    // Another global's initializer holding its address.
    if m.globals
        .iter()
        .any(|o| o.initializer.as_ref().is_some_and(|v| mentions(v, name)))
    {
        return false;
    }
    m.defined_functions().all(|f| only_loaded(f, name))
}

/// Whether `v` mentions the global `name` anywhere inside.
fn mentions(v: &Value, name: &Name) -> bool {
    match v {
        Value::Global(n) => n == name,
        Value::ConstExpr(c) => c.globals.contains(name),
        Value::Aggregate { globals, .. } => globals.contains(name),
        _ => false,
    }
}

/// Whether `v` is the address of `name` (or an address within it) by
/// constant expressions that compute addresses: `@g`,
/// `getelementptr (..., @g, ...)`, `addrspacecast (@g)`, `bitcast (@g)`,
/// nested.
fn is_address(v: &Value, name: &Name) -> bool {
    match v {
        Value::Global(n) => n == name,
        Value::ConstExpr(c) => {
            matches!(
                c.opcode.as_str(),
                "getelementptr" | "addrspacecast" | "bitcast"
            ) && c.globals.len() == 1
                && c.globals[0] == *name
                // The global is the base, not an index (`ptrtoint` is no
                // address computation, so an index that mentions it is
                // not one of these opcodes' operands but a nested
                // expression, which `globals` lists too: refused).
                && !c.text.contains("ptrtoint")
        }
        _ => false,
    }
}

/// Whether every use of `name`'s address in `f` is a load's pointer, or
/// an address computation whose results are used that way.
fn only_loaded(f: &crate::module::Function, name: &Name) -> bool {
    // Locals holding an address within the global, to a fixed point (a
    // definition may come after a use in block order).
    let mut derived: HashSet<&Name> = HashSet::new();
    loop {
        let before = derived.len();
        for inst in f.blocks.iter().flat_map(|b| &b.instructions) {
            let addr = |v: &Value| {
                is_address(v, name) || v.as_local().is_some_and(|n| derived.contains(n))
            };
            let result = inst.result.as_ref();
            let new = match &inst.kind {
                K::GetElementPtr(gep) => {
                    addr(&gep.base.value) && !gep.indices.iter().any(|i| addr(&i.value))
                }
                K::Cast(c) => {
                    matches!(c.op, CastOp::AddrSpaceCast | CastOp::BitCast) && addr(&c.value.value)
                }
                _ => false,
            };
            if new {
                if let Some(r) = result {
                    derived.insert(r);
                }
            }
        }
        if derived.len() == before {
            break;
        }
    }
    let touches =
        |v: &Value| mentions(v, name) || v.as_local().is_some_and(|n| derived.contains(n));
    for inst in f.blocks.iter().flat_map(|b| &b.instructions) {
        let ok = match &inst.kind {
            // The pointer may be the global; a load holds no other value.
            K::Load(_) => true,
            K::GetElementPtr(gep) => !gep.indices.iter().any(|i| touches(&i.value)),
            K::Cast(c) if matches!(c.op, CastOp::AddrSpaceCast | CastOp::BitCast) => true,
            K::Cast(c) => !touches(&c.value.value),
            K::Generic(g) => {
                !g.globals.contains(name) && !g.uses.iter().any(|n| derived.contains(n))
            }
            k => values(k).into_iter().all(|v| !touches(v)),
        };
        if !ok {
            return false;
        }
    }
    true
}

/// Every value an instruction of a kind other than load, `getelementptr`,
/// cast and generic uses.
fn values(k: &K) -> Vec<&Value> {
    let mut out: Vec<&Value> = Vec::new();
    match k {
        K::Phi(p) => out.extend(p.incoming.iter().map(|(v, _)| v)),
        K::Select(s) => out.extend([&s.cond.value, &s.if_true.value, &s.if_false.value]),
        K::ICmp(c) => out.extend([&c.lhs, &c.rhs]),
        K::Binary(b) => out.extend([&b.lhs, &b.rhs]),
        K::Freeze(tv) => out.push(&tv.value),
        K::Alloca(a) => out.extend(a.count.iter().map(|c| &c.value)),
        K::Store(s) => out.extend([&s.value.value, &s.ptr.value]),
        K::Call(c) => {
            out.push(&c.callee);
            out.extend(c.args.iter().map(|a| &a.value));
            for b in &c.bundles {
                out.extend(b.inputs.iter().map(|i| &i.value));
            }
        }
        K::CondBr { cond, .. } => out.push(cond),
        K::Switch(s) => out.push(&s.value.value),
        K::Ret(Some(tv)) => out.push(&tv.value),
        K::Load(l) => out.push(&l.ptr.value),
        K::GetElementPtr(g) => {
            out.push(&g.base.value);
            out.extend(g.indices.iter().map(|i| &i.value));
        }
        K::Cast(c) => out.push(&c.value.value),
        K::Generic(_) | K::Br(_) | K::Ret(None) | K::Unreachable => {}
    }
    out
}

/// The internal constants whose address the module lets go somewhere
/// other than a load (a call argument, a store), readable and of known
/// size, in name order: a pointer of unknown origin may point into them
/// (review3 H8; [`FnMapper::escaped_table_read`]).
pub(crate) fn escaped_tables(
    m: &Module,
    by_name: &HashMap<Name, GlobalInfo>,
) -> Vec<(Name, GlobalInfo)> {
    let mut out: Vec<(Name, GlobalInfo)> = m
        .globals
        .iter()
        .filter(|g| {
            matches!(
                g.qualifiers.linkage,
                Some(Linkage::Internal | Linkage::Private)
            ) && !address_only_loaded(m, &g.name)
        })
        .filter_map(|g| {
            let info = by_name.get(&g.name)?;
            (info.constant && info.table.is_some() && info.size.is_some())
                .then(|| (g.name.clone(), info.clone()))
        })
        .collect();
    out.sort_by_key(|(n, _)| n.to_string());
    out
}

impl FnMapper<'_> {
    /// What a load through a pointer of unknown origin (a parameter, a
    /// loaded pointer) reads where the module lets an internal constant's
    /// address go elsewhere than its loads (review3 H8: a helper called
    /// with `static const int tbl[4]`, which IPSCCP and the inliner then
    /// read as the constant): inside such a constant, its initializer
    /// (`table_read`), else `memory`, the load as an access.
    pub(super) fn escaped_table_read(
        &mut self,
        ptr: &TypedValue,
        memory: Expr,
        size: u64,
        line: u32,
        span: convcheck_ir::Span,
    ) -> R<Expr> {
        if self.ctx.globals.escaped_tables.is_empty()
            || matches!(ptr.ty.addrspace(), Some(3 | 5))
            || !self.unknown_origin(ptr)
        {
            return Ok(memory);
        }
        let addr = self.ptr_lin(&ptr.value, line, 0)?.expr();
        let tables = self.ctx.globals.escaped_tables.clone();
        let mut e = memory;
        for (name, g) in tables.iter().rev() {
            let Some(table) = self.table_read(g, &format!("@{name}"), addr.clone(), size, span)
            else {
                continue;
            };
            let inside = super::values::bin(
                convcheck_ir::BinOp::ULt,
                super::values::bin(convcheck_ir::BinOp::Sub, addr.clone(), Expr::Const(g.base)),
                Expr::Const(g.size.unwrap_or(0) as i64),
            );
            e = Expr::Select(Box::new(inside), Box::new(table), Box::new(e));
        }
        Ok(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(src: &str) -> bool {
        let m = crate::parse_module(src, "t.ll").expect("a module");
        let g = m
            .globals
            .iter()
            .find(|g| g.name.to_string() == "t")
            .expect("@t");
        never_written(&m, g)
    }

    const LOADS: &str = "@t = internal addrspace(1) global [2 x i32] [i32 5, i32 6]\n\
        define i32 @k(i64 %i) {\n\
          %a = load i32, ptr addrspacecast (ptr addrspace(1) @t to ptr)\n\
          %p = getelementptr [2 x i32], ptr addrspace(1) @t, i64 0, i64 %i\n\
          %q = addrspacecast ptr addrspace(1) %p to ptr\n\
          %b = load i32, ptr %q\n\
          %c = add i32 %a, %b\n\
          ret i32 %c\n\
        }\n";

    #[test]
    fn loads_alone_leave_it_unwritten() {
        assert!(check(LOADS));
        assert!(!check(&LOADS.replace("internal ", "")));
        assert!(!check(
            &LOADS.replace("internal addrspace(1)", "internal addrspace(3)")
        ));
    }

    #[test]
    fn any_other_use_may_write_it() {
        for other in [
            "  store i32 1, ptr %q\n",
            "  store ptr %q, ptr null\n",
            "  call void @f(ptr %q)\n",
            "  %x = ptrtoint ptr %q to i64\n",
            "  %x = select i1 true, ptr %q, ptr null\n",
            "  %x = atomicrmw add ptr %q, i32 1 monotonic\n",
            "  store i32 1, ptr addrspace(1) @t\n",
        ] {
            let text =
                LOADS.replace("%c = add", &format!("{other}%c = add")) + "declare void @f(ptr)\n";
            assert!(text.contains(other.trim()), "{text}");
            assert!(!check(&text), "{other}");
        }
        let escaped =
            format!("{LOADS}@h = global ptr addrspacecast (ptr addrspace(1) @t to ptr)\n");
        assert!(!check(&escaped));
    }
}
