//! A weak `cmpxchg`'s spurious-failure oracle (`to_ir::spurious`, issue 21
//! item 1): named for the weak exchange only, and made "no spurious
//! failure" by `never_spurious` (what a check does to a reference whose
//! targets made the exchange strong).
#![deny(unsafe_code)]

use std::collections::BTreeSet;

use convcheck_ir::{Expr, Module};
use convcheck_llvm::to_ir::spurious::{never_spurious, spurious_oracles, SPURIOUS};
use convcheck_llvm::to_ir::to_module;

fn map(weak: &str) -> Module {
    let src = format!(
        "@lock = addrspace(1) global i32 0\n\
         define void @f(i32 %want, i32 %new, ptr addrspace(1) %out) {{\n\
         entry:\n\
           %pair = cmpxchg {weak}ptr addrspace(1) @lock, i32 %want, i32 %new monotonic monotonic, align 4\n\
           %ok = extractvalue {{ i32, i1 }} %pair, 1\n\
           br i1 %ok, label %yes, label %no\n\
         yes:\n\
           store i32 1, ptr addrspace(1) %out, align 4\n\
           ret void\n\
         no:\n\
           ret void\n\
         }}\n"
    );
    let m = convcheck_llvm::parse_module(&src, "t.ll").unwrap_or_else(|e| panic!("{e}"));
    let mapped = to_module(&m, "t.ll");
    assert!(mapped.skipped.is_empty(), "{:?}", mapped.skipped);
    mapped.module
}

/// How many reads of oracles whose name ends in [`SPURIOUS`] `m` has.
fn reads(m: &Module) -> usize {
    let mut n = 0;
    for f in &m.functions {
        for b in &f.blocks {
            for e in b.exprs() {
                e.walk(&mut |x| {
                    if let Expr::Oracle(o) = x {
                        n += usize::from(m.oracles[*o].name.ends_with(SPURIOUS));
                    }
                });
            }
        }
    }
    n
}

#[test]
fn a_weak_cmpxchg_reads_its_oracle_and_a_strong_one_none() {
    let weak = map("weak ");
    let names = spurious_oracles(&weak);
    assert_eq!(
        names,
        BTreeSet::from(["cmpxchg @lock fails spuriously".to_string()])
    );
    assert_eq!(reads(&weak), 1);
    let strong = map("");
    assert!(spurious_oracles(&strong).is_empty());
    assert_eq!(reads(&strong), 0);
}

#[test]
fn never_spurious_replaces_the_reads_it_names_only() {
    let mut weak = map("weak ");
    let names = spurious_oracles(&weak);
    assert_eq!(never_spurious(&mut weak.clone(), &BTreeSet::new()), 0);
    assert_eq!(
        never_spurious(&mut weak.clone(), &BTreeSet::from(["other".to_string()])),
        0
    );
    assert_eq!(never_spurious(&mut weak, &names), 1);
    assert_eq!(reads(&weak), 0);
    assert!(spurious_oracles(&weak).is_empty());
}
