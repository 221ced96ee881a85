//! Instrumentation: LLVM IR of a function under test rewritten for one warp
//! of an NVIDIA GPU, so that it logs what the hardware did (the method of
//! the fixture's README, `../shared/hw/h200-2026-11-27`).
//!
//! The input is LLVM IR as the back end would get it (convcheck's lowering
//! written by `convcheck-llvm`, or the user's IR, after the `opt` pipeline
//! when there is one). It is mapped to the model's IR to learn what every
//! call is (the same mapping the model runs), then rewritten line by line
//! (LLVM prints one instruction per line):
//!
//! - every **logged operation** ([`crate::model::logged`]) records first:
//!   an observation point `call void @A()` *becomes* `call void
//!   @convcheck_hw_log(i32 <label index>)`; a convergent call of an
//!   external function is replaced by the log call (and, when its value is
//!   used, by a read of its result oracle's stream, which is what the model
//!   takes it to be); a convergent intrinsic (`llvm.nvvm.*`) or a barrier
//!   keeps its call, with the log call just before it;
//! - `convcheck_hw_log` reads `activemask`; the lowest active lane takes the
//!   next number of a global counter (`atomicrmw add`) and broadcasts it to
//!   the active lanes with `shfl.sync.idx` under that mask; every thread
//!   appends `(label index, number, mask)` to its log
//!   (`@convcheck_hw_log_buf[tid]`) and counts the event in
//!   `@convcheck_hw_logn[tid]` even past the log's end, so a cut log is
//!   seen. Threads that log one number executed that operation together;
//! - every **oracle** read (a call of a non-convergent external function,
//!   `@oracle.NAME` in convcheck's convention) becomes a call of
//!   `convcheck_hw_read(i32 <oracle index>)`: the thread's next value of
//!   that oracle's stream (`@convcheck_hw_streams[tid][oracle][k]`, 0 after
//!   the stream, as the model reads values past a `--thread` list); an
//!   invariant oracle reads the stream's first value every time;
//! - `convcheck.tid()` and `convcheck.group_size()` read `%tid.x` and
//!   `%ntid.x`;
//! - a kernel `convcheck_hw_kernel` calls the function, its parameters read
//!   from their oracles' streams.
//!
//! What this perturbs: every logged operation becomes (or gains) a call
//! whose body branches on the lane and synchronizes the active lanes with
//! `shfl.sync`, so the back end sees a different program around each
//! operation; ptxas may inline the call. Instruction order between logged
//! operations is kept. What it cannot see: operations that are not logged
//! (a thread's plain arithmetic), and convergence between two logged
//! operations. Outside what it covers (a clear [`GpuError::Unsupported`]):
//! memory accesses and data-carrying barriers (the model's values in memory
//! have no stream yet), functions the model does not map.

use crate::model::logged;
use crate::GpuError;
use convcheck_ir::{CallKind, Expr, InstKind, Module, OpKind, OracleClass};
use convcheck_llvm::to_ir::plain_name;
use convcheck_llvm::{InstKind as LInst, Value};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write;

/// The sizes of the logs and streams (the fixture's `W`, `K`, `E`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Layout {
    /// Threads per launch: one warp.
    pub threads: u32,
    /// Values per oracle stream; 0 after them.
    pub stream_len: u32,
    /// Log entries per thread.
    pub log_entries: u32,
}

impl Default for Layout {
    fn default() -> Layout {
        Layout {
            threads: 32,
            stream_len: 16,
            log_entries: 512,
        }
    }
}

/// The label and oracle tables of one kernel, shared by its variants (a
/// pipeline may add or drop operations; indices stay stable).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tables {
    /// Labels of logged operations: a log entry's label index points here.
    pub labels: Vec<String>,
    /// Oracle names, in the order of the value streams.
    pub oracles: Vec<String>,
}

impl Tables {
    fn label(&mut self, l: &str) -> usize {
        index_of(&mut self.labels, l)
    }

    fn oracle(&mut self, o: &str) -> usize {
        index_of(&mut self.oracles, o)
    }
}

