//! Static analysis of a parsed kernel file: what every name, call and label
//! means, and where convergence is implementation-defined.
//!
//! [`Kernel::new`] resolves:
//!
//! - **calls** (DESIGN.md 2.1): a call to a function defined in the file is a
//!   real call; a call to a barrier or fence builtin is that; a call to any
//!   other function is, inside a condition, an *oracle* (`cond1()` is the
//!   oracle `cond1`) and, elsewhere, a convergent operation labelled with the
//!   callee's name, unless the callee is declared `noconvergent`.
//! - **names**: locals and parameters are variables; every other name is an
//!   oracle. Oracles are named by what they are, never by where they stand
//!   (DESIGN.md 2.2), so that moving code renames nothing and two copies of
//!   a function read the same oracles: `...` where a value is expected is
//!   an anonymous oracle named after the statement it belongs to and its
//!   order among the anonymous oracles of that kind in the function:
//!   `if#1`, `while#2`, `for#1`, `do#1`, `switch#1` for conditions, the
//!   variable for a value assigned to one (`mask#1` in `auto mask = ...;`),
//!   `value#1` elsewhere. A load's value is the oracle named by the access
//!   as written, `shared[tid]` or `global[i + 1]`. An automatic name used
//!   in two oracle classes gets the class as a suffix (`if#1:uniform`).
//! - **oracle classes**: names inside `uniform(...)` are uniform, inside
//!   `invariant(...)` invariant, elsewhere varying; a name used in two classes
//!   is an error. Parameters of the kernel entry are uniform (kernel
//!   arguments are the same in every thread).
//! - **labels** for trace tables: a statement's `// NAME`, else for `...`
//!   right after `label:` the label's name, else for a call the callee's
//!   name, for a memory access the access as written (`shared[tid]`), else
//!   `@<line>` (`@<line>:<col>` on collisions). A call that is
//!   the whole value of its statement (`f(x);`, `T m = f(x);`,
//!   `m = f(x);`) takes the statement's `// NAME`.
//! - **key scopes** (seed 000, Cycles, Iteration Statement, Jump Statements,
//!   The noconvergent Statement): which statements are keyed by a loop's
//!   iteration and which are *members* of an implementation-defined region:
//!   - the span of a backwards `goto` (a goto cycle): the statements of the
//!     innermost statement containing both the label and the goto, from the
//!     one containing the label to the one containing the goto;
//!   - an iteration statement that is not reducible (a label inside it is the
//!     target of a `goto` or `switch` outside it): each statement of its body
//!     and each evaluation of its condition;
//!   - a statement marked `[[clang::noconvergent]]`.
//!
//! Errors (unknown labels, `break` outside a loop, a jump into a
//! `noconvergent` statement, conflicting oracle classes, ...) are all
//! collected, each with its position.
//!
//! The analysis is one `Analyser` whose steps live in three files, each an
//! `impl` block over the same state: `labels` (labels, gotos, jump
//! placement, trace-table labels), `regions` (implementation-defined
//! regions and key scopes) and `resolution` (names, calls, oracle classes
//! and names). This file holds the `Kernel` it produces and the order of
//! the steps.

use crate::span::{Diagnostic, Diagnostics, Span};
use crate::syntax::ast::*;
/// What a static node (statement or eventful expression) is: the kind of
/// its op in the IR.
pub use convcheck_ir::ops::OpKind as NodeKind;
pub use convcheck_ir::ops::{BarrierKind, CallKind, FuncId, OracleId, OracleInfo};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// A key scope (see `convcheck_ir::key`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scope {
    /// The body, condition and step of a reducible iteration statement:
    /// keyed by the iteration number.
    Loop(StmtId),
    /// A member of an implementation-defined region: every execution of it
    /// gets a fresh choice variable.
    Member(StmtId),
    /// The condition (and step) of an iteration statement that is not
    /// reducible: every evaluation gets a fresh choice variable.
    Cond(StmtId),
    /// Everything inside an iteration statement that is not reducible. It
    /// adds nothing to keys; it only counts the loop's iterations so that
    /// path enumeration can bound them like those of any other loop.
    Irreducible(StmtId),
}

