//! Finding a simulation relation: the product of the two programs explored
//! from their entries, one node per pair of locations, each with a
//! candidate invariant that Houdini's elimination weakens until it is
//! inductive.
//!
//! A node's candidates are guessed when it is first reached
//! ([`super::atoms::candidates`]). Its edges are the pairs of segment
//! paths feasible under its current candidates; each edge leads to the
//! node of the locations its step reaches ([`super::obligations`]). A
//! candidate of a node that some incoming edge does not establish is
//! dropped (with z3's model, every candidate the model falsifies at once),
//! and the edges of a weakened node are computed again, which may reach
//! new nodes. Candidates only shrink and nodes are pairs of locations, so
//! the search ends. A pair of paths that differs (an event against
//! another, a return against an event) under the candidates differs
//! under every weaker invariant too, so it ends the search at once.
//!
//! What the search finds is not a proof by itself: [`super::recheck`]
//! checks the final relation again from scratch, with its convergence and
//! progress conditions.

use super::atoms::{candidates, Atom};
use super::exec::{Exec, Path, Pend, Shared, TState, Thread};
use super::obligations::{
    classify, compared, counts_grow, events_equal, loads_covered, memories_equal, next_defined,
    settle, Step,
};
use super::side::{Loc, Side};
use super::solve::{Work, Z3};
use super::{Fail, SimOptions};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::rc::Rc;
use std::time::Instant;
use z3::ast::{Ast, Bool, Dynamic, BV};
use z3::Model;

/// How many of a node's recent models a pair of paths is tried on before
/// its feasibility is asked of z3.
const MODELS_KEPT: usize = 8;

/// Whether `model` (with completion) makes `b` true: a witness that what
/// the model satisfies and `b` are satisfiable together.
pub(crate) fn satisfies(model: &Model, b: &Bool) -> bool {
    model.eval(b, true).and_then(|v| v.as_bool()) == Some(true)
}

/// Whether `b` is true by z3's rewriting alone (no query).
pub(crate) fn trivially_true(b: &Bool) -> bool {
    b.simplify().as_bool() == Some(true)
}

/// A node of the product.
pub(crate) struct Node {
    pub init: bool,
    pub loc: [Loc; 2],
    pub state: [TState; 2],
    pub atoms: Vec<Atom>,
    /// Per program, the pending loads its segments from here treat as
    /// unobservable (`exec`).
    pub silent: [BTreeSet<(usize, usize)>; 2],
    paths: Option<[Vec<Path>; 2]>,
}

/// An edge of the product: a pair of paths of its source node.
pub(crate) struct Edge {
    pub from: usize,
    pub to: Option<usize>,
    pub paths: [usize; 2],
    pub step: Step,
    /// The post-states (`obligations::settle`).
    pub post: Option<[TState; 2]>,
    /// A model of the source's candidates and the two guards when the
    /// edge was computed: a run along the edge, on which the candidates of
    /// its target that it falsifies are dropped without a query (the
    /// source only weakens until the edge is recomputed, so the model
    /// stays a run of the edge).
    witness: Option<Rc<Model>>,
}

