//! Scenarios (DESIGN.md 2.2): the oracle values of every thread of a group.
//!
//! A scenario fixes, for each thread, the values its oracles return: thread
//! `t`'s k-th evaluation of varying oracle `c` returns `values[t][c][k]`;
//! values past the end of a list are 0 (false). Uniform oracles must agree
//! across threads at equal `k` and invariant oracles return their first
//! value at every evaluation.
//!
//! On the command line one `--thread` flag gives one thread, in `tid`
//! order: `--thread 'cond1=1,0 cond2=0'`.
//!
//! The **default scenario** (used by `convcheck run` without `--thread`)
//! has two threads; thread `t`'s k-th evaluation (from 0) of a varying
//! oracle returns 1 for `k < t` and 0 after (thread 0 always reads 0,
//! thread 1 reads one 1 first), uniform oracles return 1 at their first
//! evaluation and 0 after in every thread, and invariant oracles are 1 in
//! thread 0 and 0 elsewhere. It ends every loop whose exit depends on an
//! oracle, and the two threads diverge at their first varying decision.

use crate::exec::{OracleSource, Stop};
use crate::ops::{OracleClass, OracleId};
use crate::Module;
use std::collections::BTreeMap;

/// One thread's oracle values, by oracle name.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct ThreadValues(pub BTreeMap<String, Vec<i64>>);

/// A group of threads and their values.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Scenario {
    /// One entry per thread, in `tid` order.
    pub threads: Vec<ThreadValues>,
}

impl ThreadValues {
    /// Parses `name=v0,v1,... name2=...` (`true`/`false` are 1/0).
    pub fn parse(text: &str) -> Result<ThreadValues, String> {
        let mut map = BTreeMap::new();
        for part in text.split_whitespace() {
            let Some((name, vals)) = part.split_once('=') else {
                return Err(format!("expected `name=v0,v1,...`, found `{part}`"));
            };
            if name.is_empty() {
                return Err(format!("expected an oracle name before `=` in `{part}`"));
            }
            let mut list = Vec::new();
            for v in vals.split(',').filter(|v| !v.is_empty()) {
                let x = match v {
                    "true" => 1,
                    "false" => 0,
                    _ => v.parse::<i64>().map_err(|_| {
                        format!("expected an integer value for `{name}`, found `{v}`")
                    })?,
                };
                list.push(x);
            }
            if map.insert(name.to_string(), list).is_some() {
                return Err(format!("oracle `{name}` is given twice for one thread"));
            }
        }
        Ok(ThreadValues(map))
    }

    /// Renders as `--thread` text.
    pub fn render(&self) -> String {
        self.0
            .iter()
            .map(|(k, v)| {
                let vals: Vec<String> = v.iter().map(|x| x.to_string()).collect();
                format!("{k}={}", vals.join(","))
            })
            .collect::<Vec<_>>()
            .join(" ")
    }
}

impl Scenario {
    /// Checks that every name is an oracle of the kernel and that uniform
    /// oracles agree across threads.
    pub fn validate(&self, module: &Module) -> Result<(), String> {
        for (t, tv) in self.threads.iter().enumerate() {
            for name in tv.0.keys() {
                if module.oracle(name).is_none() {
                    let known: Vec<&str> = module.oracles.iter().map(|o| o.name.as_str()).collect();
                    return Err(format!(
                        "--thread {t}: `{name}` is not an oracle of this function (oracles: {})",
                        if known.is_empty() {
                            "none".to_string()
                        } else {
                            known.join(", ")
                        }
                    ));
                }
            }
        }
        for o in &module.oracles {
            if o.class != OracleClass::Uniform {
                continue;
            }
            let lists: Vec<Vec<i64>> = self
                .threads
                .iter()
                .map(|t| t.0.get(&o.name).cloned().unwrap_or_default())
                .collect();
            let len = lists.iter().map(Vec::len).max().unwrap_or(0);
            for k in 0..len {
                let vals: Vec<i64> = lists
                    .iter()
                    .map(|l| l.get(k).copied().unwrap_or(0))
                    .collect();
                if vals.windows(2).any(|w| w[0] != w[1]) {
                    return Err(format!(
                        "uniform oracle `{}` has different values across threads at evaluation {k}",
                        o.name
                    ));
                }
            }
        }
        Ok(())
    }

    /// The default scenario (see the module documentation) for a kernel.
    pub fn default_for(module: &Module, threads: u32) -> Scenario {
        // The lists are long enough for any bounded run; values past them
        // are 0 anyway, which is what the rule says.
        let mut out = Vec::new();
        for t in 0..threads {
            let mut map = BTreeMap::new();
            for o in &module.oracles {
                let vals = match o.class {
                    OracleClass::Varying => vec![1; t as usize],
                    OracleClass::Uniform => vec![1],
                    OracleClass::Invariant => vec![i64::from(t == 0)],
                };
                map.insert(o.name.clone(), vals);
            }
            out.push(ThreadValues(map));
        }
        Scenario { threads: out }
    }
}

/// Reads a thread's values from a [`ThreadValues`].
pub struct ValuesSource<'a>(pub &'a ThreadValues);

impl OracleSource for ValuesSource<'_> {
    fn value(&mut self, module: &Module, oracle: OracleId, k: u32) -> Result<i64, Stop> {
        let name = &module.oracles[oracle].name;
        Ok(self
            .0
             .0
            .get(name)
            .and_then(|l| l.get(k as usize))
            .copied()
            .unwrap_or(0))
    }
}
