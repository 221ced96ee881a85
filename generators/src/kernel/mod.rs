//! The random kernel generator: valid by construction, bounded by a path
//! budget, deterministic in its input.
//!
//! [`generate_tree`] builds a [`File`] of up to [`Config::max_helpers`]
//! helper functions and a `kernel` function from decisions read through
//! [`Draw`]. Statements are chosen from a table of (predicate, weight,
//! generator) entries, as wasm-smith does: an entry whose predicate fails in
//! the current context is never drawn, so what comes out always passes
//! `Kernel::new`:
//!
//! - `break` only in a loop or `switch`, `continue` only in a loop;
//! - every `goto` has its label, and labels are unique in the file. A
//!   forward `goto` registers a pending label with one of its enclosing
//!   blocks (a *frame*), and the label is put on a statement of that block
//!   generated after the `goto`, or on an empty statement at the block's
//!   end, so the jump enters no statement; a *jump into a loop* hands the
//!   pending label to a loop generated directly in that block, which puts it
//!   in its body. So no jump ever enters a `[[clang::noconvergent]]`
//!   statement, and the only statements jumps enter are loops;
//! - a backward `goto` only closes a *goto cycle*: `L: s1; ...; sn;
//!   if (G) goto L;` in one block;
//! - every convergent operation (observation point, barrier, helper call,
//!   external convergent call) is named `// O<n>`, unique in the file, so
//!   instances match across a transform; names, labels (`L<n>`), loop
//!   counters (`i<n>`) and oracles (`c<n>`, `u<n>`, `k<n>`, `s<n>`, `w<n>`) never
//!   clash;
//! - helper functions only call helpers generated before them, and every
//!   helper is created by the call that first uses it, so the call graph is
//!   acyclic and `kernel` is the only root.
//!
//! **Termination.** Every loop and goto cycle is controlled by a *guard*
//! (see the `exprs` module): every evaluation reads a varying or uniform
//! oracle first, and that oracle alone can end the repetition. The only
//! exceptions are counted loops `for (i = 0; i < K; i++)` with `K` at most
//! the iteration bound, and with `Config::tid_bounds` counted loops
//! `for (i = 0; i < tid + K; i++)`, finite in every group. `for (;;)` always starts its body with
//! `if (G) break;`. So a run that would pass the iteration bound has made a
//! decision and is cut (`Stop::Cut`), never out of bounds, and the run
//! whose guards all choose to stop stays within the bound.
//!
//! **Path budget (fuel).** Each generator returns an upper bound on the
//! number of per-thread paths through what it made, assuming every loop and
//! goto cycle runs at most [`Config::iteration_bound`] + 1 times: a sequence
//! multiplies, a condition with `q` outcomes multiplies by `q` the larger
//! branch, a loop with guard outcomes `q` and body bound `p` gives
//! `q * S(q p)` with `S(x) = 1 + x + ... + x^I`. Every generator is given
//! the budget left and stays within it, so the whole kernel stays within
//! [`Config::max_paths`]. The bound ignores that `goto`, `break` and
//! `return` cut paths short, so real counts are far lower.

mod build;
mod exprs;
mod stmts;

use crate::config::Config;
use crate::draw::Draw;
use build::*;
use convcheck_lang::syntax::ast::{
    AssignOp, BinOp, CaseLabel, ExprKind, File, Function, Item, Param, Place, Space, Stmt, StmtKind,
};
use convcheck_lang::Span;

/// Builds a kernel file from `d`'s decisions, with ids in the parser's
/// pre-order and default spans (see [`crate::generate`] for the version
/// with the spans of its printed text).
pub fn generate_tree(config: &Config, d: Draw<'_, '_>) -> File {
    let mut g = Gen {
        cfg: config,
        d,
        statements: 0,
        observations: 0,
        labels: 0,
        counters: 0,
        oracles: [0; 5],
        helpers: Vec::new(),
        helper_names: 0,
        done: Vec::new(),
        f: FnState::default(),
    };
    let budget = f64::from(config.max_paths.max(1));
    let (body, _) = g.list(Ctx::TOP, budget, Vec::new(), false);
    let state = std::mem::take(&mut g.f);
    let kernel = function("kernel", None, body, state.counters);
    let mut items: Vec<Item> = g.done.into_iter().map(Item::Function).collect();
    items.push(Item::Function(kernel));
    let mut file = File { items };
    crate::analysis::renumber(&mut file);
    file
}