/// The state of a node as fresh constants named after `prefix`.
pub(crate) fn node_state(
    prefix: &str,
    sides: [&Side; 2],
    locs: [Loc; 2],
    names: usize,
    clobbers: bool,
) -> ([TState; 2], Vec<Dynamic>) {
    let mut consts: Vec<Dynamic> = Vec::new();
    // One memory for both programs (`memory`: each step carries it).
    let mem = super::memory::fresh(&format!("{prefix}.mem"));
    consts.push(Dynamic::from_ast(&mem));
    // Likewise the epoch and the bytes' epochs, where clobbers are
    // modelled.
    let (calls, gens) = if clobbers {
        let calls = BV::new_const(format!("{prefix}.calls"), 64);
        let gens = super::memory::fresh_gens(&format!("{prefix}.gens"));
        consts.push(Dynamic::from_ast(&calls));
        consts.push(Dynamic::from_ast(&gens));
        (calls, gens)
    } else {
        (BV::from_u64(0, 64), super::memory::no_gens())
    };
    let mut make = |w: usize| -> TState {
        let side = sides[w];
        let l = locs[w];
        let tag = format!("{prefix}{}", if w == 0 { "r" } else { "t" });
        let mut vars = BTreeMap::new();
        for x in side.live_at(l) {
            let v = BV::new_const(format!("{tag}.%{x}"), 64);
            consts.push(Dynamic::from_ast(&v));
            vars.insert(x.clone(), v);
        }
        let cnt: Vec<BV> = (0..names)
            .map(|o| {
                let v = BV::new_const(format!("{tag}.cnt{o}"), 64);
                consts.push(Dynamic::from_ast(&v));
                v
            })
            .collect();
        let cyc: Vec<BV> = side.chains[l.block]
            .iter()
            .enumerate()
            .map(|(i, _)| {
                let v = BV::new_const(format!("{tag}.cyc{i}"), 64);
                consts.push(Dynamic::from_ast(&v));
                v
            })
            .collect();
        let mut pend = BTreeMap::new();
        for (x, one) in &side.load_locals {
            let on = Bool::new_const(format!("{tag}.pend.%{x}"));
            // The oracle of a local whose loads all read one is that one.
            let o = match one {
                Some(o) => BV::from_u64(*o as u64, 32),
                None => {
                    let o = BV::new_const(format!("{tag}.pendo.%{x}"), 32);
                    consts.push(Dynamic::from_ast(&o));
                    o
                }
            };
            let k = BV::new_const(format!("{tag}.pendk.%{x}"), 64);
            consts.push(Dynamic::from_ast(&on));
            consts.push(Dynamic::from_ast(&k));
            let owed = Bool::new_const(format!("{tag}.owed.%{x}"));
            let silent = Bool::new_const(format!("{tag}.silent.%{x}"));
            consts.push(Dynamic::from_ast(&owed));
            consts.push(Dynamic::from_ast(&silent));
            pend.insert(
                x.clone(),
                Pend {
                    on,
                    o,
                    k,
                    owed,
                    silent,
                },
            );
        }
        TState {
            vars,
            cnt,
            cyc,
            pend,
            mem: mem.clone(),
            calls: calls.clone(),
            gens: gens.clone(),
        }
    };
    let r = make(0);
    let t = make(1);
    ([r, t], consts)
}

/// The product being explored.
pub(crate) struct Search<'s, 'a> {
    pub sides: [&'s Side<'a>; 2],
    pub sh: &'s Shared,
    pub thr: &'s Thread,
    pub opts: &'s SimOptions,
    pub nodes: Vec<Node>,
    index: HashMap<(bool, Loc, Loc), usize>,
    pub edges: Vec<Edge>,
    /// Per node, its edges (indices into `edges`; recomputed when the
    /// node is weakened).
    out: Vec<Vec<usize>>,
    dirty: Vec<usize>,
    pub z3: Z3,
    /// Whether constant bounds are guessed at pairs of cycle headers
    /// (`atoms::candidates`): a second try, since each bound that fails
    /// costs rounds of weakening.
    pub bounds: bool,
    /// Whether segments are long (`exec::Exec::long`): a third try.
    pub long: bool,
    /// Whether byte-addressed loads are accesses only, not events
    /// (`exec::Exec::accesses`): the first tries where a program loads
    /// bytes.
    pub accesses: bool,
}

impl<'s, 'a> Search<'s, 'a> {
    pub fn new(
        sides: [&'s Side<'a>; 2],
        sh: &'s Shared,
        thr: &'s Thread,
        opts: &'s SimOptions,
        deadline: Instant,
        work: Work,
    ) -> Search<'s, 'a> {
        Search {
            sides,
            sh,
            thr,
            opts,
            nodes: Vec::new(),
            index: HashMap::new(),
            edges: Vec::new(),
            out: Vec::new(),
            dirty: Vec::new(),
            z3: Z3::new(deadline, work),
            bounds: false,
            long: false,
            accesses: false,
        }
    }

    fn exec(&self, w: usize, silent: &BTreeSet<(usize, usize)>) -> Exec<'_, 'a> {
        Exec {
            side: self.sides[w],
            sh: self.sh,
            thr: self.thr,
            max_paths: self.opts.max_paths,
            silent: silent.clone(),
            long: self.long,
            accesses: self.accesses,
        }
    }