fn index_of(v: &mut Vec<String>, s: &str) -> usize {
    match v.iter().position(|x| x == s) {
        Some(i) => i,
        None => {
            v.push(s.to_string());
            v.len() - 1
        }
    }
}

/// The name of the kernel the instrumented module defines.
pub const KERNEL: &str = "convcheck_hw_kernel";
/// The global counter of dynamic instances (i32).
pub const COUNTER: &str = "convcheck_hw_counter";
/// Per-thread event counts (`[threads x i32]`).
pub const LOGN: &str = "convcheck_hw_logn";
/// Per-thread logs (`[threads x [log_entries x [3 x i32]]]`).
pub const LOG: &str = "convcheck_hw_log_buf";
/// Per-thread value streams (`[threads x [oracles x [stream_len x i64]]]`).
pub const STREAMS: &str = "convcheck_hw_streams";
/// Per-thread stream positions (`[threads x [oracles x i32]]`).
pub const POS: &str = "convcheck_hw_pos";

/// An instrumented module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instrumented {
    /// LLVM IR for `nvptx64-nvidia-cuda`.
    pub text: String,
    /// Logged call sites: (line in the input, label index).
    pub sites: Vec<(u32, usize)>,
    /// The number of oracle streams the module's arrays hold.
    pub stream_slots: usize,
    /// The sizes.
    pub layout: Layout,
}

/// What one line of the input becomes.
enum Site {
    /// Replace the call by the log call (observation point, convergent
    /// external call; with `read`, its value is the stream of that oracle).
    Replace { label: String, read: Option<String> },
    /// Keep the call, log just before it.
    Before { label: String },
    /// A read of oracle `name`.
    Read { name: String },
}

/// The intrinsics the runtime uses, with their declarations.
const INTRINSICS: &[(&str, &str)] = &[
    (
        "llvm.nvvm.activemask",
        "declare i32 @llvm.nvvm.activemask()",
    ),
    (
        "llvm.nvvm.read.ptx.sreg.laneid",
        "declare i32 @llvm.nvvm.read.ptx.sreg.laneid()",
    ),
    (
        "llvm.nvvm.read.ptx.sreg.tid.x",
        "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()",
    ),
    (
        "llvm.nvvm.read.ptx.sreg.ntid.x",
        "declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()",
    ),
    ("llvm.cttz.i32", "declare i32 @llvm.cttz.i32(i32, i1)"),
    (
        "llvm.nvvm.shfl.sync.idx.i32",
        "declare i32 @llvm.nvvm.shfl.sync.idx.i32(i32, i32, i32, i32)",
    ),
];

