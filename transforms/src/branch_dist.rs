//! `branch-dist`: dead-barrier elimination as seed 002 ("Branch
//! Distribution (Dead Synchronization Elimination)") documents it, and the
//! known-unsafe variants its "Common Pitfalls" describe.
//!
//! # The algorithm on our IR
//!
//! The pass reads nothing but the module: call kinds are in the operands
//! (`Expr::Call`), lines in the op table, and dump lines name the module
//! (`Module::name`, the input it came from).
//!
//! **Phase 1, classification.** A block is read as the sequence of what it
//! evaluates, in the order execution evaluates it (`exec`: a store's value
//! before its address, a call's arguments before the call, both arms of
//! `?:` and of `&&`/`||` as if evaluated, every incoming value of a phi as
//! if evaluated), instructions first and then the terminator's condition or
//! value (conditions can load). Each item is:
//!
//! - a **read** (an `Expr::Load`) or a **write** (an `Expr::Store`) of
//!   `shared` or `global` memory. `local` accesses and register-only code
//!   are nothing: the seed's address-space filter. With
//!   `ignore-address-space-check` (and in the `count-local` variant) every
//!   access counts, `local` included;
//! - a **sync**: a barrier call (`CallKind::Barrier`: `__syncthreads`,
//!   `barrier`, and the data-carrying `__syncthreads_count` / `_and` /
//!   `_or`, which the seed's is-sync predicate includes). Fences are
//!   neither syncs nor accesses (the seed excludes is-fence intrinsics from
//!   the sync test);
//! - for a **real call** (`CallKind::Real`, a function defined in the
//!   module): nothing by default (`ignore-call-safety=1`, the seed's
//!   aggressive default). With `ignore-call-safety=0` the call is a read
//!   and a write when the callee or a function it calls, transitively,
//!   accesses counted memory. A call to an external function (a convergent
//!   operation or a non-convergent call) and oracle reads are nothing
//!   either way: the model gives external operations no memory (DESIGN.md
//!   2.6), which is the case the seed calls "the callee's
//!   isSharedMemoryAccess attribute says no". A barrier inside a callee is
//!   not a sync of the caller.
//!
//! **Block flags.** The seed's two scans give every block four flags named
//! from the point of view of the barriers *around* the block: the "forward
//! scan" runs from the block's end back to its last sync and "everything
//! after the sync is classified as 'above'" (it is above any barrier that
//! follows the block); the "backward scan" runs from the block's start to
//! its first sync, and that part is "below" any barrier that precedes the
//! block. We call them `tail` (the seed's above maps) and `head` (its below
//! maps); in a block without sync both are the whole block. `has_sync` is
//! the seed's has-sync map.
//!
//! **Per-barrier flags.** For one barrier, *read/write above* means some
//! read/write of counted memory can execute *before* it, since the
//! previous barrier on the path (or the function's entry); *below* means
//! after it, until the next barrier (or a return). These are the names of
//! the seed's condition table and dump line.
//!
//! **Phase 2, propagation** over successor edges to a fixed point, with
//! the OR meet (some path) or, with `norm`, the AND meet (every path):
//!
//! - `below_out[B]` = meet over successors `S` of `below_in[S]`, where
//!   `below_in[S]` = `head[S]`, plus `below_out[S]` when `S` has no sync.
//!   A block without successors has nothing below its end. This is the
//!   seed's "the read/write flags from its successors' below maps are
//!   combined into the current block's" maps.
//! - `above_in[S]` = meet over predecessors `P` of `above_out[P]` (the
//!   entry block also has the function's start, with nothing), where
//!   `above_out[P]` = `tail[P]`, plus `above_in[P]` when `P` has no sync:
//!   the same successor edges, walked forwards.
//!
//! Propagation stops at blocks that hold a sync. The seed does not say so
//! in Phase 2, but its scans stop at the first and last sync of a block,
//! it keeps has-sync maps, and pitfall 4 speaks of "barrier B2 [that] is
//! dead only because barrier B1 separates it from a hazard", which only
//! happens if barriers bound the regions. The iteration starts from
//! nothing and visits blocks in order until no flag changes (the least
//! fixed point; with AND, a cycle that never reaches an access therefore
//! has no flags). `disable-complex` skips Phase 2: a barrier then sees
//! only its own block.
//!
//! The seed's sentence taken word for word ("the flags from its
//! successors' 'below' maps are OR-combined into the current block's
//! 'above' maps") would add what follows a block to what precedes its
//! barriers; that is not a dataflow for either direction and it would be
//! stable after one round, while the seed says the iteration repeats until
//! nothing changes. We read it as the two propagations above.
//!
//! **Phase 3, removal.** For barrier `I` in block `B`: above = the items
//! between the previous sync of `B` and `I` (from `B`'s start, plus
//! `above_in[B]`, when `I` is the first sync of `B`); below = the items
//! between `I` and the next sync of `B` (to `B`'s end, plus
//! `below_out[B]`, when `I` is the last). With `ra wa rb wb` those four
//! flags, `I` is dead when any of the seed's four conditions holds:
//! `!ra && !wa`, `!rb && !wb`, `!ra && !wb`, `!wa && !rb`. The first dead
//! barrier in block order and evaluation order is removed and the whole
//! analysis restarts (the seed's `goto LABEL_2`), until none is dead.
//! Data-carrying barriers are syncs but are never removed. A barrier is
//! removed by deleting its instruction, which requires the barrier call to
//! be the whole evaluated expression (`InstKind::Eval` of the call); a
//! plain barrier nested in a larger expression is left alone.
//!
//! The pass changes no edge, so phis stay correct; like every pass that
//! deletes instructions it refuses a module with a phi that does not stand
//! at the start of its block (deleting what precedes it would bring it to
//! life).
//!
//! # Knobs
//!
//! Pass options in angle brackets, `branch-dist<norm=1,dump>`; booleans
//! take `opt`, `opt=1`, `opt=0`, `no-opt`. [`Options`] documents each one;
//! the seed's `ignore-variance-cond` and `ignore-phi-overhead` are
//! rejected, because the seed gives them no effect on the algorithm.
//!
//! # Variants (seed 002, Common Pitfalls)
//!
//! - `branch-dist.precise-address` (pitfall 1): instead of four booleans,
//!   tracks the constant-folded text of every access's index (the ops of
//!   accesses and calls inside it left out); a barrier is kept only if some
//!   access above and some access below touch the same space and the same
//!   folded index text, at least one writing. It
//!   believes `shared[tid]` and `shared[tid - 1]` are different addresses,
//!   which across threads they are not.
//! - `branch-dist.remove-data-barriers` (pitfall 2): data-carrying barriers
//!   are removed too when dead; the call is replaced by `p != 0`, the value
//!   a thread alone would get, keeping the predicate's own accesses.
//! - `branch-dist.batch` (pitfall 4): collects every dead barrier of a
//!   function in one sweep and removes them all, without restarting.
//! - `branch-dist.count-local` (pitfall 5): local memory counts
//!   (over-conservative; the same as `ignore-address-space-check`).
//!
//! Where the documented pass is unsound or ambiguous is written down in
//! `docs/src/branch-dist.md`; the checker is what decides.

