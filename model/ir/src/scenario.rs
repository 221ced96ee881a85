//! Scenarios (DESIGN.md 2.2): the oracle values of every thread of a group.
//!
//! A scenario fixes, for each thread, the values its oracles return: thread
//! `t`'s k-th evaluation of oracle `c` returns `values[t][c][k]`; values
//! past the end of a list are 0 (false). Invariant oracles return their
//! first value at every evaluation. Uniform oracles mean what LLVM's
//! UniformityAnalysis means: threads that evaluate one in the same
//! converged dynamic instance (equal read sites, [`crate::exec::ReadSite`])
//! read the same value; threads that reach it in different instances (an
//! extra evaluation in a divergent branch, another iteration) may read
//! different values. Whether a scenario respects that is known once its
//! threads have run ([`uniform_conflict`]). Uniform-invariant oracles are
//! both: each thread reads its first value at every evaluation, and all
//! threads that read one read the same value (one site for the whole run,
//! [`crate::exec::ReadSite::whole_run`]).
//!
//! Values are integers; [`domains`] decides which ones are worth trying.
//!
//! On the command line one `--thread` flag gives one thread, in `tid`
//! order: `--thread 'cond1=1,0 cond2=0'`.
//!
//! The **default scenario** (used by `convcheck run` without `--thread`)
//! has two threads; thread `t`'s k-th evaluation (from 0) of a varying
//! oracle returns 1 for `k < t` and 0 after (thread 0 always reads 0,
//! thread 1 reads one 1 first), uniform oracles return 1 at their first
//! evaluation and 0 after in every thread, invariant oracles are 1 in
//! thread 0 and 0 elsewhere, and uniform-invariant oracles are 1 in every
//! thread. It ends every loop whose exit depends on an
//! oracle, and the two threads diverge at their first varying decision.

pub mod domains;