/// Instruments `function` of the LLVM IR `text` (see the module
/// documentation). `tables` gives the label and oracle indices and grows
/// with what this module adds.
pub fn instrument(
    text: &str,
    file: &str,
    function: &str,
    tables: &mut Tables,
    layout: Layout,
) -> Result<Instrumented, GpuError> {
    let parsed =
        convcheck_llvm::parse_module(text, file).map_err(|e| GpuError::Input(e.to_string()))?;
    // The instrumented kernel reads every external call's result from the
    // thread's stream and makes no call, so the model reads such calls as
    // oracles too, without effect events (`MapOptions::calls_as_oracles`).
    let opts = convcheck_llvm::to_ir::MapOptions {
        calls_as_oracles: true,
        ..Default::default()
    };
    let mapped = convcheck_llvm::to_ir::to_module_with(&parsed, file, &opts);
    if let Some(u) = mapped.skipped.first() {
        return Err(GpuError::Unsupported(format!("{file}: {u}")));
    }
    let module = &mapped.module;
    let entry = module.entry(Some(function)).map_err(GpuError::Input)?;
    let sites = classify(module, entry, file)?;
    // Stable indices: labels and oracles of this module, in op order.
    for op in &module.ops {
        if logged(op) {
            tables.label(&op.label);
        }
    }
    for o in &module.oracles {
        tables.oracle(&o.name);
    }
    let class: HashMap<&str, OracleClass> = module
        .oracles
        .iter()
        .map(|o| (o.name.as_str(), o.class))
        .collect();
    let reader = |name: &str| {
        if class.get(name).is_some_and(|c| c.is_invariant()) {
            "convcheck_hw_read_first"
        } else {
            "convcheck_hw_read"
        }
    };

    // The call instructions of the input by line.
    let mut calls: HashMap<u32, (&convcheck_llvm::Instruction, &convcheck_llvm::Call)> =
        HashMap::new();
    let mut call_count: HashMap<String, usize> = HashMap::new();
    for f in parsed.defined_functions() {
        for b in &f.blocks {
            for i in &b.instructions {
                if let LInst::Call(c) = &i.kind {
                    calls.insert(i.span.line, (i, c));
                    if let Value::Global(n) = &c.callee {
                        *call_count.entry(plain_name(n)).or_default() += 1;
                    }
                }
            }
        }
    }

    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut replaced: HashMap<String, usize> = HashMap::new();
    let mut logged_sites = Vec::new();
    let mut fresh = 0usize;
    let mut tmp = || {
        fresh += 1;
        format!("%convcheck.hw.{fresh}")
    };
    for (&line, (inst, call)) in &calls {
        let callee = match &call.callee {
            Value::Global(n) => plain_name(n),
            _ => String::new(),
        };
        let result = inst.result.as_ref().map(|r| format!("%{r}"));
        let ret = call.ret_ty.to_string();
        let idx = line as usize - 1;
        let Some(orig) = lines.get(idx).cloned() else {
            continue;
        };
        let indent: String = orig.chars().take_while(|c| c.is_whitespace()).collect();
        let mut out: Vec<String> = Vec::new();
        // A value read as i64 given to the call's result.
        let give = |out: &mut Vec<String>, value: String, tmp: &mut dyn FnMut() -> String| {
            if let Some(r) = &result {
                if ret == "i64" {
                    out.push(format!("{r} = {value}"));
                } else {
                    let t = tmp();
                    out.push(format!("{t} = {value}"));
                    out.push(format!("{r} = trunc i64 {t} to {ret}"));
                }
            }
        };
        match callee.as_str() {
            "convcheck.tid" | "convcheck.group_size" => {
                let reg = if callee == "convcheck.tid" {
                    "tid"
                } else {
                    "ntid"
                };
                if let Some(r) = &result {
                    let t = tmp();
                    out.push(format!("{t} = call i32 @llvm.nvvm.read.ptx.sreg.{reg}.x()"));
                    out.push(format!("{r} = zext i32 {t} to {ret}"));
                }
                *replaced.entry(callee.clone()).or_default() += 1;
            }
            c if c.starts_with("oracle.") && !sites.contains_key(&line) => {
                // convcheck's convention for an oracle read (no op of its
                // own in the model): `oracle.NAME`, or the name in the
                // call's `"convcheck.oracle"` attribute.
                let name = attr_value(&orig, "convcheck.oracle")
                    .unwrap_or_else(|| c["oracle.".len()..].to_string());
                if module.oracle(&name).is_none() {
                    return Err(GpuError::Unsupported(format!(
                        "{file}:{line}: @{c} reads `{name}`, which is no oracle of the module"
                    )));
                }
                let k = tables.oracle(&name);
                let value = format!("call i64 @{}(i32 {k})", reader(&name));
                give(&mut out, value, &mut tmp);
                *replaced.entry(callee.clone()).or_default() += 1;
            }
            _ => match sites.get(&line) {
                None => continue,
                Some(Site::Before { label }) => {
                    let l = tables.label(label);
                    logged_sites.push((line, l));
                    out.push(log_call(l, &orig));
                    out.push(orig.trim_start().to_string());
                }
                Some(Site::Replace { label, read }) => {
                    let l = tables.label(label);
                    logged_sites.push((line, l));
                    out.push(log_call(l, &orig));
                    match read {
                        Some(o) if result.is_some() => {
                            let k = tables.oracle(o);
                            give(
                                &mut out,
                                format!("call i64 @{}(i32 {k})", reader(o)),
                                &mut tmp,
                            );
                        }
                        _ if result.is_some() => {
                            give(&mut out, "add i64 0, 0".to_string(), &mut tmp);
                        }
                        _ => {}
                    }
                    *replaced.entry(callee.clone()).or_default() += 1;
                }
                Some(Site::Read { name }) => {
                    let k = tables.oracle(name);
                    let value = format!("call i64 @{}(i32 {k})", reader(name));
                    if result.is_some() {
                        give(&mut out, value, &mut tmp);
                    } else {
                        out.push(value.replacen("call", &format!("{} = call", tmp()), 1));
                    }
                    *replaced.entry(callee.clone()).or_default() += 1;
                }
            },
        }
        lines[idx] = out
            .iter()
            .map(|l| format!("{indent}{l}"))
            .collect::<Vec<_>>()
            .join("\n");
    }
    logged_sites.sort_unstable();

    // Declarations whose every call was replaced go; so do the target
    // lines (llc is told the target).
    let mut declared: HashSet<String> = HashSet::new();
    for f in &parsed.functions {
        let name = plain_name(&f.name);
        if !f.is_definition {
            let all_gone = replaced
                .get(&name)
                .is_some_and(|n| Some(n) == call_count.get(&name));
            if all_gone {
                if let Some(l) = lines.get_mut(f.span.line as usize - 1) {
                    l.clear();
                }
            } else {
                declared.insert(name.clone());
            }
        }
        if f.is_definition && name == function {
            // The function under test becomes a device function that the
            // kernel calls.
            if let Some(l) = lines.get_mut(f.span.line as usize - 1) {
                *l = l.replacen(" ptx_kernel ", " ", 1);
            }
        }
    }
    for l in lines.iter_mut() {
        let t = l.trim_start();
        if t.starts_with("target triple") || t.starts_with("target datalayout") {
            l.clear();
        }
    }

    let slots = tables.oracles.len().max(1);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "; instrumented by convcheck-gpu for one warp (docs/src/hardware.md)"
    );
    let _ = writeln!(out, "target triple = \"{}\"", crate::tools::TRIPLE);
    for l in &lines {
        out.push_str(l);
        out.push('\n');
    }
    out.push_str(&runtime(layout, slots));
    for (name, decl) in INTRINSICS {
        if !declared.contains(*name) {
            let _ = writeln!(out, "{decl}");
        }
    }
    // The kernel: parameters from their oracles' streams.
    let f = &module.functions[entry];
    let lf = parsed
        .functions
        .iter()
        .find(|g| g.is_definition && plain_name(&g.name) == function)
        .ok_or_else(|| GpuError::Input(format!("{file}: no definition of @{function}")))?;
    let mut body = String::new();
    let mut args = Vec::new();
    for (i, p) in lf.params.iter().enumerate() {
        let ty = p.ty.to_string();
        let integer = ty
            .strip_prefix('i')
            .is_some_and(|n| n.parse::<u32>().is_ok());
        if !integer {
            return Err(GpuError::Unsupported(format!(
                "{file}: @{function}'s parameter {i} has type {ty}; the hardware oracle gives \
                 integer parameters only"
            )));
        }
        let Some(&o) = f.param_oracles.get(i) else {
            return Err(GpuError::Unsupported(format!(
                "{file}: @{function}'s parameter {i} has no oracle"
            )));
        };
        let name = &module.oracles[o].name;
        let k = tables.oracle(name);
        let _ = writeln!(
            body,
            "  %p{i}.64 = call i64 @convcheck_hw_read_first(i32 {k})"
        );
        if ty == "i64" {
            args.push(format!("i64 %p{i}.64"));
        } else {
            let _ = writeln!(body, "  %p{i} = trunc i64 %p{i}.64 to {ty}");
            args.push(format!("{ty} %p{i}"));
        }
    }
    let _ = writeln!(
        out,
        "\ndefine ptx_kernel void @{KERNEL}() {{\nentry:\n{body}  call {} @{}({})\n  ret void\n}}",
        lf.ret_ty,
        lf.name,
        args.join(", ")
    );
    Ok(Instrumented {
        text: out,
        sites: logged_sites,
        stream_slots: slots,
        layout,
    })
}

