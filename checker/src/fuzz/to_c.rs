//! Kernel-language programs written as plain C for clang (`convcheck fuzz
//! --opt`): what `check --frontend clang` compiles and the LLVM mapping
//! reads back (docs/src/llvm.md), in the style of
//! `examples/llvm/plain-kernels.c`.
//!
//! The translation, construct by construct:
//!
//! - an observation point `...; // O1` is a call `O1();` to an external
//!   function declared `convergent`; an unnamed one is named `obs<ID>`;
//! - every oracle (a name that is no local or parameter, a call to an
//!   undefined function inside a condition, `...` as a value) is a call to
//!   an external non-convergent function, which the mapping reads as a
//!   varying oracle named after it: `c1` and `c1()` are `c1()`, the k-th
//!   anonymous `...` of the file is `anyK()`. The mapping reads the oracle
//!   of every such call, whether or not its value is used, so a pass that
//!   drops the branch of an empty `if (c1()) {}` and keeps the call keeps
//!   the read (before the mapping did, a `READ` macro passed each value to
//!   an opaque function to keep it used: EarlyCSE, 2 of 300
//!   programs of seed 2 at `default<O2>`). `uniform(e)` and
//!   `invariant(e)` are `(e)`: plain C has no uniform or invariant values,
//!   so their oracles are varying too;
//! - `tid` and `N` are `get_local_id(0)` and `get_local_size(0)`, external
//!   functions that the mapping knows by name as the thread index and the
//!   group size (as for OpenCL), so scenarios are those of the kernel
//!   language: `N` threads with indices `0` to `N - 1`;
//! - barriers, data-carrying barriers and fences keep their names, which
//!   the mapping knows; any other call outside a condition is a
//!   convergent operation on an external `convergent` function (a
//!   declaration marked `noconvergent` in the file stays non-convergent);
//! - `shared[i]`, `global[i]` and `local[i]` are external `long` arrays; a
//!   compound assignment to memory is a store, as in the kernel language;
//! - values are `long` (64 bits, as the model's); locals are declared at
//!   the top of their function, set to 0, so that labels and jumps never
//!   cross a declaration and nothing reads an undefined value; division,
//!   remainder and shifts are guarded so that no input is undefined
//!   behaviour (division by 0 or by -1 gives 0 or the wrapping negation as
//!   the model computes it, a shift amount is taken modulo 64);
//! - a label `L1` is `label_L1`, so that no label of the kernel language
//!   is a C keyword (`long:`); opt's dumps with C labels such as `L1:` are
//!   read whole since issue 11, so the prefix is no longer needed for
//!   them;
//! - every function but the kernel starts with a call to the opaque
//!   external `convcheck_keep()`, which the mapping reads as a plain
//!   call (no event): without it LLVM proves a helper without convergent
//!   operations free of effects and EarlyCSE deletes calls to it, which
//!   LLVM may do but convcheck's model, where every call to a defined
//!   function is a convergent operation (seed 000), reports as a change of
//!   single-thread behaviour (11 of 40 programs at `default<O2>` before);
//! - `[[clang::noconvergent]] s` is `s` with a comment: clang 19 has no
//!   such attribute in C, so the run's generator leaves it out.
//!
//! The C program is what is checked: clang's `-O0` output is the
//! reference and opt's output the target, so the translation only needs
//! to be plain C that the mapping reads, not to keep the kernel language's
//! semantics (it keeps it except for the oracle classes).

use convcheck_ir::{AssignOp, BinOp, UnOp};
use convcheck_lang::syntax::ast::{
    CaseLabel, Convergence, Expr, ExprKind, File, Item, Place, Stmt, StmtKind,
};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

/// What an external name is declared as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Decl {
    /// An observation point: `void NAME(void)`, convergent.
    Observe,
    /// A barrier without a value.
    Barrier,
    /// A data-carrying barrier, `long NAME(long)`.
    DataBarrier,
    /// A fence, not convergent.
    Fence,
    /// A convergent operation on an external function.
    Convergent,
    /// A non-convergent external call (an oracle, or a `noconvergent`
    /// declaration).
    Plain,
    /// `long NAME(int)`: the thread index or group size in dimension 0.
    Builtin,
}

