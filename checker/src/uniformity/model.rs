//! The model's side of the uniformity oracle, for one LLVM function.
//!
//! 1. **Mapping.** The module is mapped with every value and with opaque
//!    calls (`convcheck_llvm::to_ir::MapOptions`): every SSA value of
//!    integer or pointer type is a local named after it, and every call
//!    the model does not compute (external functions, intrinsics outside
//!    the model, defined functions) is an oracle read named after its
//!    result.
//! 2. **Inputs take LLVM's word** (the target's, through TTI): an argument
//!    LLVM lists as divergent is a per-thread value, any other a uniform
//!    one (kernel arguments, `inreg`); an opaque call or a load that LLVM
//!    calls divergent is a free per-thread value; one that LLVM calls
//!    uniform although one of its operands is divergent is a target rule
//!    (always-uniform intrinsics such as `llvm.amdgcn.readfirstlane`): equal
//!    in one converged instance; any other is a function of its operands
//!    in one converged instance (a load from memory both threads see, a
//!    call of the same arguments). The thread index is the model's own
//!    (divergent); `undef` and `poison` are free values, and a value that
//!    depends on one is not examined (LLVM may choose them per use).
//!    What is left to examine is the propagation: phis, joins, cycles,
//!    temporal divergence, branches.
//! 3. **Query.** Every value and branch is a target of
//!    `convcheck_smt::product::uniform` under every cycle hierarchy of the
//!    function (LLVM's claims hold for every hierarchy:
//!    ConvergenceAndUniformity, "m-converged"), up to
//!    [`convcheck_ir::cycles::HIERARCHY_CAP`].
//! 4. **Replay.** A scenario the solver finds is run by the interpreter
//!    (`convcheck_ir::exec::run_thread_recording`), which must show two
//!    converged executions (equal keys) with different values; only then
//!    is it a finding. A scenario that branches on `undef` is discarded.

use super::printer::FunctionClaims;
use super::report::{Finding, FunctionReport, Note, Use};
use super::trace;
use convcheck_ir::cycles::{all_hierarchies, CycleInfo, HIERARCHY_CAP};
use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::exec::{run_thread_recording, Bounds, DefValue, Stop, Trace};
use convcheck_ir::scenario::ValuesSource;
use convcheck_ir::{Expr, FuncId, InstKind, Module, OracleClass, OracleId, Term};
use convcheck_llvm::inst::InstKind as K;
use convcheck_llvm::to_ir::{plain_name, UNDEF_ORACLE};
use convcheck_llvm::{Function, Instruction, Type, Value};
use convcheck_smt::product::uniform::{uniformity, Target, UniformityOptions, Verdict, Witness};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::time::{Duration, Instant};

/// What one value or branch is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A `phi`.
    Phi,
    /// Any other value.
    Value,
    /// The value a block's terminator branches on.
    Branch,
}

impl Kind {
    /// Its name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Phi => "phi",
            Kind::Value => "value",
            Kind::Branch => "branch",
        }
    }
}

/// One value or branch of the LLVM function, and where the model has it.
#[derive(Clone, Debug)]
struct Subject {
    /// `%name`, or `br in %block`.
    shown: String,
    kind: Kind,
    block: String,
    line: u32,
    /// Whether LLVM calls it divergent.
    llvm_divergent: bool,
    /// The IR block and instruction (the block's length for a branch).
    place: Option<(usize, usize)>,
    bits: u32,
    /// Why it is not examined, if it is not.
    skip: Option<String>,
    /// An alloca's address: the model gives it one constant, the same
    /// private slot in every thread, so it is uniform without a query.
    alloca: bool,
}

/// The inputs of [`examine`].
pub struct Input<'a> {
    /// The function.
    pub function: &'a Function,
    /// The module mapped for the oracle, shared by its functions.
    pub mapped: &'a convcheck_llvm::to_ir::Mapped,
    /// What LLVM says of the function.
    pub claims: &'a FunctionClaims,
    /// The file's lines, for the text of instructions.
    pub lines: &'a [&'a str],
}

/// Bounds and budgets of one function.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Iterations per cycle.
    pub max_iters: u32,
    /// The group size, or every `N >= 2`.
    pub group: Option<u32>,
    /// The wave size the two threads share, if any.
    pub wave: Option<u32>,
    /// The time this function may take.
    pub timeout: Duration,
    /// z3's memory, in MiB.
    pub memory_mb: u64,
    /// Whether values LLVM calls divergent are examined (imprecision).
    pub imprecision: bool,
    /// Whether unreached values are told apart from uniform ones.
    pub unreached: bool,
    /// z3's work per query (0: time only).
    pub rlimit: u32,
}