/// The log call of label `l` for the operation written on `orig`.
fn log_call(l: usize, orig: &str) -> String {
    match token_bundle(orig) {
        Some(b) => format!("call void @convcheck_hw_log(i32 {l}) {b}"),
        None => format!("call void @convcheck_hw_log(i32 {l})"),
    }
}

/// The functions `entry` runs: itself and what it calls, transitively.
fn reachable(module: &Module, entry: usize) -> HashSet<usize> {
    let mut seen = HashSet::from([entry]);
    let mut todo = vec![entry];
    while let Some(f) = todo.pop() {
        for b in &module.functions[f].blocks {
            for e in b.exprs() {
                e.walk(&mut |x| {
                    if let Expr::Call {
                        kind: CallKind::Real(g),
                        ..
                    } = x
                    {
                        if seen.insert(*g) {
                            todo.push(*g);
                        }
                    }
                });
            }
        }
    }
    seen
}

/// The operand bundle `[ "convergencectrl"(token %t) ]` written on `line`,
/// so that a log call runs under the same token as the operation it logs
/// (LLVM forbids mixing controlled and uncontrolled convergent calls in one
/// function).
fn token_bundle(line: &str) -> Option<&str> {
    let at = line.find("[ \"convergencectrl\"")?;
    let end = at + line[at..].find(") ]")? + 3;
    Some(&line[at..end])
}