const TID: &str = "get_local_id";
const GROUP_SIZE: &str = "get_local_size";

const BARRIERS: &[&str] = &["__syncthreads", "barrier", "work_group_barrier"];
const DATA_BARRIERS: &[&str] = &[
    "__syncthreads_count",
    "__syncthreads_and",
    "__syncthreads_or",
];
const FENCES: &[&str] = &[
    "__threadfence",
    "__threadfence_block",
    "__threadfence_system",
    "mem_fence",
    "atomic_work_item_fence",
];

struct Printer<'a> {
    defined: BTreeSet<&'a str>,
    noconvergent: BTreeSet<&'a str>,
    externs: BTreeMap<String, Decl>,
    memory: BTreeSet<&'static str>,
    /// The locals and parameters of the function being printed.
    vars: BTreeSet<String>,
    anonymous: usize,
    dropped_noconvergent: usize,
}

/// The C text of `file` (without a header comment).
pub fn to_c(file: &File) -> String {
    let entry = entry(file);
    let mut p = Printer {
        defined: file.functions().map(|f| f.name.as_str()).collect(),
        noconvergent: file
            .declarations()
            .filter(|d| d.convergence == Convergence::NoConvergent)
            .map(|d| d.name.as_str())
            .collect(),
        externs: BTreeMap::new(),
        memory: BTreeSet::new(),
        vars: BTreeSet::new(),
        anonymous: 0,
        dropped_noconvergent: 0,
    };
    let mut bodies = String::new();
    // Prototypes first, so that helpers may call each other in any order.
    let mut prototypes = String::new();
    for item in &file.items {
        let Item::Function(f) = item else { continue };
        let ret = if f.ret.trim() == "void" {
            "void"
        } else {
            "long"
        };
        let params: Vec<String> = f
            .params
            .iter()
            .map(|q| format!("long {}", q.name))
            .collect();
        let params = if params.is_empty() {
            "void".to_string()
        } else {
            params.join(", ")
        };
        let header = format!("{ret} {}({params})", f.name);
        let _ = writeln!(prototypes, "{header};");
        p.vars = f.params.iter().map(|q| q.name.clone()).collect();
        let mut locals = Vec::new();
        f.body.walk(&mut |s| {
            if let StmtKind::Local { name, .. } = &s.kind {
                if !locals.contains(name) && !p.vars.contains(name) {
                    locals.push(name.clone());
                }
            }
        });
        p.vars.extend(locals.iter().cloned());
        let _ = writeln!(bodies, "\n{header} {{");
        if Some(f.name.as_str()) != entry {
            // An opaque call, so that LLVM never proves a helper free of
            // effects and deletes calls to it (see the module doc).
            p.declare(KEEP, Decl::Plain);
            let _ = writeln!(bodies, "  {KEEP}();");
        }
        for l in &locals {
            let _ = writeln!(bodies, "  long {l} = 0;");
        }
        let StmtKind::Compound(list) = &f.body.kind else {
            continue;
        };
        for s in list {
            p.stmt(s, 1, ret != "void", &mut bodies);
        }
        if ret != "void" {
            bodies.push_str("  return 0;\n");
        }
        bodies.push_str("}\n");
    }
    let mut out = String::new();
    for (name, d) in &p.externs {
        let _ = match d {
            Decl::Observe | Decl::Barrier => {
                writeln!(out, "extern void {name}() __attribute__((convergent));")
            }
            Decl::DataBarrier => {
                writeln!(out, "extern long {name}(long) __attribute__((convergent));")
            }
            Decl::Fence => writeln!(out, "extern void {name}();"),
            Decl::Convergent => writeln!(out, "extern long {name}() __attribute__((convergent));"),
            Decl::Plain => writeln!(out, "extern long {name}();"),
            Decl::Builtin => writeln!(out, "extern long {name}(int);"),
        };
    }
    for m in &p.memory {
        let _ = writeln!(out, "extern long {m}[];");
    }
    if p.dropped_noconvergent > 0 {
        out.push_str(
            "// [[clang::noconvergent]] statements are read as plain statements: clang 19 has no\n\
             // such attribute in C.\n",
        );
    }
    out.push_str(&prototypes);
    out.push_str(&bodies);
    out
}