/// Examines one function (see the module documentation).
pub fn examine(input: &Input<'_>, limits: &Limits) -> FunctionReport {
    let f = input.function;
    let name = plain_name(&f.name);
    let mut report = FunctionReport::new(&name, f.span.line, input.claims);
    if let Some(u) = input.mapped.skipped.iter().find(|u| u.function == name) {
        report.reason = Some(format!(
            "not examined: it uses {} (line {}), which convcheck does not model",
            u.construct, u.line
        ));
        return report;
    }
    let Some(fid) = input.mapped.module.function(&name) else {
        report.reason = Some("not examined: the mapping lost it (internal)".into());
        return report;
    };
    let mut module = input.mapped.module.clone();
    let subjects = subjects(input, &module, fid);
    report.values = subjects.iter().filter(|s| s.kind != Kind::Branch).count();
    report.branches = subjects.len() - report.values;
    report.llvm_divergent = subjects.iter().filter(|s| s.llvm_divergent).count();
    report.llvm_uniform = subjects.len() - report.llvm_divergent;
    let by_operands = classify_inputs(input, &mut module, fid);
    let (tainted, tainted_branches) = undef_taint(&module, fid);
    // The targets, in subject order, with their subject.
    let mut targets: Vec<(usize, Target)> = Vec::new();
    for (i, s) in subjects.iter().enumerate() {
        if let Some(why) = &s.skip {
            report.skipped.push(Note::new(&s.shown, why));
            continue;
        }
        if s.alloca {
            if s.llvm_divergent {
                report.imprecise.push(s.shown.clone());
            } else {
                report.model_uniform += 1;
            }
            continue;
        }
        let Some((block, inst)) = s.place else {
            continue;
        };
        let undef = match s.kind {
            Kind::Branch => tainted_branches.contains(&block),
            _ => tainted.contains(&(block, inst)),
        };
        if undef {
            report.skipped.push(Note::new(
                &s.shown,
                "its value may be undef or poison, which LLVM may choose per use",
            ));
            continue;
        }
        if s.llvm_divergent && !limits.imprecision {
            continue;
        }
        if is_thread_index(&module, fid, block, inst) && !s.llvm_divergent {
            report.skipped.push(Note::new(
                &s.shown,
                "LLVM takes the thread index as uniform here (single-lane execution?); the model \
                 assumes groups of two threads or more",
            ));
            continue;
        }
        targets.push((
            i,
            Target {
                block,
                inst,
                bits: s.bits,
                finding: !s.llvm_divergent,
            },
        ));
    }
    let cfg = &module.functions[fid];
    let hierarchies = all_hierarchies(cfg, HIERARCHY_CAP);
    report.hierarchies = hierarchies.len();
    report.hierarchies_capped = hierarchies.len() >= HIERARCHY_CAP;
    let deadline = Instant::now() + limits.timeout;
    // Per target: divergent under some hierarchy (with the scenario), or
    // the verdicts under each.
    let mut found: BTreeMap<usize, (Witness, usize)> = BTreeMap::new();
    let mut verdicts: Vec<Vec<Verdict>> = vec![Vec::new(); targets.len()];
    for (h, ci) in hierarchies.iter().enumerate() {
        let open: Vec<usize> = (0..targets.len())
            .filter(|k| !found.contains_key(k))
            .collect();
        if open.is_empty() {
            break;
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            for &k in &open {
                verdicts[k].push(Verdict::Unknown(convcheck_smt::Unknown::time(
                    "timeout: the time budget ran out before every hierarchy was examined",
                )));
            }
            break;
        }
        let program = with_hierarchy(&module, fid, ci);
        let opts = UniformityOptions {
            max_iters: limits.max_iters,
            group: limits.group,
            wave: limits.wave,
            timeout: left,
            memory_mb: limits.memory_mb,
            unreached: limits.unreached,
            rlimit: limits.rlimit,
            ..UniformityOptions::default()
        };
        let list: Vec<Target> = open.iter().map(|&k| targets[k].1).collect();
        match uniformity(&program, fid, &list, &by_operands, &opts) {
            Err(why) => {
                report.reason = Some(format!("not examined: {why}"));
                return report;
            }
            Ok(answers) => {
                if report.cut.is_none() {
                    report.cut = answers.cut.clone();
                }
                for (&k, v) in open.iter().zip(answers.verdicts) {
                    match v {
                        Verdict::Divergent(w) => {
                            found.insert(k, (w, h));
                        }
                        other => verdicts[k].push(other),
                    }
                }
            }
        }
    }
    for (k, (i, target)) in targets.iter().enumerate() {
        let s = &subjects[*i];
        if let Some((w, h)) = found.get(&k) {
            let program = with_hierarchy(&module, fid, &hierarchies[*h]);
            // The lower thread id first, for reading.
            let mut w = w.clone();
            if w.tids[0] > w.tids[1] {
                w.tids.swap(0, 1);
                w.threads.swap(0, 1);
            }
            match replay(
                &program,
                fid,
                target,
                &w,
                limits.max_iters,
                &tainted_branches,
            ) {
                Ok(_) if s.llvm_divergent => report.agree_divergent += 1,
                Ok(r) => {
                    let finding = finding(input, &program, fid, s, &w, &r, &hierarchies[*h]);
                    report.findings.push(finding);
                }
                Err(why) => report.unknown.push(Note::new(&s.shown, &why)),
            }
            continue;
        }
        let vs = &verdicts[k];
        if let Some(Verdict::Unknown(why)) = vs.iter().find(|v| matches!(v, Verdict::Unknown(_))) {
            report.unknown.push(Note::new(&s.shown, &why.why));
        } else if vs.iter().all(|v| *v == Verdict::Unreached) {
            report.unreached.push(s.shown.clone());
        } else if s.llvm_divergent {
            report.imprecise.push(s.shown.clone());
        } else {
            report.model_uniform += 1;
        }
    }
    mark_consequences(&mut report);
    report
}