/// The value of the string attribute `"key"="value"` written on `line`.
fn attr_value(line: &str, key: &str) -> Option<String> {
    let pat = format!("\"{key}\"=\"");
    let at = line.find(&pat)? + pat.len();
    let rest = &line[at..];
    Some(rest[..rest.find('"')?].to_string())
}

/// What each line of the mapped module's calls is, by line.
fn classify(module: &Module, entry: usize, file: &str) -> Result<BTreeMap<u32, Site>, GpuError> {
    let mut sites = BTreeMap::new();
    let reached = reachable(module, entry);
    for op in module.ops.iter().filter(|op| reached.contains(&op.func)) {
        match op.kind {
            OpKind::Mem { .. } => {
                return Err(GpuError::Unsupported(format!(
                    "{file}:{}: a memory access ({}); the hardware oracle gives no memory \
                     values yet",
                    op.span.start.line, op.label
                )))
            }
            OpKind::Call(CallKind::Barrier(_, Some(_))) => {
                return Err(GpuError::Unsupported(format!(
                    "{file}:{}: a data-carrying barrier ({})",
                    op.span.start.line, op.label
                )))
            }
            _ => {}
        }
    }
    for f in &module.functions {
        for b in &f.blocks {
            for i in &b.insts {
                if let InstKind::Observe = i.kind {
                    sites.insert(
                        module.line(i.sid),
                        Site::Replace {
                            label: module.label(i.sid).to_string(),
                            read: None,
                        },
                    );
                }
            }
            for e in b.exprs() {
                let mut err = None;
                e.walk(&mut |x| {
                    let Expr::Call {
                        op, kind, callee, ..
                    } = x
                    else {
                        return;
                    };
                    let line = module.line(*op);
                    let intrinsic = callee.starts_with("llvm.");
                    let label = module.label(*op).to_string();
                    let site = match kind {
                        CallKind::Op(o) if !intrinsic => Site::Replace {
                            label,
                            read: Some(module.oracles[*o].name.clone()),
                        },
                        CallKind::Op(_) | CallKind::Barrier(..) if intrinsic => {
                            Site::Before { label }
                        }
                        CallKind::Barrier(..) => {
                            err = Some(format!(
                                "{file}:{line}: the barrier @{callee} is no NVVM intrinsic"
                            ));
                            return;
                        }
                        CallKind::Oracle(o) | CallKind::Plain(o) if !intrinsic => Site::Read {
                            name: module.oracles[*o].name.clone(),
                        },
                        _ => return,
                    };
                    if line == 0 {
                        err = Some(format!("{file}: cannot place the call of @{callee}"));
                        return;
                    }
                    sites.insert(line, site);
                });
                if let Some(e) = err {
                    return Err(GpuError::Unsupported(e));
                }
            }
        }
    }
    Ok(sites)
}