/// The opaque external function every helper calls first.
const KEEP: &str = "convcheck_keep";

/// The function no other calls (the kernel), when there is one.
fn entry(file: &File) -> Option<&str> {
    let mut called = BTreeSet::new();
    for f in file.functions() {
        f.body.walk(&mut |s| {
            let mut note = |e: &Expr| {
                e.walk(&mut |x| {
                    if let ExprKind::Call { callee, .. } = &x.kind {
                        called.insert(callee.clone());
                    }
                })
            };
            match &s.kind {
                StmtKind::Expr(e) | StmtKind::Return(Some(e)) => note(e),
                StmtKind::Local { init: Some(e), .. } => note(e),
                StmtKind::If { cond, .. }
                | StmtKind::While { cond, .. }
                | StmtKind::DoWhile { cond, .. } => note(cond),
                StmtKind::For { cond, step, .. } => {
                    cond.iter().chain(step.iter()).for_each(&mut note)
                }
                StmtKind::Switch { value, .. } => note(value),
                _ => {}
            }
        });
    }
    let mut roots = file.functions().filter(|f| !called.contains(&f.name));
    match (roots.next(), roots.next()) {
        (Some(f), None) => Some(f.name.as_str()),
        _ => None,
    }
}

fn indent(out: &mut String, depth: usize) {
    for _ in 0..depth {
        out.push_str("  ");
    }
}