/// A value or branch found divergent because one of its operands is
/// itself a finding (LLVM calls it uniform only because it trusted that
/// operand) is a consequence, not a finding of its own shape: its class
/// becomes `consequence`, and [`Finding::cause`] names the operand.
fn mark_consequences(report: &mut FunctionReport) {
    let names: Vec<String> = report
        .findings
        .iter()
        .filter(|f| f.kind != "branch")
        .map(|f| f.value.clone())
        .collect();
    for f in &mut report.findings {
        // The operands: the text after `=` for a value, all of it for a
        // branch.
        let operands = match f.text.split_once('=') {
            Some((_, rhs)) if f.kind != "branch" => rhs,
            _ => f.text.as_str(),
        };
        let cause = names.iter().find(|n| {
            **n != f.value
                && operands.match_indices(n.as_str()).any(|(at, _)| {
                    !operands[at + n.len()..]
                        .chars()
                        .next()
                        .is_some_and(|c| c.is_ascii_alphanumeric() || "._$-".contains(c))
                })
        });
        if let Some(c) = cause {
            f.cause = Some(c.clone());
            f.class = "consequence".into();
        }
    }
}

/// The program with hierarchy `ci` for function `fid` (LLVM's for the
/// others, which the oracle never runs).
fn with_hierarchy(module: &Module, fid: FuncId, ci: &CycleInfo) -> CfgProgram {
    let cycles = module
        .functions
        .iter()
        .enumerate()
        .map(|(i, c)| {
            if i == fid {
                ci.clone()
            } else {
                CycleInfo::compute(c)
            }
        })
        .collect();
    CfgProgram {
        module: module.clone(),
        cycles,
    }
}

/// The width of an instruction's value, if it is one the model holds.
fn result_bits(inst: &Instruction) -> Option<u32> {
    let ty = match &inst.kind {
        K::Phi(p) => &p.ty,
        K::Select(s) => &s.if_true.ty,
        K::ICmp(_) => return Some(1),
        K::Binary(b) => &b.ty,
        K::Cast(c) => &c.to,
        K::Freeze(tv) => &tv.ty,
        K::Load(l) => &l.ty,
        K::GetElementPtr(_) | K::Alloca(_) => return Some(64),
        K::Call(c) => &c.ret_ty,
        _ => return None,
    };
    match ty {
        Type::Int(n) if *n <= 64 => Some(*n),
        Type::Ptr { .. } => Some(64),
        _ => None,
    }
}

