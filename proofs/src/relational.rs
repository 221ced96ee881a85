//! LLVM's relational definition of maximal converged-with, for two threads,
//! written again here from the definition (ConvergenceAndUniformity,
//! "Maximal Convergence"), independently of the z3 encoding in
//! `convcheck-smt` and of the interpreter's keys.
//!
//! Two runs are block sequences `p1`, `p2` of one function. A candidate
//! relation `R` is a set of pairs `(i, j)` with `p1[i] == p2[j]`
//! (instances of one block in different threads). It is a solution iff:
//!
//! - **one partner per thread**: no two pairs share `i` or `j`
//!   (transitivity would converge two instances of one thread);
//! - **acyclicity**: convergence-before, the closure of sequenced-before
//!   and the converged pairs, is a strict partial order. With two threads
//!   a cycle needs two converged pairs in crossed order, so this is: no
//!   `(a, b)`, `(c, d)` in `R` with `c > a` and `d < b`;
//! - **the clause**: `(i, j)` is in `R` iff for every cycle containing
//!   `X = p1[i]`, with header `H`, every instance `h < i` of `H` in `p1` is
//!   convergence-before `X2 = (2, j)`, and every instance `h < j` of `H` in
//!   `p2` is convergence-before `X1 = (1, i)`, computed without the pair
//!   `(i, j)` itself. With two threads, `(1, h)` is convergence-before
//!   `(2, q)` iff some converged pair `(y1, y2)` has `h <= y1` and
//!   `y2 <= q`, at least one strictly (the closed form of the notes in
//!   `convcheck-smt`'s `encode` module, re-derived: a path from thread 1
//!   to thread 2 crosses over through a converged pair).
//!
//! [`satisfies`] checks one relation; [`solutions`] enumerates every
//! solution (backtracking over the candidate pairs, pruned by the two
//! axioms), so that uniqueness is decided, not assumed.

use std::collections::BTreeSet;

/// A candidate converged-with relation between two runs.
pub type Rel = BTreeSet<(usize, usize)>;

/// `(1, h)` convergence-before `(2, q)` in `r` without the pair `ex`.
fn cb12(r: &Rel, ex: (usize, usize), h: usize, q: usize) -> bool {
    r.iter()
        .any(|&(y1, y2)| (y1, y2) != ex && h <= y1 && y2 <= q && (h < y1 || y2 < q))
}

/// `(2, h)` convergence-before `(1, q)` in `r` without the pair `ex`.
fn cb21(r: &Rel, ex: (usize, usize), h: usize, q: usize) -> bool {
    r.iter()
        .any(|&(y1, y2)| (y1, y2) != ex && h <= y2 && y1 <= q && (h < y2 || y1 < q))
}

/// What the clause says of the candidate `(i, j)` given `r`.
fn clause(p1: &[usize], p2: &[usize], headers: &[Vec<usize>], r: &Rel, i: usize, j: usize) -> bool {
    let x = p1[i];
    headers[x].iter().all(|&hd| {
        (0..i)
            .filter(|&h| p1[h] == hd)
            .all(|h| cb12(r, (i, j), h, j))
            && (0..j)
                .filter(|&h| p2[h] == hd)
                .all(|h| cb21(r, (i, j), h, i))
    })
}

/// Every pair of instances of one block.
pub fn candidates(p1: &[usize], p2: &[usize]) -> Vec<(usize, usize)> {
    let mut v = Vec::new();
    for (i, a) in p1.iter().enumerate() {
        for (j, b) in p2.iter().enumerate() {
            if a == b {
                v.push((i, j));
            }
        }
    }
    v
}

fn axioms_allow(r: &Rel, (i, j): (usize, usize)) -> bool {
    r.iter()
        .all(|&(a, b)| a != i && b != j && !(a > i && b < j) && !(a < i && b > j))
}

/// Checks `r` against the definition; returns the first failing fact.
pub fn satisfies(
    p1: &[usize],
    p2: &[usize],
    headers: &[Vec<usize>],
    r: &Rel,
) -> Result<(), String> {
    for &(i, j) in r {
        if p1[i] != p2[j] {
            return Err(format!("({i}, {j}) relates different blocks"));
        }
        let mut rest = r.clone();
        rest.remove(&(i, j));
        if !axioms_allow(&rest, (i, j)) {
            return Err(format!("({i}, {j}) breaks one-partner or acyclicity"));
        }
    }
    for (i, j) in candidates(p1, p2) {
        let want = clause(p1, p2, headers, r, i, j);
        if want != r.contains(&(i, j)) {
            return Err(format!(
                "the clause says ({i}, {j}) of block {} is {}",
                p1[i],
                if want { "converged" } else { "not converged" }
            ));
        }
    }
    Ok(())
}

/// Every solution, at most `limit` (enough to decide uniqueness with 2).
pub fn solutions(p1: &[usize], p2: &[usize], headers: &[Vec<usize>], limit: usize) -> Vec<Rel> {
    let cands = candidates(p1, p2);
    let mut out = Vec::new();
    let mut r = Rel::new();
    search(p1, p2, headers, &cands, 0, &mut r, &mut out, limit);
    out
}

fn search(
    p1: &[usize],
    p2: &[usize],
    headers: &[Vec<usize>],
    cands: &[(usize, usize)],
    k: usize,
    r: &mut Rel,
    out: &mut Vec<Rel>,
    limit: usize,
) {
    if out.len() >= limit {
        return;
    }
    if k == cands.len() {
        if satisfies(p1, p2, headers, r).is_ok() {
            out.push(r.clone());
        }
        return;
    }
    let c = cands[k];
    // A block in no cycle: the clause forces the pair in.
    let forced = headers[p1[c.0]].is_empty();
    if axioms_allow(r, c) {
        r.insert(c);
        search(p1, p2, headers, cands, k + 1, r, out, limit);
        r.remove(&c);
    } else if forced {
        return;
    }
    if !forced {
        search(p1, p2, headers, cands, k + 1, r, out, limit);
    }
}

/// The key rule of DESIGN.md 2.3, written again over block sequences: the
/// key of position `p` (block `X`) is `X` followed by the key of the most
/// recent position strictly before `p` whose block heads a cycle
/// containing `X` (none: `X` alone). `headers[X]` lists those headers.
pub fn keys(seq: &[usize], headers: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let mut keys: Vec<Vec<usize>> = Vec::with_capacity(seq.len());
    for (p, &x) in seq.iter().enumerate() {
        let prev = (0..p).rev().find(|&q| headers[x].contains(&seq[q]));
        let mut k = vec![x];
        if let Some(q) = prev {
            k.extend_from_slice(&keys[q]);
        }
        keys.push(k);
    }
    keys
}

/// The relation the keys give: equal keys.
pub fn key_relation(k1: &[Vec<usize>], k2: &[Vec<usize>]) -> Rel {
    let mut r = Rel::new();
    for (i, a) in k1.iter().enumerate() {
        for (j, b) in k2.iter().enumerate() {
            if a == b {
                r.insert((i, j));
            }
        }
    }
    r
}