mod analysis;

use crate::{flag, Contract, Pass, PassError, PassInfo};
use analysis::{may_alias, regions, touches, Classifier, Set, Slot, Sync};
use convcheck_ir::tokens::is_convergent;
use convcheck_ir::{
    BarrierKind, BinOp, BlockId, CallKind, Cfg, Expr, InstKind, Module, OpId, Term,
};
use std::collections::BTreeMap;

/// Which pass of the family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// `branch-dist`: the pass as seed 002 documents it.
    Documented,
    /// `branch-dist.precise-address`: per-address tracking (pitfall 1).
    PreciseAddress,
    /// `branch-dist.remove-data-barriers`: data-carrying barriers are
    /// removed too (pitfall 2).
    RemoveDataBarriers,
    /// `branch-dist.batch`: no restart after a removal (pitfall 4).
    Batch,
    /// `branch-dist.count-local`: local memory counts (pitfall 5).
    CountLocal,
    /// `branch-dist.fixed`: a corrected pass beside the documented one (see
    /// `docs/src/findings.md`): a barrier is dead only when one side has no
    /// access or neither side writes; calls to functions defined in the
    /// module count (`ignore-call-safety` defaults to 0); barriers inside
    /// functions that the module calls are never removed, since their callers'
    /// accesses are invisible to a per-function analysis.
    Fixed,
}