/// Every value and branch of the function, with LLVM's claim and the
/// model's place.
fn subjects(input: &Input<'_>, module: &Module, fid: FuncId) -> Vec<Subject> {
    let cfg = &module.functions[fid];
    let mut defs: HashMap<&str, Vec<(usize, usize)>> = HashMap::new();
    for (b, block) in cfg.blocks.iter().enumerate() {
        for (i, inst) in block.insts.iter().enumerate() {
            match &inst.kind {
                InstKind::SetLocal { name, .. } | InstKind::Phi { name, .. } => {
                    defs.entry(name.as_str()).or_default().push((b, i));
                }
                _ => {}
            }
        }
    }
    let claims = input.claims;
    let mut out = Vec::new();
    for b in &input.function.blocks {
        let block = plain_name(&b.name);
        for inst in &b.instructions {
            if inst.is_terminator() {
                let Some(ir_block) = cfg.block(&block) else {
                    continue;
                };
                let branches = matches!(
                    cfg.blocks[ir_block].term,
                    Term::CondBr { .. } | Term::Switch { .. }
                );
                if !branches {
                    continue;
                }
                let claim = claims.terminator_divergent(&block);
                out.push(Subject {
                    shown: format!("{} in %{block}", inst.opcode()),
                    kind: Kind::Branch,
                    block: block.clone(),
                    line: inst.line(),
                    llvm_divergent: claim.unwrap_or(true),
                    place: Some((ir_block, cfg.blocks[ir_block].insts.len())),
                    bits: 64,
                    skip: claim
                        .is_none()
                        .then(|| "LLVM printed no claim for it".to_string()),
                    alloca: false,
                });
                continue;
            }
            let Some(r) = &inst.result else { continue };
            let name = plain_name(r);
            let shown = format!("%{name}");
            let kind = if matches!(inst.kind, K::Phi(_)) {
                Kind::Phi
            } else {
                Kind::Value
            };
            let claim = claims.value_divergent(&name);
            let mut s = Subject {
                shown,
                kind,
                block: block.clone(),
                line: inst.line(),
                llvm_divergent: claim.unwrap_or(true),
                place: None,
                bits: 64,
                skip: None,
                alloca: matches!(inst.kind, K::Alloca(_)),
            };
            let Some(bits) = result_bits(inst) else {
                // Tokens, aggregates: no value the model holds (a function
                // with others is not mapped at all).
                continue;
            };
            s.bits = bits;
            if claim.is_none() {
                s.skip = Some("LLVM printed no claim for it".into());
            } else if s.alloca {
                // Uniform by the model's construction; see `Subject::alloca`.
            } else {
                match defs.get(name.as_str()).map(Vec::as_slice) {
                    Some([one]) => s.place = Some(*one),
                    Some(_) => {
                        s.skip = Some("defined more than once in the model (internal)".into())
                    }
                    None => s.skip = Some("the model has no counterpart for it".into()),
                }
            }
            out.push(s);
        }
    }
    out
}

/// Whether LLVM calls operand `v` divergent.
fn operand_divergent(claims: &FunctionClaims, f: &Function, v: &Value) -> bool {
    match v {
        Value::Local(n) => {
            let name = plain_name(n);
            if f.params.iter().any(|p| p.name == *n) {
                claims.arg_divergent(&name)
            } else {
                claims.value_divergent(&name).unwrap_or(true)
            }
        }
        _ => false,
    }
}

/// Sets the class of every input oracle of function `fid` from LLVM's
/// word (see the module documentation) and returns the oracles that are
/// functions of their operands.
fn classify_inputs(input: &Input<'_>, module: &mut Module, fid: FuncId) -> BTreeSet<OracleId> {
    let f = input.function;
    let claims = input.claims;
    let mut by_operands = BTreeSet::new();
    let param_oracles = module.functions[fid].param_oracles.clone();
    for (p, o) in f.params.iter().zip(param_oracles) {
        let name = plain_name(&p.name);
        module.oracles[o].class = if claims.arg_divergent(&name) {
            OracleClass::Invariant
        } else {
            OracleClass::Uniform
        };
    }
    for (_, inst) in f.instructions() {
        let Some(r) = &inst.result else { continue };
        let operands: Vec<&Value> = match &inst.kind {
            K::Call(c) => c.args.iter().map(|a| &a.value).collect(),
            K::Load(l) => vec![&l.ptr.value],
            _ => continue,
        };
        let name = plain_name(r);
        let Some(o) = module.oracle(&format!("%{name}")) else {
            continue;
        };
        let divergent = claims.value_divergent(&name).unwrap_or(true);
        module.oracles[o].class = if divergent {
            OracleClass::Varying
        } else if operands.iter().any(|v| operand_divergent(claims, f, v)) {
            OracleClass::Uniform
        } else {
            by_operands.insert(o);
            OracleClass::Varying
        };
    }
    // The group's index (the mapper's `group_id.x`, one value per thread)
    // is the same for every thread of the group: a uniform input, as LLVM
    // calls the workgroup-id intrinsics always uniform.
    if let Some(o) = module.oracle("group_id.x") {
        module.oracles[o].class = OracleClass::Uniform;
    }
    if let Some(o) = module.oracle(UNDEF_ORACLE) {
        module.oracles[o].class = OracleClass::Varying;
    }
    by_operands
}