    /// The node's candidate invariant as one formula.
    pub fn ctx(&self, n: usize) -> Bool {
        let node = &self.nodes[n];
        let parts: Vec<Bool> = node
            .atoms
            .iter()
            .filter_map(|a| a.holds([&node.state[0], &node.state[1]]))
            .collect();
        match parts.as_slice() {
            [] => Bool::from_bool(true),
            _ => Bool::and(&parts),
        }
    }

    fn paths(&mut self, n: usize) -> Result<(), Fail> {
        if self.nodes[n].paths.is_some() {
            return Ok(());
        }
        let node = &self.nodes[n];
        let r = self
            .exec(0, &node.silent[0])
            .segment(node.loc[0], node.state[0].clone())
            .map_err(|e| Fail::NotFound(format!("reference: {e}")))?;
        let t = self
            .exec(1, &node.silent[1])
            .segment(node.loc[1], node.state[1].clone())
            .map_err(|e| Fail::NotFound(format!("target: {e}")))?;
        self.nodes[n].paths = Some([r, t]);
        Ok(())
    }

    /// The node at `locs`, created with candidates guessed from the first
    /// path into it (`pre` states, guards, `post` states).
    fn node_at(
        &mut self,
        locs: [Loc; 2],
        first: ([&TState; 2], &[Bool], [&TState; 2]),
        from: &[Atom],
    ) -> Result<usize, Fail> {
        if let Some(&n) = self.index.get(&(false, locs[0], locs[1])) {
            return Ok(n);
        }
        if self.nodes.len() >= self.opts.max_nodes {
            return Err(Fail::NotFound(format!(
                "the product has more than {} pairs of program points",
                self.opts.max_nodes
            )));
        }
        self.z3.in_time()?;
        let id = self.nodes.len();
        let names = self.sh.names.len();
        let (state, _) = node_state(&format!("n{id}"), self.sides, locs, names, self.sh.clobbers);
        // Only what the node's own state can state (a condition over a
        // local no longer live here is not a candidate).
        let atoms = candidates(
            self.sides,
            locs,
            first,
            from,
            (names, self.bounds),
            self.thr,
        )
        .into_iter()
        .filter(|a| a.holds([&state[0], &state[1]]).is_some())
        .collect();
        self.nodes.push(Node {
            init: false,
            loc: locs,
            state,
            atoms,
            silent: Default::default(),
            paths: None,
        });
        self.out.push(Vec::new());
        self.index.insert((false, locs[0], locs[1]), id);
        self.dirty.push(id);
        Ok(id)
    }

    fn describe(&self, locs: [Loc; 2]) -> String {
        format!(
            "reference at {}, target at {}",
            self.sides[0].describe(locs[0]),
            self.sides[1].describe(locs[1])
        )
    }

    /// The edges of node `n` under its current candidates.
    fn compute_edges(&mut self, n: usize) -> Result<(), Fail> {
        self.z3.in_time()?;
        let new_edges = loop {
            self.paths(n)?;
            let ctx = self.ctx(n);
            self.z3.push(&ctx);
            let r = self.pairs(n);
            self.z3.pop();
            match r {
                Ok(edges) => break edges,
                // A pending load that one program has and the other does
                // not: treated as unobservable from here (the used-load
                // obligations make sure it is never used), and the pairs
                // computed again.
                Err(Fail::Silence(w, at)) => {
                    self.nodes[n].silent[w].insert(at);
                    self.nodes[n].paths = None;
                }
                Err(e) => return Err(e),
            }
        };
        // Replace the node's edges.
        let old = std::mem::take(&mut self.out[n]);
        for k in old {
            self.edges[k].to = None;
            self.edges[k].step = Step::Vacuous;
        }
        for e in new_edges {
            self.out[n].push(self.edges.len());
            self.edges.push(e);
        }
        Ok(())
    }