impl Variant {
    const ALL: [Variant; 6] = [
        Variant::Documented,
        Variant::PreciseAddress,
        Variant::RemoveDataBarriers,
        Variant::Batch,
        Variant::CountLocal,
        Variant::Fixed,
    ];

    /// The pass name.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Documented => "branch-dist",
            Variant::PreciseAddress => "branch-dist.precise-address",
            Variant::RemoveDataBarriers => "branch-dist.remove-data-barriers",
            Variant::Batch => "branch-dist.batch",
            Variant::CountLocal => "branch-dist.count-local",
            Variant::Fixed => "branch-dist.fixed",
        }
    }
}

/// The knobs of seed 002, as pass options. Defaults are the seed's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// `norm` (seed: `branch-dist-norm`, default 0): any non-zero value
    /// makes the Phase 2 meet AND (every path) instead of OR (some path).
    pub norm: bool,
    /// `ignore-call-safety` (default 1): calls are taken as accessing no
    /// memory. With 0, a call to a function defined in the module that
    /// (transitively) accesses counted memory is a read and a write.
    pub ignore_call_safety: bool,
    /// `func-limit` (seed: `branch-dist-func-limit`, default -1 =
    /// unlimited): process only the first `n` functions of the module, in
    /// order; functions in the skip list do not count.
    pub func_limit: i64,
    /// `block-limit` (seed: `branch-dist-block-limit`, default -1 =
    /// unlimited): only barriers in the first `n` blocks of a function may
    /// be removed. The analysis still covers every block (a reading that
    /// analysed only the first `n` blocks would see nothing in the rest).
    pub block_limit: i64,
    /// `skip` (seed: `no-branch-dist`, "function1,function2,..."): names of
    /// functions the pass leaves alone, separated by `:` (`skip=f:g`;
    /// `,` and `;` separate pass options).
    pub skip: Vec<String>,
    /// `disable-complex` (seed: `disable-complex-branch-dist`, default 0):
    /// no Phase 2; each barrier sees only its own block.
    pub disable_complex: bool,
    /// `ignore-address-space-check` (default 0): every access counts,
    /// `local` included.
    pub ignore_address_space_check: bool,
    /// `dump` (seed: `dump-branch-dist`, default 0): return one line per
    /// removed barrier, in the seed's format, as the pass's notes.
    pub dump: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            norm: false,
            ignore_call_safety: true,
            func_limit: -1,
            block_limit: -1,
            skip: Vec::new(),
            disable_complex: false,
            ignore_address_space_check: false,
            dump: false,
        }
    }
}

const KNOWN: &[&str] = &[
    "norm",
    "ignore-call-safety",
    "func-limit",
    "block-limit",
    "skip",
    "disable-complex",
    "ignore-address-space-check",
    "dump",
];

const BOOLEANS: &[&str] = &[
    "ignore-call-safety",
    "disable-complex",
    "ignore-address-space-check",
    "dump",
];

const OPTIONS_DOC: &str = "norm=0 (1: AND meet), ignore-call-safety=1, func-limit=-1, block-limit=-1, skip=f:g, disable-complex=0, ignore-address-space-check=0, dump=0";