/// Facts about one static node.
#[derive(Clone, Debug)]
pub struct NodeInfo {
    /// The label shown in trace tables.
    pub label: String,
    /// Where it stands.
    pub span: Span,
    /// What it is.
    pub kind: NodeKind,
    /// The function it belongs to.
    pub func: FuncId,
    /// Key scopes enclosing it (statements only; empty for expressions).
    pub chain: Vec<Scope>,
}

/// A function definition after analysis.
#[derive(Clone, Debug)]
pub struct FuncInfo {
    /// Its name.
    pub name: String,
    /// Parameter names.
    pub params: Vec<String>,
    /// The oracle that gives each parameter's value when the function is the
    /// kernel entry.
    pub param_oracles: Vec<OracleId>,
    /// Its body's id.
    pub body: StmtId,
    /// Its parameters and declared locals: every other name it reads is an
    /// oracle.
    pub locals: BTreeSet<String>,
    /// Where its header stands.
    pub span: Span,
}

/// A kernel file after analysis.
#[derive(Clone, Debug)]
pub struct Kernel {
    /// The file name used in diagnostics.
    pub file_name: String,
    /// The syntax tree.
    pub file: File,
    /// Function definitions, in source order.
    pub functions: Vec<FuncInfo>,
    /// Every statement and eventful expression, indexed by id.
    pub nodes: Vec<NodeInfo>,
    /// Every oracle, in order of first use.
    pub oracles: Vec<OracleInfo>,
    /// Oracles by name.
    pub oracle_ids: BTreeMap<String, OracleId>,
    /// Anonymous oracles by the position of their `...`.
    pub dots: HashMap<crate::span::Pos, OracleId>,
    /// The oracle that gives the value of each load.
    pub load_oracles: HashMap<ExprId, OracleId>,
    /// The meaning of each call expression.
    pub calls: HashMap<ExprId, CallKind>,
    /// Statements that are members of implementation-defined regions.
    pub members: BTreeSet<StmtId>,
    /// Iteration statements that are not reducible.
    pub irreducible: BTreeSet<StmtId>,
}

impl Kernel {
    /// Parses and analyses a kernel file.
    pub fn parse(file_name: &str, src: &str) -> Result<Kernel, Diagnostics> {
        let file = crate::syntax::parse(file_name, src)?;
        Kernel::new(file_name, file)
    }

    /// Analyses a parsed file.
    pub fn new(file_name: &str, file: File) -> Result<Kernel, Diagnostics> {
        let mut kernel = Analyser::new(file_name, &file).run()?;
        kernel.file = file;
        Ok(kernel)
    }

    /// The function called `name`.
    pub fn function(&self, name: &str) -> Option<FuncId> {
        self.functions.iter().position(|f| f.name == name)
    }

    /// The kernel entry: `name` if given, else the only function that no
    /// other function calls.
    pub fn entry(&self, name: Option<&str>) -> Result<FuncId, String> {
        if let Some(n) = name {
            return self.function(n).ok_or_else(|| {
                format!(
                    "{}: no function named `{}` (functions: {})",
                    self.file_name,
                    n,
                    self.function_names()
                )
            });
        }
        let called: BTreeSet<FuncId> = self
            .calls
            .values()
            .filter_map(|c| match c {
                CallKind::Real(f) => Some(*f),
                _ => None,
            })
            .collect();
        let roots: Vec<FuncId> = (0..self.functions.len())
            .filter(|f| !called.contains(f))
            .collect();
        match roots.as_slice() {
            [one] => Ok(*one),
            [] if self.functions.is_empty() => {
                Err(format!("{}: the file defines no function", self.file_name))
            }
            _ => Err(format!(
                "{}: several kernels; choose one with --function (functions: {})",
                self.file_name,
                self.function_names()
            )),
        }
    }