impl Printer<'_> {
    /// A read of the oracle `name`: a call to the external function.
    fn read(&mut self, name: &str) -> String {
        format!("{name}()")
    }

    fn declare(&mut self, name: &str, d: Decl) {
        let e = self.externs.entry(name.to_string()).or_insert(d);
        // A name used as an oracle and as a convergent operation is one C
        // function: convergent.
        if *e == Decl::Plain && d == Decl::Convergent {
            *e = d;
        }
    }

    /// The body of a compound statement: its braces on the line of the
    /// statement, anything else on the next line, indented.
    fn body(&mut self, s: &Stmt, depth: usize, value_ret: bool, out: &mut String) {
        match &s.kind {
            StmtKind::Compound(list) => {
                out.push_str(" {\n");
                for c in list {
                    self.stmt(c, depth + 1, value_ret, out);
                }
                indent(out, depth);
                out.push_str("}\n");
            }
            _ => {
                out.push('\n');
                self.stmt(s, depth + 1, value_ret, out);
            }
        }
    }

    fn stmt(&mut self, s: &Stmt, depth: usize, value_ret: bool, out: &mut String) {
        indent(out, depth);
        match &s.kind {
            StmtKind::Observe => {
                let name = s.name.clone().unwrap_or_else(|| format!("obs{}", s.id.0));
                self.declare(&name, Decl::Observe);
                let _ = writeln!(out, "{name}();");
            }
            StmtKind::Empty => out.push_str(";\n"),
            StmtKind::Expr(e) => {
                let e = self.expr(e, false);
                let _ = writeln!(out, "{};", strip_parens(&e));
            }
            StmtKind::Local { name, init, .. } => match init {
                Some(e) => {
                    let e = self.expr(e, false);
                    let _ = writeln!(out, "{name} = {};", strip_parens(&e));
                }
                None => out.push_str(";\n"),
            },
            StmtKind::Compound(list) => {
                out.push_str("{\n");
                for c in list {
                    self.stmt(c, depth + 1, value_ret, out);
                }
                indent(out, depth);
                out.push_str("}\n");
            }
            StmtKind::If { cond, then, els } => {
                let c = self.expr(cond, true);
                let _ = write!(out, "if ({})", strip_parens(&c));
                self.body(then, depth, value_ret, out);
                if let Some(e) = els {
                    indent(out, depth);
                    out.push_str("else");
                    self.body(e, depth, value_ret, out);
                }
            }
            StmtKind::While { cond, body } => {
                let c = self.expr(cond, true);
                let _ = write!(out, "while ({})", strip_parens(&c));
                self.body(body, depth, value_ret, out);
            }
            StmtKind::DoWhile { body, cond } => {
                out.push_str("do");
                self.body(body, depth, value_ret, out);
                let c = self.expr(cond, true);
                if matches!(body.kind, StmtKind::Compound(_)) && out.ends_with("}\n") {
                    // `} while (c);` on the line of the closing brace.
                    out.pop();
                    out.push(' ');
                } else {
                    indent(out, depth);
                }
                let _ = writeln!(out, "while ({});", strip_parens(&c));
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                let i = match init.as_deref().map(|i| &i.kind) {
                    Some(StmtKind::Local {
                        name,
                        init: Some(e),
                        ..
                    }) => format!("{name} = {}", strip_parens(&self.expr(e, false))),
                    Some(StmtKind::Expr(e)) => strip_parens(&self.expr(e, false)).to_string(),
                    _ => String::new(),
                };
                let c = cond
                    .as_ref()
                    .map(|c| strip_parens(&self.expr(c, true)).to_string())
                    .unwrap_or_default();
                let st = step
                    .as_ref()
                    .map(|e| strip_parens(&self.expr(e, false)).to_string())
                    .unwrap_or_default();
                let _ = write!(out, "for ({i}; {c}; {st})");
                self.body(body, depth, value_ret, out);
            }
            StmtKind::Switch { value, body } => {
                let v = self.expr(value, true);
                let _ = write!(out, "switch ({})", strip_parens(&v));
                self.body(body, depth, value_ret, out);
            }
            StmtKind::Case { label, body } => {
                let _ = match label {
                    CaseLabel::Case(v) => writeln!(out, "case {}:", int(*v)),
                    CaseLabel::Default => writeln!(out, "default:"),
                };
                self.stmt(body, depth + 1, value_ret, out);
            }
            StmtKind::Label { label, body } => {
                let _ = writeln!(out, "label_{label}:");
                self.stmt(body, depth + 1, value_ret, out);
            }
            StmtKind::Goto(l) => {
                let _ = writeln!(out, "goto label_{l};");
            }
            StmtKind::Break => out.push_str("break;\n"),
            StmtKind::Continue => out.push_str("continue;\n"),
            StmtKind::Return(e) => match (e, value_ret) {
                (Some(e), true) => {
                    let e = self.expr(e, false);
                    let _ = writeln!(out, "return {};", strip_parens(&e));
                }
                (Some(e), false) => {
                    let e = self.expr(e, false);
                    let _ = writeln!(out, "{{ {}; return; }}", strip_parens(&e));
                }
                (None, true) => out.push_str("return 0;\n"),
                (None, false) => out.push_str("return;\n"),
            },
            StmtKind::NoConvergent(body) => {
                self.dropped_noconvergent += 1;
                out.push_str("/* [[clang::noconvergent]] */\n");
                self.stmt(body, depth, value_ret, out);
            }
        }
    }

    /// An expression, parenthesized unless it is atomic; `cond` when it is
    /// (inside) a condition, where calls to undefined functions are
    /// oracles.
    fn expr(&mut self, e: &Expr, cond: bool) -> String {
        match &e.kind {
            ExprKind::Int(v) => int(*v),
            ExprKind::Bool(b) => (*b as i64).to_string(),
            ExprKind::Name(n) if self.vars.contains(n) => n.clone(),
            ExprKind::Name(n) => {
                self.declare(n, Decl::Plain);
                self.read(n)
            }
            ExprKind::Tid => {
                self.declare(TID, Decl::Builtin);
                format!("{TID}(0)")
            }
            ExprKind::GroupSize => {
                self.declare(GROUP_SIZE, Decl::Builtin);
                format!("{GROUP_SIZE}(0)")
            }
            ExprKind::Dots => {
                self.anonymous += 1;
                let n = format!("any{}", self.anonymous);
                self.declare(&n, Decl::Plain);
                self.read(&n)
            }
            ExprKind::Uniform(a) | ExprKind::Invariant(a) => self.expr(a, cond),
            ExprKind::Unary(op, a) => {
                let a = self.expr(a, cond);
                match op {
                    UnOp::Not => format!("(!{a})"),
                    // Wrapping negation without signed overflow.
                    UnOp::Neg => format!("((long)(0UL - (unsigned long){a}))"),
                    UnOp::BitNot => format!("(~{a})"),
                    UnOp::SExt(n) => {
                        let s = 64 - u32::from(*n);
                        format!("((long)((unsigned long){a} << {s}) >> {s})")
                    }
                    UnOp::ZExt(n) => format!("((long)((unsigned long){a} & {}UL))", mask(*n)),
                    // Float operators come from LLVM IR only; a kernel never
                    // has one, and the C has no such function (clang says so).
                    UnOp::F(f) => format!("convcheck_no_float_{}({a})", f.name().replace('.', "_")),
                }
            }
            ExprKind::Binary(op, a, b) => {
                let (x, y) = (self.expr(a, cond), self.expr(b, cond));
                binary(*op, &x, &y, b)
            }
            ExprKind::Cond(c, a, b) => {
                let (c, a, b) = (self.expr(c, cond), self.expr(a, cond), self.expr(b, cond));
                format!("({c} ? {a} : {b})")
            }
            ExprKind::Call { callee, args, .. } => {
                let name = callee.as_str();
                if self.defined.contains(name) {
                    let mut words = Vec::new();
                    for a in args {
                        words.push(strip_parens(&self.expr(a, cond)).to_string());
                    }
                    return format!("{name}({})", words.join(", "));
                }
                let kind = if BARRIERS.contains(&name) {
                    Decl::Barrier
                } else if DATA_BARRIERS.contains(&name) {
                    Decl::DataBarrier
                } else if FENCES.contains(&name) {
                    Decl::Fence
                } else if cond || self.noconvergent.contains(name) {
                    Decl::Plain
                } else {
                    Decl::Convergent
                };
                self.declare(name, kind);
                if kind == Decl::Plain && cond {
                    // An oracle: its arguments are not evaluated.
                    return self.read(name);
                }
                let words: Vec<String> = args
                    .iter()
                    .map(|a| strip_parens(&self.expr(a, cond)).to_string())
                    .collect();
                format!("{name}({})", words.join(", "))
            }
            ExprKind::Load { space, index, .. } => {
                self.memory.insert(space.name());
                let i = self.expr(index, cond);
                format!("{}[{}]", space.name(), strip_parens(&i))
            }
            ExprKind::Assign { place, op, value } => {
                let v = self.expr(value, cond);
                match place {
                    Place::Var(n) => format!("({n} {} {v})", assign_symbol(*op)),
                    Place::Mem { space, index, .. } => {
                        self.memory.insert(space.name());
                        let i = self.expr(index, cond);
                        // A store of the value, as the kernel language reads
                        // any assignment to memory.
                        format!("({}[{}] = {v})", space.name(), strip_parens(&i))
                    }
                }
            }
        }
    }
}