/// The definitions (block, instruction) whose value may depend on `undef`
/// or `poison` (data dependence, through locals), and the blocks whose
/// branch does.
fn undef_taint(module: &Module, fid: FuncId) -> (BTreeSet<(usize, usize)>, BTreeSet<usize>) {
    let Some(undef) = module.oracle(UNDEF_ORACLE) else {
        return (BTreeSet::new(), BTreeSet::new());
    };
    let cfg = &module.functions[fid];
    let mut names: BTreeSet<String> = BTreeSet::new();
    let reads = |e: &Expr, names: &BTreeSet<String>| {
        let mut hit = false;
        e.walk(&mut |x| match x {
            Expr::Oracle(o) if *o == undef => hit = true,
            Expr::Var(n) if names.contains(n) => hit = true,
            _ => {}
        });
        hit
    };
    loop {
        let before = names.len();
        for block in &cfg.blocks {
            for inst in &block.insts {
                let (name, exprs): (&String, Vec<&Expr>) = match &inst.kind {
                    InstKind::SetLocal {
                        name,
                        value: Some(e),
                    } => (name, vec![e]),
                    InstKind::Phi { name, incoming } => {
                        (name, incoming.iter().map(|x| &x.1).collect())
                    }
                    _ => continue,
                };
                if exprs.iter().any(|e| reads(e, &names)) {
                    names.insert(name.clone());
                }
            }
        }
        if names.len() == before {
            break;
        }
    }
    let mut defs = BTreeSet::new();
    let mut branches = BTreeSet::new();
    for (b, block) in cfg.blocks.iter().enumerate() {
        for (i, inst) in block.insts.iter().enumerate() {
            if let InstKind::SetLocal { name, .. } | InstKind::Phi { name, .. } = &inst.kind {
                if names.contains(name) {
                    defs.insert((b, i));
                }
            }
        }
        if let Term::CondBr { cond: e, .. } | Term::Switch { value: e, .. } = &block.term {
            if reads(e, &names) {
                branches.insert(b);
            }
        }
    }
    (defs, branches)
}

/// Whether the definition at (block, inst) is the thread index itself.
fn is_thread_index(module: &Module, fid: FuncId, block: usize, inst: usize) -> bool {
    let b = &module.functions[fid].blocks[block];
    matches!(
        b.insts.get(inst).map(|i| &i.kind),
        Some(InstKind::SetLocal {
            value: Some(Expr::Tid),
            ..
        })
    )
}

/// A replayed divergence: both runs and the two converged executions.
pub struct Replayed {
    /// The two threads' runs.
    pub traces: [Trace; 2],
    /// The two executions (converged: equal keys) with different values.
    pub values: [DefValue; 2],
}