    fn function_names(&self) -> String {
        self.functions
            .iter()
            .map(|f| f.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The node info for an id.
    pub fn node(&self, id: StmtId) -> &NodeInfo {
        &self.nodes[id.0 as usize]
    }

    /// The label of a node.
    pub fn label(&self, id: StmtId) -> &str {
        &self.node(id).label
    }

    /// Whether instances of the node are convergent operations, shown in
    /// trace tables: observation points, convergent calls, real calls and
    /// barriers.
    pub fn is_convergent_op(&self, id: StmtId) -> bool {
        matches!(
            self.node(id).kind,
            NodeKind::Observe
                | NodeKind::Call(CallKind::Op(_) | CallKind::Real(_) | CallKind::Barrier(..))
        )
    }
}

struct Analyser<'f> {
    file_name: String,
    file: &'f File,
    errors: Vec<Diagnostic>,
    funcs: BTreeMap<String, FuncId>,
    externs: BTreeMap<String, Convergence>,
    nodes: Vec<Option<NodeInfo>>,
    oracles: Vec<OracleInfo>,
    oracle_ids: BTreeMap<String, OracleId>,
    dots: HashMap<crate::span::Pos, OracleId>,
    load_oracles: HashMap<ExprId, OracleId>,
    calls: HashMap<ExprId, CallKind>,
    members: BTreeSet<StmtId>,
    irreducible: BTreeSet<StmtId>,
    case_values: HashMap<OracleId, BTreeSet<i64>>,
    /// Anonymous oracles named so far in the current function, by kind.
    dot_counts: HashMap<String, u32>,
}

/// Per-function structural facts.
#[derive(Default)]
struct FnFacts<'a> {
    parent: HashMap<StmtId, &'a Stmt>,
    labels: HashMap<&'a str, &'a Stmt>,
    gotos: Vec<(&'a Stmt, &'a str)>,
    vars: BTreeSet<String>,
}

impl<'f> Analyser<'f> {
    fn new(file_name: &str, file: &'f File) -> Analyser<'f> {
        Analyser {
            file_name: file_name.to_string(),
            file,
            errors: Vec::new(),
            funcs: BTreeMap::new(),
            externs: BTreeMap::new(),
            nodes: Vec::new(),
            oracles: Vec::new(),
            oracle_ids: BTreeMap::new(),
            dots: HashMap::new(),
            load_oracles: HashMap::new(),
            calls: HashMap::new(),
            members: BTreeSet::new(),
            irreducible: BTreeSet::new(),
            case_values: HashMap::new(),
            dot_counts: HashMap::new(),
        }
    }

    fn error(&mut self, span: Span, msg: impl Into<String>) {
        let d = Diagnostic::new(&self.file_name, span.start, msg);
        self.errors.push(d);
    }

    fn run(mut self) -> Result<Kernel, Diagnostics> {
        for d in self.file.declarations() {
            self.externs.insert(d.name.clone(), d.convergence);
        }
        for f in self.file.functions() {
            if self.funcs.contains_key(&f.name) {
                self.error(f.span, format!("function `{}` is defined twice", f.name));
                continue;
            }
            let id = self.funcs.len();
            self.funcs.insert(f.name.clone(), id);
        }
        let mut max_id = 0;
        for f in self.file.functions() {
            f.body.walk(&mut |s| {
                max_id = max_id.max(s.id.0);
                for e in stmt_exprs(s) {
                    e.walk(&mut |e| {
                        if let Some(id) = expr_id(e) {
                            max_id = max_id.max(id.0);
                        }
                    });
                }
            });
        }
        self.nodes = vec![None; max_id as usize + 1];
        let funcs: Vec<&Function> = self.file.functions().collect();
        let mut infos = Vec::new();
        for (fid, f) in funcs.iter().enumerate() {
            let facts = self.facts(f);
            self.regions(f, &facts);
            self.dot_counts.clear();
            self.resolve(fid, f, &facts);
            self.jumps(&f.body, false, false);
            let mut param_oracles = Vec::new();
            for p in &f.params {
                param_oracles.push(self.oracle(&p.name, OracleClass::Uniform, f.span));
            }
            infos.push((param_oracles, facts.vars));
        }
        for (fid, f) in funcs.iter().enumerate() {
            self.chains(fid, &f.body, &[]);
        }
        self.default_labels();
        for (id, vals) in std::mem::take(&mut self.case_values) {
            let o = &mut self.oracles[id];
            let mut dom: BTreeSet<i64> = o.domain.iter().copied().collect();
            dom.extend(vals.iter().copied());
            let other = (0..).find(|v| !vals.contains(v)).unwrap_or(0);
            dom.insert(other);
            o.domain = dom.into_iter().collect();
        }
        if !self.errors.is_empty() {
            self.errors.sort_by_key(|d| d.pos);
            return Err(Diagnostics(self.errors));
        }
        let nodes: Vec<NodeInfo> = self
            .nodes
            .into_iter()
            .map(|n| {
                n.unwrap_or(NodeInfo {
                    label: String::new(),
                    span: Span::default(),
                    kind: NodeKind::Stmt,
                    func: 0,
                    chain: Vec::new(),
                })
            })
            .collect();
        let functions = funcs
            .iter()
            .zip(infos)
            .map(|(f, (param_oracles, locals))| FuncInfo {
                name: f.name.clone(),
                params: f.params.iter().map(|p| p.name.clone()).collect(),
                param_oracles,
                body: f.body.id,
                locals,
                span: f.span,
            })
            .collect();
        Ok(Kernel {
            file_name: self.file_name,
            file: File::default(),
            functions,
            nodes,
            oracles: self.oracles,
            oracle_ids: self.oracle_ids,
            dots: self.dots,
            load_oracles: self.load_oracles,
            calls: self.calls,
            members: self.members,
            irreducible: self.irreducible,
        })
    }
}

mod labels;
mod regions;
mod resolution;

fn class_name(c: OracleClass) -> &'static str {
    match c {
        OracleClass::Varying => "varying",
        OracleClass::Uniform => "uniform",
        OracleClass::Invariant => "invariant",
        OracleClass::UniformInvariant => "uniform_invariant",
        OracleClass::Function => "function",
        OracleClass::Choice => "choice",
    }
}