/// The branch-dist passes of the registry.
pub fn registry() -> Vec<PassInfo> {
    vec![
        PassInfo {
            name: "branch-dist",
            summary: "dead-barrier elimination as seed 002 documents it (four R/W flags per barrier, restart after each removal); implemented as documented; UNSAFE: conditions !ra&&!wb and !wa&&!rb remove producer/consumer barriers (docs/src/findings.md)",
            safe: false,
            options: OPTIONS_DOC,
        },
        PassInfo {
            name: "branch-dist.precise-address",
            summary: "seed 002 pitfall 1: tracks constant-folded index texts instead of flags, so shared[tid] and shared[tid - 1] look different",
            safe: false,
            options: OPTIONS_DOC,
        },
        PassInfo {
            name: "branch-dist.remove-data-barriers",
            summary: "seed 002 pitfall 2: also removes __syncthreads_count/_and/_or, whose results are observable",
            safe: false,
            options: OPTIONS_DOC,
        },
        PassInfo {
            name: "branch-dist.batch",
            summary: "seed 002 pitfall 4: removes every barrier found dead in one sweep, without restarting",
            safe: false,
            options: OPTIONS_DOC,
        },
        PassInfo {
            name: "branch-dist.fixed",
            summary: "corrected beside the documented pass: dead only if one side has no access or neither side writes; calls counted; barriers in called functions kept",
            safe: true,
            options: "as branch-dist, but ignore-call-safety=0 by default",
        },
        PassInfo {
            name: "branch-dist.count-local",
            summary: "seed 002 pitfall 5: counts local memory too (over-conservative: removes fewer barriers) but inherits the unsound conditions of branch-dist",
            safe: false,
            options: OPTIONS_DOC,
        },
    ]
}

/// Builds a branch-dist pass from its base name and options, or `None`
/// when `base` is not one.
pub fn lookup(
    base: &str,
    opts: &BTreeMap<String, String>,
) -> Result<Option<Box<dyn Pass>>, PassError> {
    let Some(variant) = Variant::ALL.into_iter().find(|v| v.name() == base) else {
        return Ok(None);
    };
    let options = parse_options(base, opts)?;
    Ok(Some(Box::new(BranchDist { variant, options })))
}

fn parse_int(base: &str, key: &str, v: &str) -> Result<i64, PassError> {
    v.parse::<i64>().map_err(|_| {
        PassError(format!(
            "pass `{base}`: option `{key}` expects an integer, found `{v}`"
        ))
    })
}

/// Parses the options of a branch-dist pass.
pub fn parse_options(base: &str, opts: &BTreeMap<String, String>) -> Result<Options, PassError> {
    for k in opts.keys() {
        let plain = k.strip_prefix("no-").filter(|p| BOOLEANS.contains(p));
        if KNOWN.contains(&k.as_str()) || plain.is_some() {
            continue;
        }
        if k == "ignore-variance-cond" || k == "ignore-phi-overhead" {
            return Err(PassError(format!(
                "pass `{base}`: option `{k}` of seed 002 is not modelled (the seed documents no effect of it on the algorithm)"
            )));
        }
        let hint = if opts.contains_key("skip") {
            "; to skip several functions write `skip=f:g` (`,` and `;` separate options)"
        } else {
            ""
        };
        return Err(PassError(format!(
            "pass `{base}` has no option `{k}` (options: {}){hint}",
            KNOWN.join(", ")
        )));
    }
    let d = Options::default();
    let limit = |key: &str| -> Result<i64, PassError> {
        match opts.get(key) {
            None => Ok(-1),
            Some(v) => {
                let n = parse_int(base, key, v)?;
                if n < -1 {
                    return Err(PassError(format!(
                        "pass `{base}`: option `{key}` expects -1 (unlimited) or a count, found `{v}`"
                    )));
                }
                Ok(n)
            }
        }
    };
    Ok(Options {
        norm: match opts.get("norm") {
            None => d.norm,
            Some(v) => parse_int(base, "norm", v)? != 0,
        },
        ignore_call_safety: flag(
            opts,
            "ignore-call-safety",
            d.ignore_call_safety && base != "branch-dist.fixed",
        )?,
        func_limit: limit("func-limit")?,
        block_limit: limit("block-limit")?,
        skip: opts
            .get("skip")
            .map(|v| {
                v.split(':')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(String::from)
                    .collect()
            })
            .unwrap_or_default(),
        disable_complex: flag(opts, "disable-complex", d.disable_complex)?,
        ignore_address_space_check: flag(
            opts,
            "ignore-address-space-check",
            d.ignore_address_space_check,
        )?,
        dump: flag(opts, "dump", d.dump)?,
    })
}