    /// The edges of node `n` under the candidates asserted.
    fn pairs(&mut self, n: usize) -> Result<Vec<Edge>, Fail> {
        let (nr, nt) = {
            let p = self.nodes[n].paths.as_ref().expect("paths computed");
            (p[0].len(), p[1].len())
        };
        let at = self.nodes[n].loc;
        let mut new_edges = Vec::new();
        // Models of the candidates asserted (recent last): a pair of paths
        // one of them runs along is feasible without a query.
        let mut models: Vec<Rc<Model>> = Vec::new();
        for i in 0..nr {
            for j in 0..nt {
                let (gr, gt) = {
                    let p = self.nodes[n].paths.as_ref().expect("paths computed");
                    (p[0][i].guard(), p[1][j].guard())
                };
                let both = Bool::and(&[&gr, &gt]);
                let known = models
                    .iter()
                    .rev()
                    .take(MODELS_KEPT)
                    .find(|m| satisfies(m, &both))
                    .cloned();
                let witness = match known {
                    Some(m) => {
                        self.z3.saved += 1;
                        m
                    }
                    None => match self.z3.sat(&[&gr, &gt], "a pair of paths")? {
                        None => continue,
                        Some(m) => {
                            let m = Rc::new(m);
                            models.push(m.clone());
                            m
                        }
                    },
                };
                // The target's `ub` path against a reference that goes on:
                // no difference where the reference's next segment cannot
                // be defined (`obligations::next_defined`).
                let next = {
                    let p = self.nodes[n].paths.as_ref().expect("paths computed");
                    next_defined(&p[0][i], &p[1][j], |loc, st| {
                        self.exec(0, &BTreeSet::new()).segment(loc, st).ok()
                    })
                };
                if let Some(d) = next {
                    let why = "the reference's next segment";
                    if self.z3.sat(&[&gr, &gt, &d], why)?.is_none() {
                        continue;
                    }
                }
                let (step, to, obligation, post) = {
                    let p = self.nodes[n].paths.as_ref().expect("paths computed");
                    let (r, t) = (&p[0][i], &p[1][j]);
                    let silence = |e: String| {
                        let node = &self.nodes[n];
                        for (w, p) in [(0, r), (1, t)] {
                            if let [ev] = p.events.as_slice() {
                                let site = (ev.site.block, ev.site.inst);
                                if ev.pending && !node.silent[w].contains(&site) {
                                    return Fail::Silence(w, site);
                                }
                            }
                        }
                        Fail::NotFound(format!("{e} ({})", self.describe(at)))
                    };
                    let (step, to) = classify(at, r, t).map_err(silence)?;
                    let (er, et) = compared(step, r, t);
                    let ev = events_equal(er, et).map_err(silence)?;
                    let node = &self.nodes[n];
                    let (used, post) = settle(step, r, t, [&node.state[0], &node.state[1]]);
                    let mut all = vec![ev, used];
                    if self.sh.races {
                        all.push(loads_covered(step, r, t));
                    }
                    if self.sh.memory_state() {
                        all.push(memories_equal(step, &post));
                    }
                    (step, to, Bool::and(&all), post)
                };
                // A difference under the candidates is one under every
                // weaker invariant. (An obligation true by rewriting, two
                // sides with the same events, needs no query.)
                if trivially_true(&obligation) {
                    self.z3.saved += 1;
                } else if self
                    .z3
                    .sat(&[&gr, &gt, &obligation.not()], "events of a pair of paths")?
                    .is_some()
                {
                    return Err(Fail::NotFound(format!(
                        "the events or used loads of a pair of paths may differ ({})",
                        self.describe(at)
                    )));
                }
                let mut e = Edge {
                    from: n,
                    to: None,
                    paths: [i, j],
                    step,
                    post: None,
                    witness: Some(witness),
                };
                if let Some(locs) = to {
                    let pre = self.nodes[n].state.clone();
                    let from = self.nodes[n].atoms.clone();
                    e.to = Some(self.node_at(
                        locs,
                        ([&pre[0], &pre[1]], &[gr, gt], [&post[0], &post[1]]),
                        &from,
                    )?);
                    e.post = Some(post);
                }
                new_edges.push(e);
            }
        }
        Ok(new_edges)
    }

    /// The nodes reachable from the launch node along the current edges,
    /// in increasing order.
    pub fn reachable(&self) -> Vec<usize> {
        let mut seen = vec![false; self.nodes.len()];
        let mut stack = vec![0usize];
        while let Some(n) = stack.pop() {
            if n >= seen.len() || seen[n] {
                continue;
            }
            seen[n] = true;
            for &k in &self.out[n] {
                if let Some(t) = self.edges[k].to {
                    stack.push(t);
                }
            }
        }
        (0..self.nodes.len()).filter(|&n| seen[n]).collect()
    }

