//! Random scenarios (DESIGN.md 2.2) for a module's oracles.
//!
//! [`scenario`] gives every thread of a group values for every oracle of an
//! IR module (a kernel's, from `Kernel::module`, or a random one from
//! [`crate::cfg_gen`]), drawn from the oracle's domain (the values path enumeration
//! tries, so `switch` oracles hit their cases): a varying oracle gets a
//! list of up to `max_len` values per thread, a uniform oracle one list
//! shared by all threads (so the scenario passes `Scenario::validate`), an
//! invariant oracle one value per thread.

use crate::draw::Draw;
use arbitrary::Unstructured;
use convcheck_ir::scenario::{Scenario, ThreadValues};
use convcheck_ir::{Module, OracleClass};
use std::collections::BTreeMap;

/// A random scenario of `threads` threads for `module`'s oracle table.
pub fn scenario(
    module: &Module,
    threads: u32,
    max_len: usize,
    u: &mut Unstructured<'_>,
) -> Scenario {
    let mut d = Draw::new(u);
    let mut maps: Vec<BTreeMap<String, Vec<i64>>> = vec![BTreeMap::new(); threads as usize];
    for o in &module.oracles {
        let pick = |d: &mut Draw<'_, '_>, len: usize| -> Vec<i64> {
            (0..len)
                .map(|_| o.domain.get(d.below(o.domain.len())).copied().unwrap_or(0))
                .collect()
        };
        match o.class {
            OracleClass::Uniform => {
                let len = d.range(0, max_len);
                let vals = pick(&mut d, len);
                for m in &mut maps {
                    m.insert(o.name.clone(), vals.clone());
                }
            }
            OracleClass::Invariant => {
                for m in &mut maps {
                    let v = pick(&mut d, 1);
                    m.insert(o.name.clone(), v);
                }
            }
            OracleClass::Varying | OracleClass::Choice => {
                for m in &mut maps {
                    let len = d.range(0, max_len);
                    let v = pick(&mut d, len);
                    m.insert(o.name.clone(), v);
                }
            }
            OracleClass::UniformInvariant => {
                let v = pick(&mut d, 1);
                for m in &mut maps {
                    m.insert(o.name.clone(), v.clone());
                }
            }
            // Its values are named by argument lists the runs make: a
            // scenario without them reads 0 for every list.
            OracleClass::Function => {}
        }
    }
    Scenario {
        threads: maps.into_iter().map(ThreadValues).collect(),
    }
}