/// The `case` / `default` statements that belong to a switch with this
/// body (not those of nested switches).
pub fn switch_cases(body: &Stmt) -> Vec<&Stmt> {
    let mut out = Vec::new();
    fn visit<'a>(s: &'a Stmt, out: &mut Vec<&'a Stmt>) {
        if let StmtKind::Case { .. } = s.kind {
            out.push(s);
        }
        if let StmtKind::Switch { .. } = s.kind {
            return;
        }
        for c in s.children() {
            visit(c, out);
        }
    }
    visit(body, &mut out);
    out
}

/// The call a statement's `// NAME` also names: the call that is the whole
/// value of the statement, in `f(x);`, `T m = f(x);` and `m = f(x);` (a
/// plain assignment to a variable). Calls anywhere else keep the callee's
/// name, since a statement may hold several.
fn top_call(s: &Stmt) -> Option<ExprId> {
    let value = match &s.kind {
        StmtKind::Expr(e) => match &e.kind {
            ExprKind::Assign {
                place: Place::Var(_),
                op: AssignOp::Set,
                value,
            } => value,
            _ => e,
        },
        StmtKind::Local { init: Some(e), .. } => e,
        _ => return None,
    };
    match &value.kind {
        ExprKind::Call { id, .. } => Some(*id),
        _ => None,
    }
}

/// The id of an eventful expression.
pub fn expr_id(e: &Expr) -> Option<ExprId> {
    match &e.kind {
        ExprKind::Call { id, .. } | ExprKind::Load { id, .. } => Some(*id),
        ExprKind::Assign {
            place: Place::Mem { id, .. },
            ..
        } => Some(*id),
        _ => None,
    }
}

/// The expressions a statement evaluates itself (not those of its
/// substatements).
pub fn stmt_exprs(s: &Stmt) -> Vec<&Expr> {
    let (mut a, b) = split_exprs(s);
    a.extend(b);
    a
}

/// A statement's own expressions, split into conditions and the rest.
fn split_exprs(s: &Stmt) -> (Vec<&Expr>, Vec<&Expr>) {
    match &s.kind {
        StmtKind::If { cond, .. }
        | StmtKind::While { cond, .. }
        | StmtKind::DoWhile { cond, .. } => (vec![cond], vec![]),
        StmtKind::Switch { value, .. } => (vec![value], vec![]),
        StmtKind::For { cond, step, .. } => (cond.iter().collect(), step.iter().collect()),
        StmtKind::Expr(e) => (vec![], vec![e]),
        StmtKind::Local { init, .. } => (vec![], init.iter().collect()),
        StmtKind::Return(e) => (vec![], e.iter().collect()),
        _ => (vec![], vec![]),
    }
}