fn assign_symbol(op: AssignOp) -> &'static str {
    op.symbol()
}

fn mask(n: u8) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// A literal C reads as the same `long`.
fn int(v: i64) -> String {
    if v == i64::MIN {
        "(-9223372036854775807L - 1)".into()
    } else if v < 0 {
        format!("({v}L)")
    } else {
        format!("{v}L")
    }
}

/// A binary operation without undefined behaviour: wrapping `+ - *`
/// through unsigned arithmetic, guarded division and remainder, shift
/// amounts modulo 64. `b` is the right operand's tree (a constant divisor
/// needs no guard).
fn binary(op: BinOp, x: &str, y: &str, b: &Expr) -> String {
    let u = |s: &str| format!("(unsigned long){s}");
    let constant = match b.kind {
        ExprKind::Int(v) => Some(v),
        // The group size is at least 2 in every scenario.
        ExprKind::GroupSize => Some(2),
        _ => None,
    };
    match op {
        BinOp::Add | BinOp::Sub | BinOp::Mul if constant.is_none() => {
            format!("((long)({} {} {}))", u(x), op.symbol(), u(y))
        }
        BinOp::Add | BinOp::Sub | BinOp::Mul => {
            // A small constant operand cannot overflow with the values the
            // checker tries; keeping `x + 1L` keeps clang's usual code.
            match constant {
                Some(v) if v.unsigned_abs() <= 1 << 20 => format!("({x} {} {y})", op.symbol()),
                _ => format!("((long)({} {} {}))", u(x), op.symbol(), u(y)),
            }
        }
        BinOp::Div | BinOp::Rem => match constant {
            Some(v) if v != 0 && v != -1 => format!("({x} {} {y})", op.symbol()),
            Some(0) => "0L".into(),
            Some(_) if op == BinOp::Div => format!("((long)(0UL - {}))", u(x)),
            Some(_) => "0L".into(),
            None => format!(
                "({y} == 0L ? 0L : {y} == -1L ? {} : {x} {} {y})",
                if op == BinOp::Div {
                    format!("(long)(0UL - {})", u(x))
                } else {
                    "0L".into()
                },
                op.symbol()
            ),
        },
        BinOp::Shl => format!("((long)({} << ({y} & 63L)))", u(x)),
        BinOp::Shr => format!("({x} >> ({y} & 63L))", x = x, y = y),
        BinOp::LShr => format!("((long)({} >> ({y} & 63L)))", u(x)),
        BinOp::ULt | BinOp::ULe | BinOp::UGt | BinOp::UGe => {
            let s = match op {
                BinOp::ULt => "<",
                BinOp::ULe => "<=",
                BinOp::UGt => ">",
                _ => ">=",
            };
            format!("({} {s} {})", u(x), u(y))
        }
        BinOp::UDiv | BinOp::URem => {
            let s = if op == BinOp::UDiv { "/" } else { "%" };
            format!("({y} == 0L ? 0L : (long)({} {s} {}))", u(x), u(y))
        }
        _ => format!("({x} {} {y})", op.symbol()),
    }
}