    /// Drops the candidates of edge `k`'s target that the edge does not
    /// establish; whether any was dropped.
    fn weaken(&mut self, k: usize) -> Result<bool, Fail> {
        let (from, Some(to)) = (self.edges[k].from, self.edges[k].to) else {
            return Ok(false);
        };
        let Some(post) = self.edges[k].post.clone() else {
            return Ok(false);
        };
        let ctx = self.ctx(from);
        let guards = {
            let p = self.nodes[from].paths.as_ref().expect("paths computed");
            let e = &self.edges[k];
            [p[0][e.paths[0]].guard(), p[1][e.paths[1]].guard()]
        };
        let grow = {
            let pre = &self.nodes[from].state;
            counts_grow([&pre[0], &pre[1]], &post)
        };
        let base = Bool::and(&[ctx, guards[0].clone(), guards[1].clone(), grow]);
        let mut dropped = false;
        let mut witness = self.edges[k].witness.take();
        loop {
            let formulas: Vec<(usize, Bool)> = self.nodes[to]
                .atoms
                .iter()
                .enumerate()
                .map(|(i, a)| {
                    (
                        i,
                        a.holds([&post[0], &post[1]])
                            .unwrap_or_else(|| Bool::from_bool(false)),
                    )
                })
                .collect();
            if formulas.is_empty() {
                return Ok(dropped);
            }
            let all = Bool::and(&formulas.iter().map(|f| f.1.clone()).collect::<Vec<_>>());
            // First the edge's own run (no query), then z3's models.
            let model = match witness.take() {
                Some(m) if !satisfies(&m, &all) => {
                    self.z3.saved += 1;
                    m
                }
                _ if trivially_true(&all) => {
                    self.z3.saved += 1;
                    return Ok(dropped);
                }
                _ => match self.z3.sat(&[&base, &all.not()], "an invariant")? {
                    None => return Ok(dropped),
                    Some(m) => Rc::new(m),
                },
            };
            let keep: Vec<bool> = formulas
                .iter()
                .map(|(_, f)| {
                    model
                        .eval(f, true)
                        .and_then(|v| v.as_bool())
                        .unwrap_or(false)
                })
                .collect();
            if keep.iter().all(|&b| b) {
                // The model does not falsify any single atom (it should,
                // as it falsifies their conjunction): drop them one by one.
                return Err(Fail::Unknown(
                    "internal: a model falsifies the invariant but none of its atoms".into(),
                ));
            }
            let atoms = std::mem::take(&mut self.nodes[to].atoms);
            self.nodes[to].atoms = atoms
                .into_iter()
                .zip(keep)
                .filter_map(|(a, k)| k.then_some(a))
                .collect();
            dropped = true;
        }
    }

    /// Explores the product and weakens the candidates until they are
    /// inductive.
    pub fn run(&mut self) -> Result<(), Fail> {
        let names = self.sh.names.len();
        let launch = [
            self.exec(0, &BTreeSet::new())
                .launch(names)
                .map_err(|e| Fail::NotFound(format!("reference: {e}")))?,
            self.exec(1, &BTreeSet::new())
                .launch(names)
                .map_err(|e| Fail::NotFound(format!("target: {e}")))?,
        ];
        let locs = [self.sides[0].entry(), self.sides[1].entry()];
        self.nodes.push(Node {
            init: true,
            loc: locs,
            state: launch,
            atoms: Vec::new(),
            silent: Default::default(),
            paths: None,
        });
        self.out.push(Vec::new());
        self.index.insert((true, locs[0], locs[1]), 0);
        self.dirty.push(0);
        // The edges not checked since they were computed: an edge whose
        // source is unchanged since it was checked needs no new check (a
        // target that is weakened only gets easier to establish), and an
        // edge whose source changed is replaced (`compute_edges`).
        let mut pending: Vec<usize> = Vec::new();
        loop {
            while let Some(n) = self.dirty.pop() {
                let before = self.edges.len();
                self.compute_edges(n)?;
                pending.extend(before..self.edges.len());
            }
            if pending.is_empty() {
                return Ok(());
            }
            let mut weakened = Vec::new();
            for k in std::mem::take(&mut pending) {
                if self.weaken(k)? {
                    if let Some(to) = self.edges[k].to {
                        weakened.push(to);
                    }
                }
            }
            weakened.sort_unstable();
            weakened.dedup();
            self.dirty = weakened;
        }
    }
}