/// A branch-dist pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BranchDist {
    /// Which variant.
    pub variant: Variant,
    /// Its knobs.
    pub options: Options,
}

/// One barrier as Phase 3 sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BarrierFlags {
    /// The block holding it.
    pub block: BlockId,
    /// The barrier call's op.
    pub call: OpId,
    /// Which barrier.
    pub kind: BarrierKind,
    /// The line of the barrier call in the module's input (0 when the op
    /// table does not know it).
    pub line: u32,
    /// Some read can execute before it (since the previous barrier).
    pub read_above: bool,
    /// Some write can execute before it.
    pub write_above: bool,
    /// Some read can execute after it (until the next barrier).
    pub read_below: bool,
    /// Some write can execute after it.
    pub write_below: bool,
    /// Whether the variant's removal condition holds.
    pub dead: bool,
    /// Whether the variant may remove it (kind, position, block limit).
    pub removable: bool,
}

/// Which of seed 002's four removal conditions holds for a barrier with
/// these flags (the first, numbered from 1 as in the seed's table), or
/// `None` when the barrier is live:
///
/// 1. `!ra && !wa`: nothing above accesses shared/global memory;
/// 2. `!rb && !wb`: nothing below does;
/// 3. `!ra && !wb`: the seed's "no read-after-write or write-after-write";
/// 4. `!wa && !rb`: the seed's "no write-after-read or write-after-write".
///
/// Conditions 3 and 4 hold for a write above and a read below (3) and for
/// a read above and a write below (4): exactly the orders a barrier exists
/// to enforce (see `docs/src/branch-dist.md`).
pub fn removal_condition(ra: bool, wa: bool, rb: bool, wb: bool) -> Option<u8> {
    if !ra && !wa {
        Some(1)
    } else if !rb && !wb {
        Some(2)
    } else if !ra && !wb {
        Some(3)
    } else if !wa && !rb {
        Some(4)
    } else {
        None
    }
}

struct Found {
    flags: BarrierFlags,
    sync: Sync,
}

impl BranchDist {
    fn precise(&self) -> bool {
        self.variant == Variant::PreciseAddress
    }

    fn count_local(&self) -> bool {
        self.variant == Variant::CountLocal || self.options.ignore_address_space_check
    }

    fn classifier(&self, module: &Module) -> Classifier {
        Classifier {
            precise: self.precise(),
            count_local: self.count_local(),
            touches: (!self.options.ignore_call_safety)
                .then(|| touches(module, self.count_local())),
        }
    }

    fn is_dead(&self, above: &Set, below: &Set) -> bool {
        if self.precise() {
            let conflict = above.iter().any(|a| {
                below
                    .iter()
                    .any(|b| (a.write || b.write) && may_alias(a, b))
            });
            return !conflict;
        }
        let (ra, wa) = (
            above.iter().any(|f| !f.write),
            above.iter().any(|f| f.write),
        );
        let (rb, wb) = (
            below.iter().any(|f| !f.write),
            below.iter().any(|f| f.write),
        );
        if self.variant == Variant::Fixed {
            // Removing the barrier merges two phases; a race needs a write
            // in the merged phase and accesses on both sides of the cut.
            return (!ra && !wa) || (!rb && !wb) || (!wa && !wb);
        }
        removal_condition(ra, wa, rb, wb).is_some()
    }

    fn may_remove(&self, s: &Sync, block: BlockId) -> bool {
        let in_limit = self.options.block_limit < 0 || (block as i64) < self.options.block_limit;
        let kind_ok = match s.kind {
            BarrierKind::Plain => s.whole,
            _ => self.variant == Variant::RemoveDataBarriers,
        };
        in_limit && kind_ok
    }