use crate::exec::{OracleSource, ReadSite, Stop, Trace};
use crate::ops::{OracleClass, OracleId};
use crate::Module;
use std::collections::{BTreeMap, HashMap};

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
    /// Parses `name=v0,v1,... name2=...` (`true`/`false` are 1/0). Names
    /// are oracle names as reports print them, which may hold spaces and
    /// operators inside brackets (`shared[(tid + 1) % N]`): a name ends at
    /// the first `=` outside brackets that is not part of an operator
    /// (`==`, `!=`, `<=`, `>=`); its values end at the next space.
    pub fn parse(text: &str) -> Result<ThreadValues, String> {
        let mut map = BTreeMap::new();
        let mut rest = text.trim_start();
        while !rest.is_empty() {
            let word_end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            let Some(sep) = separator(rest) else {
                return Err(format!(
                    "expected `name=v0,v1,...`, found `{}`",
                    &rest[..word_end]
                ));
            };
            let name = rest[..sep].trim();
            let after = &rest[sep + 1..];
            let end = after.find(char::is_whitespace).unwrap_or(after.len());
            let vals = &after[..end];
            rest = after[end..].trim_start();
            if name.is_empty() {
                return Err(format!("expected an oracle name before `=` in `={vals}`"));
            }
            let list = values(vals)
                .map_err(|v| format!("expected an integer value for `{name}`, found `{v}`"))?;
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

/// The values of a `--thread` entry (`1,0,true`), or the first text that
/// is not a value.
fn values(text: &str) -> Result<Vec<i64>, String> {
    let mut list = Vec::new();
    for v in text.split(',').filter(|v| !v.is_empty()) {
        list.push(match v {
            "true" => 1,
            "false" => 0,
            _ => v.parse::<i64>().map_err(|_| v.to_string())?,
        });
    }
    Ok(list)
}

/// Where the name of the first entry of `text` ends: the first `=` outside
/// brackets and parentheses that is not part of `==`, `!=`, `<=` or `>=`.
fn separator(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut depth = 0i32;
    for (i, &c) in bytes.iter().enumerate() {
        match c {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            b'=' if depth <= 0
                && !(i > 0 && matches!(bytes[i - 1], b'=' | b'!' | b'<' | b'>'))
                && bytes.get(i + 1) != Some(&b'=') =>
            {
                return Some(i);
            }
            _ if depth <= 0 && c.is_ascii_whitespace() => return None,
            _ => {}
        }
    }
    None
}

/// Whether `name` has the shape of a memory location's name: `PLACE[OFF]:N`
/// or `PLACE[OFF]:N@PHASE`, either followed by `~K` after a call that may
/// write memory (`crate::exec::memory::clobbered_location_name`).
fn is_location_name(name: &str) -> bool {
    if let Some((base, k)) = name.rsplit_once('~') {
        if !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()) && !base.contains('(') {
            return is_location_name(base);
        }
    }
    // A function oracle's value for one argument list: `f(3,-1)`.
    if let Some(inside) = name.strip_suffix(')').and_then(|n| n.split_once('(')) {
        let int = |s: &str| s.parse::<i64>().is_ok();
        return inside.1.is_empty() || inside.1.split(',').all(int);
    }
    let Some((place, rest)) = name.rsplit_once("]:") else {
        return false;
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    place.contains('[')
        && match rest.split_once('@') {
            Some((n, p)) => digits(n) && digits(p),
            None => digits(rest),
        }
}

impl Scenario {
    /// Checks that every name is an oracle of the kernel or a memory
    /// location (`@buf[0]:1@0`, one byte: `crate::exec::memory::location_name`).
    /// (Whether uniform oracles agree where they must depends on the runs:
    /// see [`uniform_conflict`].)
    pub fn validate(&self, module: &Module) -> Result<(), String> {
        for (t, tv) in self.threads.iter().enumerate() {
            for name in tv.0.keys() {
                if module.oracle(name).is_none() && !is_location_name(name) {
                    let known: Vec<&str> = module.oracles.iter().map(|o| o.name.as_str()).collect();
                    return Err(format!(
                        "--thread {t}: `{name}` is not an oracle of this function (oracles: {}; \
                         memory locations are named per byte, as `@buf[0]:1@0`)",
                        if known.is_empty() {
                            "none".to_string()
                        } else {
                            known.join(", ")
                        }
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
                    OracleClass::Varying | OracleClass::Choice => vec![1; t as usize],
                    OracleClass::Uniform => vec![1],
                    OracleClass::Invariant => vec![i64::from(t == 0)],
                    OracleClass::UniformInvariant => vec![1],
                    OracleClass::Function => Vec::new(),
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

    fn memory(&mut self, _module: &Module, _oracle: OracleId, name: &str) -> Result<i64, Stop> {
        Ok(self
            .0
             .0
            .get(name)
            .and_then(|l| l.first())
            .copied()
            .unwrap_or(0))
    }

    fn memory_bytes(
        &mut self,
        module: &Module,
        oracle: OracleId,
        names: &[(u32, String)],
    ) -> Result<Vec<u8>, Stop> {
        names
            .iter()
            .map(|(_, n)| Ok(self.memory(module, oracle, n)? as u8))
            .collect()
    }
}

/// The uniform reads of a run by site: site to (oracle, value).
pub fn uniform_reads(trace: &Trace) -> HashMap<&ReadSite, (OracleId, i64)> {
    trace
        .uniform
        .iter()
        .filter_map(|(i, site)| trace.reads.get(*i).map(|&(o, _, v)| (site, (o, v))))
        .collect()
}

/// The first uniform oracle that two threads read with different values in
/// one converged dynamic instance (equal read sites), if any: such runs
/// are not a scenario of the program (DESIGN.md 2.2). Returns the oracle
/// and the two values.
pub fn uniform_conflict(a: &Trace, b: &Trace) -> Option<(OracleId, i64, i64)> {
    let (small, large, swap) = if a.uniform.len() <= b.uniform.len() {
        (a, b, false)
    } else {
        (b, a, true)
    };
    if small.uniform.is_empty() {
        return None;
    }
    let index = uniform_reads(large);
    for (i, site) in &small.uniform {
        let Some(&(o, _, v)) = small.reads.get(*i) else {
            continue;
        };
        if let Some(&(o2, w)) = index.get(site) {
            if o == o2 && v != w {
                return Some(if swap { (o, w, v) } else { (o, v, w) });
            }
        }
    }
    None
}

/// The first uniform-invariant oracle that two threads read with
/// different values, each thread given by all its runs (a reference run
/// and a target run read from one thread's values): one value for the
/// whole run, in every program. Returns the oracle and the two values.
pub fn whole_run_conflict(a: &[&Trace], b: &[&Trace]) -> Option<(OracleId, i64, i64)> {
    let values = |runs: &[&Trace]| -> HashMap<OracleId, i64> {
        let mut out = HashMap::new();
        for t in runs {
            for (i, site) in &t.uniform {
                if let Some(&(o, _, v)) = t.reads.get(*i) {
                    if *site == ReadSite::whole_run(o) {
                        out.insert(o, v);
                    }
                }
            }
        }
        out
    };
    let (x, y) = (values(a), values(b));
    let mut found: Vec<(OracleId, i64, i64)> = x
        .iter()
        .filter_map(|(&o, &v)| y.get(&o).filter(|&&w| w != v).map(|&w| (o, v, w)))
        .collect();
    found.sort_unstable();
    found.first().copied()
}

#[cfg(test)]
mod tests {
    use super::ThreadValues;

    #[test]
    fn thread_values_read_back_names_with_spaces() {
        let v = ThreadValues::parse("c=0,1 shared[(tid + 1) % N]=3 global[tid == 2]=-1 p=")
            .expect("parses");
        assert_eq!(v.0["c"], vec![0, 1]);
        assert_eq!(v.0["shared[(tid + 1) % N]"], vec![3]);
        assert_eq!(v.0["global[tid == 2]"], vec![-1]);
        assert_eq!(v.0["p"], Vec::<i64>::new());
        assert_eq!(ThreadValues::parse(&v.render()), Ok(v));
        assert_eq!(
            ThreadValues::parse("a=1,x b=2"),
            Err("expected an integer value for `a`, found `x`".to_string())
        );
        assert_eq!(
            ThreadValues::parse("a=1 b"),
            Err("expected `name=v0,v1,...`, found `b`".to_string())
        );
    }
}