/// The runtime: buffers, the log and the stream readers.
fn runtime(l: Layout, slots: usize) -> String {
    let (w, k, e) = (l.threads, l.stream_len, l.log_entries);
    format!(
        r#"
@{COUNTER} = addrspace(1) global i32 0, align 4
@{LOGN} = addrspace(1) global [{w} x i32] zeroinitializer, align 4
@{LOG} = addrspace(1) global [{w} x [{e} x [3 x i32]]] zeroinitializer, align 4
@{STREAMS} = addrspace(1) global [{w} x [{slots} x [{k} x i64]]] zeroinitializer, align 8
@{POS} = addrspace(1) global [{w} x [{slots} x i32]] zeroinitializer, align 4

define internal void @convcheck_hw_log(i32 %label) convergent noinline nounwind {{
entry:
  %mask = call i32 @llvm.nvvm.activemask()
  %lane = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  %leader = call i32 @llvm.cttz.i32(i32 %mask, i1 true)
  %first = icmp eq i32 %lane, %leader
  br i1 %first, label %take, label %share

take:
  %taken = atomicrmw add ptr addrspace(1) @{COUNTER}, i32 1 monotonic, align 4
  br label %share

share:
  %mine = phi i32 [ %taken, %take ], [ 0, %entry ]
  %n = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 %mask, i32 %mine, i32 %leader, i32 31)
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %cp = getelementptr inbounds [{w} x i32], ptr addrspace(1) @{LOGN}, i32 0, i32 %tid
  %c = load i32, ptr addrspace(1) %cp, align 4
  %c1 = add i32 %c, 1
  store i32 %c1, ptr addrspace(1) %cp, align 4
  %room = icmp ult i32 %c, {e}
  br i1 %room, label %write, label %done

write:
  %e0 = getelementptr inbounds [{w} x [{e} x [3 x i32]]], ptr addrspace(1) @{LOG}, i32 0, i32 %tid, i32 %c, i32 0
  store i32 %label, ptr addrspace(1) %e0, align 4
  %e1 = getelementptr inbounds i32, ptr addrspace(1) %e0, i32 1
  store i32 %n, ptr addrspace(1) %e1, align 4
  %e2 = getelementptr inbounds i32, ptr addrspace(1) %e0, i32 2
  store i32 %mask, ptr addrspace(1) %e2, align 4
  br label %done

done:
  ret void
}}

define internal i64 @convcheck_hw_read(i32 %o) noinline nounwind {{
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %pp = getelementptr inbounds [{w} x [{slots} x i32]], ptr addrspace(1) @{POS}, i32 0, i32 %tid, i32 %o
  %k = load i32, ptr addrspace(1) %pp, align 4
  %k1 = add i32 %k, 1
  store i32 %k1, ptr addrspace(1) %pp, align 4
  %in = icmp ult i32 %k, {k}
  br i1 %in, label %get, label %done

get:
  %vp = getelementptr inbounds [{w} x [{slots} x [{k} x i64]]], ptr addrspace(1) @{STREAMS}, i32 0, i32 %tid, i32 %o, i32 %k
  %v = load i64, ptr addrspace(1) %vp, align 8
  br label %done

done:
  %r = phi i64 [ %v, %get ], [ 0, %entry ]
  ret i64 %r
}}

define internal i64 @convcheck_hw_read_first(i32 %o) noinline nounwind {{
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %vp = getelementptr inbounds [{w} x [{slots} x [{k} x i64]]], ptr addrspace(1) @{STREAMS}, i32 0, i32 %tid, i32 %o, i32 0
  %v = load i64, ptr addrspace(1) %vp, align 8
  ret i64 %v
}}

"#
    )
}