    /// Phases 1 to 3 on `cfg`, a function of `module`: every barrier with
    /// its flags.
    fn analyse_cfg(&self, module: &Module, c: &Classifier, cfg: &Cfg) -> Vec<Found> {
        let (and, propagate) = (self.options.norm, !self.options.disable_complex);
        regions(c, module, cfg, and, propagate)
            .into_iter()
            .map(|r| {
                let (above, below) = (&r.above, &r.below);
                let flags = BarrierFlags {
                    block: r.block,
                    call: r.sync.id,
                    kind: r.sync.kind,
                    line: module.line(r.sync.id),
                    read_above: above.iter().any(|f| !f.write),
                    write_above: above.iter().any(|f| f.write),
                    read_below: below.iter().any(|f| !f.write),
                    write_below: below.iter().any(|f| f.write),
                    dead: self.is_dead(above, below),
                    removable: self.may_remove(&r.sync, r.block),
                };
                Found {
                    flags,
                    sync: r.sync,
                }
            })
            .collect()
    }

    /// The barriers of function `f` of `module` with their flags, as the
    /// pass's first round sees them.
    pub fn analyse(&self, module: &Module, f: usize) -> Vec<BarrierFlags> {
        let c = self.classifier(module);
        match module.functions.get(f) {
            Some(cfg) => self
                .analyse_cfg(module, &c, cfg)
                .into_iter()
                .map(|x| x.flags)
                .collect(),
            None => Vec::new(),
        }
    }

    /// The seed's dump line; the file is the module's name (the input it
    /// came from).
    fn dump_line(module: &Module, cfg: &Cfg, f: &BarrierFlags) -> String {
        let b = |x: bool| u8::from(x);
        format!(
            "[{}:{}] Removed dead synch: Read above: {}, Write above: {}, Read below: {}, Write below: {} in function {}",
            module.name,
            f.line,
            b(f.read_above),
            b(f.write_above),
            b(f.read_below),
            b(f.write_below),
            cfg.name
        )
    }

    /// Removes the dead barriers of `cfg`, a function of `module` being
    /// rewritten apart from it.
    fn run_function(
        &self,
        module: &Module,
        c: &Classifier,
        cfg: &mut Cfg,
        notes: &mut Vec<String>,
    ) {
        loop {
            let found = self.analyse_cfg(module, c, cfg);
            let dead: Vec<&Found> = found
                .iter()
                .filter(|x| x.flags.dead && x.flags.removable)
                .collect();
            if dead.is_empty() {
                return;
            }
            let chosen: Vec<&Found> = if self.variant == Variant::Batch {
                dead
            } else {
                dead.into_iter().take(1).collect()
            };
            if self.options.dump {
                notes.extend(
                    chosen
                        .iter()
                        .map(|x| Self::dump_line(module, cfg, &x.flags)),
                );
            }
            remove(cfg, &chosen);
            if self.variant == Variant::Batch {
                return;
            }
        }
    }
}

/// Removes the chosen barriers: deletes whole-statement plain barriers,
/// rewrites data-carrying ones to `p != 0`.
fn remove(cfg: &mut Cfg, chosen: &[&Found]) {
    let mut deletions: Vec<(BlockId, usize)> = Vec::new();
    for x in chosen {
        let b = x.flags.block;
        let s = &x.sync;
        match (s.kind, s.slot) {
            (BarrierKind::Plain, Slot::Inst(i)) => deletions.push((b, i)),
            (_, Slot::Inst(i)) => {
                let inst = &mut cfg.blocks[b].insts[i];
                match &mut inst.kind {
                    InstKind::Eval(e) | InstKind::SetLocal { value: Some(e), .. } => {
                        replace_call(e, s.id);
                    }
                    InstKind::Phi { incoming, .. } => {
                        incoming.iter_mut().any(|(_, e)| replace_call(e, s.id));
                    }
                    InstKind::SetLocal { value: None, .. }
                    | InstKind::Observe
                    | InstKind::Token { .. } => {}
                }
                if !is_convergent(inst) {
                    inst.token = None;
                }
            }
            (_, Slot::Term) => match &mut cfg.blocks[b].term {
                Term::CondBr { cond: e, .. }
                | Term::Switch { value: e, .. }
                | Term::Ret(Some(e)) => {
                    replace_call(e, s.id);
                }
                _ => {}
            },
        }
    }
    deletions.sort_unstable();
    deletions.dedup();
    for (b, i) in deletions.into_iter().rev() {
        cfg.blocks[b].insts.remove(i);
    }
}