/// Runs the witness in the interpreter and finds the two converged
/// executions of `target` with different values.
fn replay(
    program: &CfgProgram,
    fid: FuncId,
    target: &Target,
    w: &Witness,
    max_iters: u32,
    tainted_branches: &BTreeSet<usize>,
) -> Result<Replayed, String> {
    let bounds = Bounds {
        max_iters,
        fuel: 10_000_000,
        ..Bounds::default()
    };
    let mut traces = Vec::new();
    for i in 0..2 {
        let mut src = ValuesSource(&w.threads[i]);
        let (trace, res) = run_thread_recording(program, fid, w.tids[i], w.group, bounds, &mut src);
        match res {
            // A run cut by the iteration bound is a prefix of a real run
            // (the witness says so).
            Ok(()) | Err(Stop::Cut(_)) => traces.push(trace),
            // The same without any decision before it (a loop on the
            // thread index alone).
            Err(Stop::OutOfBounds(why)) if why.contains("max-iters=") => traces.push(trace),
            Err(Stop::OutOfBounds(why)) => {
                return Err(format!(
                    "internal: the solver's scenario does not replay (tid {} stops: {why})",
                    w.tids[i]
                ))
            }
            Err(Stop::Need { .. }) => return Err("internal: a value source ran dry".into()),
            // The query keeps to runs free of undefined behaviour; the
            // interpreter knows more kinds of it (a branch on undef).
            Err(Stop::Ub(why)) => {
                return Err(format!(
                    "the only scenario found reaches undefined behaviour (tid {}: {why})",
                    w.tids[i]
                ))
            }
        }
    }
    let Ok::<[Trace; 2], _>(traces) = traces.try_into() else {
        return Err("internal: missing run".into());
    };
    let on_undef = traces.iter().any(|t| {
        t.values
            .iter()
            .any(|v| v.name.is_none() && tainted_branches.contains(&(v.block as usize)))
    });
    if on_undef {
        return Err(
            "the only scenario found branches on undef or poison (undefined behaviour)".into(),
        );
    }
    let mask = |v: i64| {
        if target.bits >= 64 {
            v
        } else {
            v & ((1u64 << target.bits) - 1) as i64
        }
    };
    let place = (target.block as u32, target.inst as u32);
    for a in traces[0]
        .values
        .iter()
        .filter(|v| (v.block, v.inst) == place)
    {
        for b in traces[1]
            .values
            .iter()
            .filter(|v| (v.block, v.inst) == place)
        {
            if a.key == b.key && mask(a.value) != mask(b.value) {
                let values = [a.clone(), b.clone()];
                return Ok(Replayed { traces, values });
            }
        }
    }
    Err(
        "internal: the solver's scenario replays without two converged executions that differ"
            .into(),
    )
}

/// The finding of subject `s` from its replay.
fn finding(
    input: &Input<'_>,
    program: &CfgProgram,
    fid: FuncId,
    s: &Subject,
    w: &Witness,
    r: &Replayed,
    ci: &CycleInfo,
) -> Finding {
    let cfg = &program.module.functions[fid];
    let text = |line: u32| {
        input
            .lines
            .get(line.saturating_sub(1) as usize)
            .map(|l| l.trim().to_string())
            .unwrap_or_default()
    };
    let uses = match s.kind {
        Kind::Branch => Vec::new(),
        _ => uses_of(input, s.shown.trim_start_matches('%')),
    };
    // An `iN` value as LLVM prints constants: signed, `true`/`false` for
    // `i1`.
    let shown_value = |v: i64| {
        if s.bits == 1 {
            return (if v & 1 != 0 { "true" } else { "false" }).to_string();
        }
        let shift = 64 - s.bits.clamp(1, 64);
        ((v << shift) >> shift).to_string()
    };
    let table = trace::table(cfg, &r.traces, w.tids, &r.values, &shown_value);
    let class = trace::classify(ci, s.kind, &r.traces, &r.values);
    Finding {
        value: s.shown.clone(),
        kind: s.kind.name(),
        block: s.block.clone(),
        line: s.line,
        text: text(s.line),
        uses,
        class,
        group: w.group,
        tids: w.tids,
        values: [
            shown_value(r.values[0].value),
            shown_value(r.values[1].value),
        ],
        inputs: [w.threads[0].render(), w.threads[1].render()],
        cut: w.cut,
        cause: None,
        hierarchy: if ci.cycles.is_empty() {
            "no cycles".into()
        } else {
            ci.describe(cfg).replace('\n', "; ")
        },
        table,
    }
}

/// The instructions that use `%name`, by the text of the function.
fn uses_of(input: &Input<'_>, name: &str) -> Vec<Use> {
    let needle = format!("%{name}");
    let mut out = Vec::new();
    for (_, inst) in input.function.instructions() {
        let line = inst.line();
        let Some(text) = input.lines.get(line.saturating_sub(1) as usize) else {
            continue;
        };
        let code = text.split(';').next().unwrap_or("");
        let defines = inst.result.as_ref().is_some_and(|r| plain_name(r) == name);
        let mut hit = false;
        for (at, _) in code.match_indices(&needle) {
            let next = code[at + needle.len()..].chars().next();
            if !next.is_some_and(|c| c.is_ascii_alphanumeric() || "._$-".contains(c)) {
                hit = true;
            }
        }
        if hit && !defines {
            out.push(Use {
                line,
                text: code.trim().to_string(),
            });
        }
    }
    out
}