/// The generator's state.
pub(crate) struct Gen<'c, 'u, 'd> {
    cfg: &'c Config,
    d: Draw<'u, 'd>,
    /// Statements made so far (fuel, against `max_statements`).
    statements: usize,
    /// Named convergent operations so far.
    observations: usize,
    labels: usize,
    counters: usize,
    /// Names drawn so far per oracle prefix `c`, `u`, `k`, `s`, `w`.
    oracles: [usize; 5],
    /// Helpers made so far.
    helpers: Vec<Helper>,
    /// Helper names handed out (a helper gets its name when it starts).
    helper_names: usize,
    /// Finished helper functions, callees before callers.
    done: Vec<Function>,
    /// The function being generated.
    f: FnState,
}

struct Helper {
    name: String,
    param: bool,
    paths: f64,
}

/// Per-function state.
#[derive(Default)]
struct FnState {
    /// Blocks being generated, outermost first.
    frames: Vec<Frame>,
    /// Loop counters to declare at the top of the function.
    counters: Vec<String>,
    /// The helper's parameter, if it has one.
    param: Option<String>,
}

/// A block being generated.
#[derive(Default)]
struct Frame {
    /// Labels of forward `goto`s already made, to be placed later in this
    /// block.
    pending: Vec<Pending>,
}

struct Pending {
    label: String,
    /// The label should go into the body of a loop of this block.
    into_loop: bool,
}

/// Where a statement is generated.
#[derive(Clone, Copy)]
struct Ctx {
    depth: u32,
    in_loop: bool,
    breakable: bool,
}

impl Ctx {
    const TOP: Ctx = Ctx {
        depth: 0,
        in_loop: false,
        breakable: false,
    };
}

/// The statement choice table, simplest entry first (a zero byte draws it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Choice {
    Observe,
    Operation,
    If,
    Loop,
    Switch,
    Jump,
    Call,
    NoConvergent,
    GotoCycle,
}