/// Drops one pair of outer parentheses where the context already
/// delimits the expression (a statement, a condition, an argument).
fn strip_parens(s: &str) -> &str {
    let Some(inner) = s.strip_prefix('(').and_then(|r| r.strip_suffix(')')) else {
        return s;
    };
    // Only when the first `(` closes at the end.
    let mut depth = 0i32;
    for (k, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 && k != s.len() - 1 {
                    return s;
                }
            }
            _ => {}
        }
    }
    inner
}

#[cfg(test)]
mod tests {
    use super::*;
    use convcheck_lang::syntax::parse;

    #[test]
    fn generated_constructs_become_plain_c() {
        let src = "void helper1(int x) {\n  if (c1 || x == 0)\n    return;\n  ...; // O3\n}\n\
                   void kernel() {\n  int i1 = 0;\n  for (i1 = 0; i1 < 1; i1 += 1) {\n  L1:\n    \
                   ...; // O1\n    if (uniform(u1) && tid < 1) goto L1;\n  }\n  \
                   shared[(tid + 1) % N] = tid + 1;\n  __syncthreads_count(tid == 0); // O2\n  \
                   helper1(tid); // O4\n  while (... && tid < 1) { ballot(); // O5\n }\n}\n";
        let file = parse("k.c", src).expect("parses");
        let c = to_c(&file);
        for want in [
            "extern void O1() __attribute__((convergent));",
            "extern long __syncthreads_count(long) __attribute__((convergent));",
            "extern long ballot() __attribute__((convergent));",
            "extern long c1();",
            "extern long u1();",
            "extern long any1();",
            "extern long convcheck_keep();",
            "extern long get_local_id(int);",
            "extern long shared[];",
            "void helper1(long x) {\n  convcheck_keep();",
            "void kernel(void) {\n  long i1 = 0;",
            "if (c1() || (x == 0L))",
            "helper1(get_local_id(0));",
            "for (i1 = 0L; i1 < 1L; i1 += 1L) {",
            "  label_L1:\n      O1();",
            "goto label_L1;",
            // No guard for the group size, which is at least 2.
            "shared[(get_local_id(0) + 1L) % get_local_size(0)] = (get_local_id(0) + 1L);",
            "while (any1() && (get_local_id(0) < 1L)) {",
            "__syncthreads_count(get_local_id(0) == 0L);",
        ] {
            assert!(c.contains(want), "missing `{want}` in\n{c}");
        }
        assert!(!c.contains("..."), "{c}");
        assert!(!c.contains("READ") && !c.contains("convcheck_use"), "{c}");
    }

    #[test]
    fn parentheses_are_dropped_only_around_the_whole() {
        assert_eq!(strip_parens("(a + b)"), "a + b");
        assert_eq!(strip_parens("(a) + (b)"), "(a) + (b)");
        assert_eq!(strip_parens("x"), "x");
    }
}