/// Replaces the call `op` inside `e` by `(predicate) != 0`.
fn replace_call(e: &mut Expr, op: OpId) -> bool {
    if let Expr::Call { op: cid, args, .. } = e {
        if *cid == op {
            let pred = args.first().cloned().unwrap_or(Expr::Const(0));
            *e = Expr::binary(BinOp::Ne, pred, Expr::Const(0));
            return true;
        }
    }
    match e {
        Expr::Const(_) | Expr::Tid | Expr::GroupSize | Expr::Var(_) | Expr::Oracle(_) => false,
        Expr::Unary(_, a) => replace_call(a, op),
        Expr::Binary(_, a, b) => replace_call(a, op) || replace_call(b, op),
        Expr::Select(a, b, c) => replace_call(a, op) || replace_call(b, op) || replace_call(c, op),
        Expr::Call { args, .. } => args.iter_mut().any(|a| replace_call(a, op)),
        Expr::Load { index, .. } => replace_call(index, op),
        Expr::Store { index, value, .. } => replace_call(index, op) || replace_call(value, op),
        Expr::Assign { value, .. } => replace_call(value, op),
    }
}

/// The names of the functions of `module` that some function calls.
fn called_functions(module: &Module) -> Vec<String> {
    let mut out = Vec::new();
    for cfg in &module.functions {
        for block in &cfg.blocks {
            for e in block.exprs() {
                e.walk(&mut |x| {
                    if let Expr::Call {
                        kind: CallKind::Real(g),
                        ..
                    } = x
                    {
                        if let Some(callee) = module.functions.get(*g) {
                            out.push(callee.name.clone());
                        }
                    }
                });
            }
        }
    }
    out
}

impl Pass for BranchDist {
    fn name(&self) -> String {
        let mut d = Options::default();
        // The corrected pass counts calls by default.
        d.ignore_call_safety &= self.variant != Variant::Fixed;
        let o = &self.options;
        let mut opts = Vec::new();
        let b = |x: bool| u8::from(x);
        if o.norm != d.norm {
            opts.push("norm=1".to_string());
        }
        if o.ignore_call_safety != d.ignore_call_safety {
            opts.push(format!("ignore-call-safety={}", b(o.ignore_call_safety)));
        }
        if o.func_limit != d.func_limit {
            opts.push(format!("func-limit={}", o.func_limit));
        }
        if o.block_limit != d.block_limit {
            opts.push(format!("block-limit={}", o.block_limit));
        }
        if !o.skip.is_empty() {
            opts.push(format!("skip={}", o.skip.join(":")));
        }
        if o.disable_complex != d.disable_complex {
            opts.push(format!("disable-complex={}", b(o.disable_complex)));
        }
        if o.ignore_address_space_check != d.ignore_address_space_check {
            opts.push(format!(
                "ignore-address-space-check={}",
                b(o.ignore_address_space_check)
            ));
        }
        if o.dump != d.dump {
            opts.push(format!("dump={}", b(o.dump)));
        }
        let base = self.variant.name();
        if opts.is_empty() {
            base.to_string()
        } else {
            format!("{base}<{}>", opts.join(","))
        }
    }

    fn run(&self, module: &mut Module) -> Result<Vec<String>, PassError> {
        crate::phis::check(&self.name(), module)?;
        let c = self.classifier(module);
        let mut notes = Vec::new();
        let mut processed: i64 = 0;
        let called = called_functions(module);
        for f in 0..module.functions.len() {
            let name = &module.functions[f].name;
            if self.options.skip.contains(name) {
                continue;
            }
            if self.variant == Variant::Fixed && called.contains(name) {
                continue;
            }
            if self.options.func_limit >= 0 && processed >= self.options.func_limit {
                break;
            }
            processed += 1;
            // The function is rewritten apart from the module, which gives
            // the op table (lines) and the module's name to dump lines.
            let mut cfg = module.functions[f].clone();
            self.run_function(module, &c, &mut cfg, &mut notes);
            module.functions[f] = cfg;
        }
        Ok(notes)
    }

    fn contract(&self) -> Contract {
        Contract::RemovesBarriers
    }
}