const CHOICES: [Choice; 9] = [
    Choice::Observe,
    Choice::Operation,
    Choice::If,
    Choice::Loop,
    Choice::Switch,
    Choice::Jump,
    Choice::Call,
    Choice::NoConvergent,
    Choice::GotoCycle,
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum LoopKind {
    While,
    DoWhile,
    ForBreak,
    ForDots,
    Counted,
    /// `for (i = 0; i < tid + K; i += 1)` (`Config::tid_bounds`).
    TidBounded,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum JumpKind {
    Break,
    Continue,
    Return,
    Goto,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum OpKind {
    Barrier,
    DataBarrier,
    Store,
    Load,
    Fence,
    ConvergentCall,
}

/// `1 + x + ... + x^i`.
fn series(x: f64, i: u32) -> f64 {
    (0..=i).map(|k| x.powi(k as i32)).sum()
}

/// Paths of `while (G) body`: exits after `n <= I` iterations.
fn while_paths(q: f64, p: f64, i: u32) -> f64 {
    q * series(q * p, i)
}

/// Paths of `do body while (G)` and of a goto cycle (body, then guard).
fn do_paths(q: f64, p: f64, i: u32) -> f64 {
    q * p * series(q * p, i)
}

/// The largest body bound `p >= 1` with `f(p) <= budget`, or 0 if none.
fn solve(f: impl Fn(f64) -> f64, budget: f64) -> f64 {
    if f(1.0) > budget {
        return 0.0;
    }
    let (mut lo, mut hi) = (1.0, budget.max(1.0));
    for _ in 0..40 {
        let mid = (lo + hi) / 2.0;
        if f(mid) <= budget {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

fn function(name: &str, param: Option<String>, body: Vec<Stmt>, counters: Vec<String>) -> Function {
    let mut list: Vec<Stmt> = counters
        .into_iter()
        .map(|c| {
            st(StmtKind::Local {
                ty: "int".into(),
                name: c,
                init: Some(int(0)),
            })
        })
        .collect();
    list.extend(body);
    Function {
        ret: "void".into(),
        name: name.into(),
        params: param
            .into_iter()
            .map(|p| Param {
                ty: "int".into(),
                name: p,
            })
            .collect(),
        body: compound(list),
        span: Span::default(),
    }
}

fn assign(place: Place, op: AssignOp, value: convcheck_lang::syntax::ast::Expr) -> Stmt {
    st(StmtKind::Expr(ex(ExprKind::Assign {
        place,
        op,
        value: Box::new(value),
    })))
}

fn mem(space: Space, index: convcheck_lang::syntax::ast::Expr) -> Place {
    Place::Mem {
        space,
        index: Box::new(index),
        id: Default::default(),
    }
}

impl Gen<'_, '_, '_> {
    // ----- names -----

    fn obs_left(&self) -> bool {
        self.observations < self.cfg.max_observations
    }

    fn next_obs(&mut self) -> String {
        self.observations += 1;
        format!("O{}", self.observations)
    }

    fn new_label(&mut self) -> String {
        self.labels += 1;
        format!("L{}", self.labels)
    }

    fn fuel_left(&self) -> bool {
        self.statements < self.cfg.max_statements
    }

    fn deciding(&self) -> bool {
        self.cfg.varying || self.cfg.uniform
    }

    fn iters(&self) -> u32 {
        self.cfg.iteration_bound
    }

    // ----- blocks -----

    /// A block's statements and their path bound, within `budget`.
    /// `inherited` labels are placed in it (a jump into a loop);
    /// `tail_jump` allows an unconditional jump at its end (if branches).
    fn list(
        &mut self,
        ctx: Ctx,
        budget: f64,
        inherited: Vec<String>,
        tail_jump: bool,
    ) -> (Vec<Stmt>, f64) {
        self.list_with(Vec::new(), ctx, budget, inherited, tail_jump)
    }

    fn list_with(
        &mut self,
        prefix: Vec<Stmt>,
        ctx: Ctx,
        budget: f64,
        inherited: Vec<String>,
        tail_jump: bool,
    ) -> (Vec<Stmt>, f64) {
        let pending = inherited
            .into_iter()
            .map(|label| Pending {
                label,
                into_loop: false,
            })
            .collect();
        self.f.frames.push(Frame { pending });
        let mut out = prefix;
        let mut paths = 1.0;
        self.items(ctx, budget, &mut out, &mut paths, self.cfg.max_block_len);
        if tail_jump && self.d.chance(25) {
            if let Some(j) = self.bare_jump(ctx) {
                out.push(j);
            }
        }
        self.close_frame(&mut out);
        (out, paths)
    }

    /// Puts the labels still pending in the innermost frame at the end of
    /// `out` and drops the frame.
    fn close_frame(&mut self, out: &mut Vec<Stmt>) {
        if let Some(frame) = self.f.frames.pop() {
            for p in frame.pending {
                out.push(label(&p.label, st(StmtKind::Empty)));
            }
        }
    }

    /// Appends up to `max` statements to `out`, multiplying `paths` by
    /// theirs, while `paths` stays within `budget`.
    fn items(&mut self, ctx: Ctx, budget: f64, out: &mut Vec<Stmt>, paths: &mut f64, max: usize) {
        let mut n = 0;
        while n < max && self.fuel_left() && self.d.chance(self.cfg.statement_percent) {
            // Give this statement all, or a root, of what is left, so that
            // the first statements of a block do not always take it all.
            let share = [1.0, 0.5, 0.75][self.d.below(3)];
            let avail = (budget / *paths).max(1.0).powf(share);
            let before: Vec<String> = self.top().pending.iter().map(|p| p.label.clone()).collect();
            let Some((mut stmts, p)) = self.stmt(ctx, avail, true, true) else {
                break;
            };
            *paths *= p;
            // Labels of earlier forward gotos may go on this statement.
            if !stmts.is_empty() && !before.is_empty() && self.d.chance(40) {
                let top = self.top_mut();
                let (now, keep): (Vec<Pending>, Vec<Pending>) = std::mem::take(&mut top.pending)
                    .into_iter()
                    .partition(|p| before.contains(&p.label));
                top.pending = keep;
                for p in now {
                    let s = stmts.remove(0);
                    stmts.insert(0, label(&p.label, s));
                }
            }
            out.extend(stmts);
            n += 1;
        }
    }

    fn top(&self) -> &Frame {
        self.f
            .frames
            .last()
            .expect("statements are generated inside a block")
    }

    fn top_mut(&mut self) -> &mut Frame {
        self.f
            .frames
            .last_mut()
            .expect("statements are generated inside a block")
    }

    // ----- the choice table -----

    fn weight(&self, c: Choice) -> u32 {
        let w = self.cfg;
        match c {
            Choice::Observe => w.observe_weight,
            Choice::Operation => w.operation_weight,
            Choice::If => w.if_weight,
            Choice::Loop => w.loop_weight,
            Choice::Switch => w.switch_weight,
            Choice::Jump => w.jump_weight,
            Choice::Call => w.call_weight,
            Choice::NoConvergent => w.noconvergent_weight,
            Choice::GotoCycle => w.goto_cycle_weight,
        }
    }

    fn allowed(&self, c: Choice, ctx: Ctx, budget: f64, list_level: bool) -> bool {
        let cfg = self.cfg;
        let nest = ctx.depth < cfg.max_depth;
        match c {
            Choice::Observe => self.obs_left(),
            Choice::Operation => !self.op_kinds(budget).is_empty(),
            Choice::If => cfg.if_else && nest,
            Choice::Loop => nest && !self.loop_kinds(budget).is_empty(),
            Choice::Switch => cfg.switches && nest,
            Choice::Jump => !self.jump_kinds(ctx).is_empty(),
            Choice::Call => {
                cfg.helper_calls
                    && self.obs_left()
                    && (self.helpers.iter().any(|h| h.paths <= budget)
                        || self.helper_names < cfg.max_helpers)
            }
            Choice::NoConvergent => cfg.noconvergent && nest,
            Choice::GotoCycle => {
                list_level
                    && cfg.backward_gotos
                    && self.deciding()
                    && do_paths(2.0, 1.0, self.iters()) <= budget
            }
        }
    }

    /// One statement (several for a goto cycle) and its path bound, or
    /// `None` when no entry of the table is allowed. `direct`: the
    /// statement is directly in the innermost frame's block, so a loop may
    /// take that block's jump-into-loop labels.
    fn stmt(
        &mut self,
        ctx: Ctx,
        budget: f64,
        direct: bool,
        list_level: bool,
    ) -> Option<(Vec<Stmt>, f64)> {
        let weights: Vec<u32> = CHOICES
            .iter()
            .map(|&c| {
                if self.allowed(c, ctx, budget, list_level) {
                    self.weight(c)
                } else {
                    0
                }
            })
            .collect();
        let choice = CHOICES[self.d.weighted(&weights)?];
        self.statements += 1;
        let one = |(s, p): (Stmt, f64)| (vec![s], p);
        Some(match choice {
            Choice::Observe => (vec![self.observe()], 1.0),
            Choice::Operation => one(self.operation(budget)),
            Choice::If => one(self.if_stmt(ctx, budget)),
            Choice::Loop => one(self.loop_stmt(ctx, budget, direct)),
            Choice::Switch => one(self.switch_stmt(ctx, budget)),
            Choice::Jump => one(self.guarded_jump(ctx, budget)),
            Choice::Call => one(self.call_stmt(budget)),
            Choice::NoConvergent => one(self.noconvergent(ctx, budget)),
            Choice::GotoCycle => self.goto_cycle(ctx, budget),
        })
    }

    fn observe(&mut self) -> Stmt {
        let n = self.next_obs();
        named(StmtKind::Observe, n)
    }
}
