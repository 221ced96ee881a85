//! The reference's choices (`freeze` of `undef`, a load of an
//! uninitialised slot) that the single-thread comparison may search:
//! their names, the constants tried for them and the settings of a search
//! (split from `observe.rs`, which compares the events).

use super::*;
use crate::Module;

/// The names of `module`'s own choices (`OracleClass::Choice`: a
/// reference's `freeze undef`), the oracles [`choice_settings`] varies.
pub fn choice_names(module: &Module) -> std::collections::BTreeSet<&str> {
    module
        .oracles
        .iter()
        .filter(|o| o.class == crate::OracleClass::Choice)
        .map(|o| o.name.as_str())
        .collect()
}

/// The integer constants of `module`'s expressions below 2^32 in
/// magnitude (at most [`MAX_CHOICE_CONSTANTS`], the smallest in
/// magnitude first): candidates for a reference's choice besides the
/// values a target shows ([`choice_settings`]). A slot stored a constant
/// on one path and read uninitialised on another (SROA's `phi [5, undef]`
/// folded to 5, then arithmetic: review3 H3) needs that constant.
pub fn choice_constants(module: &Module) -> Vec<i64> {
    let mut all = std::collections::BTreeSet::new();
    for f in &module.functions {
        for b in &f.blocks {
            for e in b.exprs() {
                e.walk(&mut |x| {
                    if let crate::Expr::Const(c) = x {
                        if c.unsigned_abs() < 1 << 32 {
                            all.insert(*c);
                        }
                    }
                });
            }
        }
    }
    let mut out: Vec<i64> = all.into_iter().collect();
    out.sort_by_key(|c| (c.unsigned_abs(), *c));
    out.truncate(MAX_CHOICE_CONSTANTS);
    out
}

/// How many of a module's constants [`choice_constants`] gives.
pub const MAX_CHOICE_CONSTANTS: usize = 32;

/// The settings of a reference's own choices (`OracleClass::Choice`,
/// `freeze undef`) to try where a target run's observed events `b` differ
/// from the reference run on `scenario`: for each candidate value (0, 1,
/// -1 and every value `b` shows, also read as a signed 8, 16 or 32-bit
/// value, then the reference's `constants`, [`choice_constants`]), every
/// choice `scenario` holds set to it, then each alone. At
/// most `max` settings; `choices` are the reference's choice oracles by
/// name. A run of the reference on one of them whose events are `b` shows
/// that the target's run is a behaviour the reference allows (the
/// source's nondeterminism read angelically, as Alive2 does).
pub fn choice_settings(
    scenario: &crate::scenario::ThreadValues,
    choices: &std::collections::BTreeSet<&str>,
    b: &[Obs],
    constants: &[i64],
    max: usize,
) -> Vec<crate::scenario::ThreadValues> {
    let mut candidates: std::collections::BTreeSet<i64> = [0, 1, -1].into();
    for o in b {
        match o {
            Obs::Op { args, .. } | Obs::OpNoMemory { args, .. } => {
                candidates.extend(args.iter().copied())
            }
            Obs::Barrier {
                predicate: Some(v), ..
            }
            | Obs::Mem { value: Some(v), .. } => {
                candidates.insert(*v);
            }
            Obs::Byte { value, .. } => {
                candidates.insert(i64::from(*value));
            }
            _ => {}
        }
    }
    // The values of the stores the bytes came from: every run of 2, 4 or
    // 8 bytes of one segment, little-endian, from each byte.
    let bytes: std::collections::BTreeMap<(u32, i64), u8> = b
        .iter()
        .filter_map(|o| match o {
            Obs::Byte {
                seg, addr, value, ..
            } => Some(((*seg, *addr), *value)),
            _ => None,
        })
        .collect();
    for &(seg, addr) in bytes.keys() {
        for w in [2i64, 4, 8] {
            let run: Option<Vec<u8>> = (0..w)
                .map(|k| bytes.get(&(seg, addr.wrapping_add(k))).copied())
                .collect();
            if let Some(run) = run {
                let v = run
                    .iter()
                    .rev()
                    .fold(0u64, |acc, b| acc << 8 | u64::from(*b));
                candidates.insert(v as i64);
            }
        }
    }
    for v in candidates.clone() {
        for w in [8u32, 16, 32] {
            if (1i64 << (w - 1)..1i64 << w).contains(&v) {
                candidates.insert(v - (1i64 << w));
            }
        }
    }
    let reads: Vec<(&String, usize)> = scenario
        .0
        .iter()
        .filter(|(n, _)| choices.contains(n.as_str()))
        .flat_map(|(n, vals)| (0..vals.len()).map(move |k| (n, k)))
        .collect();
    let mut out = Vec::new();
    if reads.is_empty() {
        return out;
    }
    let set = |only: Option<usize>, c: i64| {
        let mut v = scenario.clone();
        for (i, (n, k)) in reads.iter().enumerate() {
            if only.is_none_or(|o| o == i) {
                if let Some(slot) = v.0.get_mut(*n).and_then(|l| l.get_mut(*k)) {
                    *slot = c;
                }
            }
        }
        v
    };
    // The target's values first, then the reference's constants.
    let mut order: Vec<i64> = candidates.iter().copied().collect();
    order.extend(constants.iter().filter(|c| !candidates.contains(c)));
    for c in order {
        out.push(set(None, c));
        if reads.len() > 1 {
            out.extend((0..reads.len()).map(|i| set(Some(i), c)));
        }
        if out.len() >= max {
            out.truncate(max);
            break;
        }
    }
    out
}
