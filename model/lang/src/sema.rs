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
//! Why this file is long: analysis is one pass over the syntax tree whose
//! steps (names, calls, oracle classes, labels, regions) share the
//! `Analyser` state; splitting it would pass that state between files.

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

const BARRIERS: &[(&str, BarrierKind)] = &[
    ("__syncthreads", BarrierKind::Plain),
    ("barrier", BarrierKind::Plain),
    ("work_group_barrier", BarrierKind::Plain),
    ("__syncthreads_count", BarrierKind::Count),
    ("__syncthreads_and", BarrierKind::And),
    ("__syncthreads_or", BarrierKind::Or),
];

const FENCES: &[&str] = &[
    "__threadfence",
    "__threadfence_block",
    "__threadfence_system",
    "mem_fence",
    "atomic_work_item_fence",
];

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

    /// `break`, `continue` and `case` only inside the statements they need:
    /// `in_loop` and `in_switch` say what encloses `s` in its function.
    fn jumps(&mut self, s: &Stmt, in_loop: bool, in_switch: bool) {
        let (mut l, mut w) = (in_loop, in_switch);
        match &s.kind {
            StmtKind::Break if !in_loop && !in_switch => {
                self.error(s.span, "`break` outside a loop or `switch`")
            }
            StmtKind::Continue if !in_loop => self.error(s.span, "`continue` outside a loop"),
            StmtKind::Case { .. } if !in_switch => self.error(s.span, "`case` outside a `switch`"),
            StmtKind::While { .. } | StmtKind::DoWhile { .. } | StmtKind::For { .. } => l = true,
            StmtKind::Switch { .. } => w = true,
            _ => {}
        }
        for c in s.children() {
            self.jumps(c, l, w);
        }
    }

    /// Parents, labels, gotos and variables of one function.
    fn facts<'a>(&mut self, f: &'a Function) -> FnFacts<'a> {
        let mut facts = FnFacts::default();
        for p in &f.params {
            facts.vars.insert(p.name.clone());
        }
        let mut dup = Vec::new();
        fn visit<'a>(s: &'a Stmt, facts: &mut FnFacts<'a>, dup: &mut Vec<(Span, String)>) {
            match &s.kind {
                StmtKind::Label { label, .. }
                    if facts.labels.insert(label.as_str(), s).is_some() =>
                {
                    dup.push((s.span, format!("label `{label}` is defined twice")));
                }
                StmtKind::Goto(l) => facts.gotos.push((s, l.as_str())),
                StmtKind::Local { name, .. } => {
                    facts.vars.insert(name.clone());
                }
                _ => {}
            }
            for c in s.children() {
                facts.parent.insert(c.id, s);
                visit(c, facts, dup);
            }
        }
        visit(&f.body, &mut facts, &mut dup);
        for (span, msg) in dup {
            self.error(span, msg);
        }
        for (g, l) in facts.gotos.clone() {
            if !facts.labels.contains_key(l) {
                self.error(
                    g.span,
                    format!("`goto {l}`: no label `{l}` in `{}`", f.name),
                );
            }
        }
        facts
    }

    /// The path from the function body down to `s`, inclusive.
    fn ancestors<'a>(facts: &FnFacts<'a>, s: &'a Stmt) -> Vec<&'a Stmt> {
        let mut path = vec![s];
        let mut cur = s;
        while let Some(p) = facts.parent.get(&cur.id) {
            path.push(p);
            cur = p;
        }
        path.reverse();
        path
    }

    /// Goto cycles, irreducible loops and noconvergent statements.
    fn regions<'a>(&mut self, f: &'a Function, facts: &FnFacts<'a>) {
        // Goto cycles: the span of every backwards jump.
        for (g, l) in &facts.gotos {
            let Some(lab) = facts.labels.get(l) else {
                continue;
            };
            if lab.id >= g.id {
                continue;
            }
            let la = Self::ancestors(facts, lab);
            let ga = Self::ancestors(facts, g);
            let common = la.iter().zip(&ga).take_while(|(a, b)| a.id == b.id).count();
            let lca = la[common - 1];
            if lca.id == lab.id {
                self.members.insert(lab.id);
                continue;
            }
            let kids = lca.children();
            let from = kids.iter().position(|k| k.id == la[common].id);
            let to = kids.iter().position(|k| k.id == ga[common].id);
            if let (Some(from), Some(to)) = (from, to) {
                for k in &kids[from..=to] {
                    self.members.insert(k.id);
                }
            }
        }
        // Jumps into statements: loops entered from outside are not
        // reducible; jumps into noconvergent statements are errors.
        let mut jumps: Vec<(&'a Stmt, &'a Stmt)> = Vec::new(); // (source, target)
        for (g, l) in &facts.gotos {
            if let Some(lab) = facts.labels.get(l) {
                jumps.push((g, lab));
            }
        }
        f.body.walk(&mut |s| {
            if let StmtKind::Switch { body, .. } = &s.kind {
                for c in switch_cases(body) {
                    jumps.push((s, c));
                }
            }
        });
        for (src, dst) in jumps {
            let da = Self::ancestors(facts, dst);
            let sa: BTreeSet<StmtId> = Self::ancestors(facts, src).iter().map(|s| s.id).collect();
            for a in &da[..da.len() - 1] {
                if sa.contains(&a.id) {
                    continue;
                }
                if a.is_loop() {
                    self.irreducible.insert(a.id);
                }
                if matches!(a.kind, StmtKind::NoConvergent(_)) {
                    self.error(
                        src.span,
                        "jump into a `[[clang::noconvergent]]` statement from outside it \
                         (seed 000, The noconvergent Statement)",
                    );
                }
            }
        }
        let irreducible: Vec<StmtId> = self.irreducible.iter().copied().collect();
        f.body.walk(&mut |s| {
            if irreducible.contains(&s.id) {
                let body = match &s.kind {
                    StmtKind::While { body, .. }
                    | StmtKind::DoWhile { body, .. }
                    | StmtKind::For { body, .. } => body,
                    _ => return,
                };
                match &body.kind {
                    StmtKind::Compound(list) => list.iter().for_each(|c| {
                        self.members.insert(c.id);
                    }),
                    _ => {
                        self.members.insert(body.id);
                    }
                }
            }
            if matches!(s.kind, StmtKind::NoConvergent(_)) {
                self.members.insert(s.id);
            }
        });
    }

    /// An oracle whose name the analysis chose (an anonymous `...`, a
    /// load): used in another class already, the name gets the class as a
    /// suffix instead of being an error.
    fn auto_oracle(&mut self, name: &str, class: OracleClass, span: Span) -> OracleId {
        let name = match self.oracle_ids.get(name) {
            Some(&id) if self.oracles[id].class != class => {
                format!("{name}:{}", class_name(class))
            }
            _ => name.to_string(),
        };
        self.oracle(&name, class, span)
    }

    /// The name of the next anonymous oracle of statement `stmt` (see the
    /// module documentation).
    fn dot_name(&mut self, stmt: &Stmt) -> String {
        let what = match &stmt.kind {
            StmtKind::If { .. } => "if".to_string(),
            StmtKind::While { .. } => "while".to_string(),
            StmtKind::DoWhile { .. } => "do".to_string(),
            StmtKind::For { .. } => "for".to_string(),
            StmtKind::Switch { .. } => "switch".to_string(),
            StmtKind::Local { name, .. } => name.clone(),
            StmtKind::Expr(e) => match &e.kind {
                ExprKind::Assign {
                    place: Place::Var(v),
                    ..
                } => v.clone(),
                _ => "value".to_string(),
            },
            _ => "value".to_string(),
        };
        let n = self.dot_counts.entry(what.clone()).or_insert(0);
        *n += 1;
        format!("{what}#{n}")
    }

    fn oracle(&mut self, name: &str, class: OracleClass, span: Span) -> OracleId {
        if let Some(&id) = self.oracle_ids.get(name) {
            let prev = self.oracles[id].class;
            if prev != class {
                let first = self.oracles[id].span.start;
                self.error(
                    span,
                    format!(
                        "oracle `{name}` is used as {} here but as {} at {}:{}",
                        class_name(class),
                        class_name(prev),
                        first.line,
                        first.col
                    ),
                );
            }
            return id;
        }
        let id = self.oracles.len();
        self.oracles.push(OracleInfo {
            name: name.to_string(),
            class,
            domain: vec![0, 1],
            span,
        });
        self.oracle_ids.insert(name.to_string(), id);
        id
    }

    fn set_node(&mut self, id: StmtId, span: Span, kind: NodeKind, func: FuncId, label: String) {
        if let Some(slot) = self.nodes.get_mut(id.0 as usize) {
            *slot = Some(NodeInfo {
                label,
                span,
                kind,
                func,
                chain: Vec::new(),
            });
        }
    }

    /// Resolves names and calls; records nodes.
    fn resolve<'a>(&mut self, fid: FuncId, f: &'a Function, facts: &FnFacts<'a>) {
        let mut stmts = Vec::new();
        f.body.walk(&mut |s| stmts.push(s));
        for s in stmts {
            let kind = match s.kind {
                StmtKind::Observe => NodeKind::Observe,
                _ => NodeKind::Stmt,
            };
            let mut label = s.name.clone().unwrap_or_default();
            if label.is_empty() && matches!(s.kind, StmtKind::Observe) {
                if let Some(p) = facts.parent.get(&s.id) {
                    if let StmtKind::Label { label: l, .. } = &p.kind {
                        label = l.clone();
                    }
                }
            }
            self.set_node(s.id, s.span, kind, fid, label);
            let top_call = top_call(s);
            let (conds, others) = split_exprs(s);
            for e in conds {
                self.resolve_expr(fid, e, facts, OracleClass::Varying, true, s, top_call);
            }
            for e in others {
                self.resolve_expr(fid, e, facts, OracleClass::Varying, false, s, top_call);
            }
            if let StmtKind::Switch { value, body } = &s.kind {
                let scrutinee = match &value.kind {
                    ExprKind::Name(n) if !facts.vars.contains(n) => self.oracle_ids.get(n).copied(),
                    ExprKind::Call { id, .. } => match self.calls.get(id) {
                        Some(CallKind::Oracle(o)) => Some(*o),
                        _ => None,
                    },
                    ExprKind::Dots => self.dots.get(&value.span.start).copied(),
                    _ => None,
                };
                let mut seen = BTreeSet::new();
                for c in switch_cases(body) {
                    if let StmtKind::Case { label, .. } = &c.kind {
                        if !seen.insert(*label) {
                            self.error(c.span, "duplicate `case` value in this `switch`");
                        }
                        if let (Some(o), CaseLabel::Case(v)) = (scrutinee, label) {
                            self.case_values.entry(o).or_default().insert(*v);
                        }
                    }
                }
            }
        }
    }

    #[allow(clippy::only_used_in_recursion)]
    fn resolve_expr<'a>(
        &mut self,
        fid: FuncId,
        e: &Expr,
        facts: &FnFacts<'a>,
        class: OracleClass,
        in_cond: bool,
        stmt: &Stmt,
        top_call: Option<ExprId>,
    ) {
        let rec = |this: &mut Self, x: &Expr, class| {
            this.resolve_expr(fid, x, facts, class, in_cond, stmt, top_call)
        };
        match &e.kind {
            ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::GroupSize => {}
            ExprKind::Tid => {
                if class == OracleClass::Uniform {
                    self.error(
                        e.span,
                        "`tid` inside `uniform(...)`: the thread index is not uniform",
                    );
                }
            }
            ExprKind::Name(n) => {
                if !facts.vars.contains(n) {
                    self.oracle(n, class, e.span);
                }
            }
            ExprKind::Dots => {
                let name = self.dot_name(stmt);
                let id = self.auto_oracle(&name, class, e.span);
                self.dots.insert(e.span.start, id);
            }
            ExprKind::Uniform(a) => rec(self, a, OracleClass::Uniform),
            ExprKind::Invariant(a) => rec(self, a, OracleClass::Invariant),
            ExprKind::Unary(_, a) => rec(self, a, class),
            ExprKind::Binary(_, a, b) => {
                rec(self, a, class);
                rec(self, b, class);
            }
            ExprKind::Cond(a, b, c) => {
                rec(self, a, class);
                rec(self, b, class);
                rec(self, c, class);
            }
            ExprKind::Load { space, index, id } => {
                let label = format!(
                    "{}[{}]",
                    space.name(),
                    crate::syntax::print_expr(index)
                );
                // Values in memory are not modelled (DESIGN.md 2.6): a load
                // whose value is used reads an oracle named like the access.
                let o = self.auto_oracle(&label, class, e.span);
                self.load_oracles.insert(*id, o);
                let kind = NodeKind::Mem {
                    space: *space,
                    write: false,
                };
                self.set_node(*id, e.span, kind, fid, label);
                rec(self, index, class);
            }
            ExprKind::Assign { place, value, .. } => {
                match place {
                    Place::Var(v) => {
                        if !facts.vars.contains(v) {
                            self.error(
                                e.span,
                                format!("assignment to `{v}`, which is not a local or parameter"),
                            );
                        }
                    }
                    Place::Mem { space, index, id } => {
                        let label = format!(
                            "{}[{}]",
                            space.name(),
                            crate::syntax::print_expr(index)
                        );
                        let kind = NodeKind::Mem {
                            space: *space,
                            write: true,
                        };
                        self.set_node(*id, e.span, kind, fid, label);
                        rec(self, index, class);
                    }
                }
                rec(self, value, class);
            }
            ExprKind::Call { callee, args, id } => {
                let kind = if let Some(&f) = self.funcs.get(callee) {
                    let want = self.file.functions().nth(f).map(|f| f.params.len());
                    if want != Some(args.len()) {
                        self.error(
                            e.span,
                            format!(
                                "`{callee}` takes {} argument(s), {} given",
                                want.unwrap_or(0),
                                args.len()
                            ),
                        );
                    }
                    CallKind::Real(f)
                } else if let Some((_, b)) = BARRIERS.iter().find(|(n, _)| n == callee) {
                    if *b != BarrierKind::Plain && args.len() != 1 {
                        self.error(
                            e.span,
                            format!("`{callee}` takes one argument (the predicate)"),
                        );
                    }
                    // The result of a data-carrying barrier is the same in
                    // every participating thread; when the value is used it
                    // is read from a uniform oracle named after the builtin.
                    let result = (*b != BarrierKind::Plain)
                        .then(|| self.oracle(callee, OracleClass::Uniform, e.span));
                    CallKind::Barrier(*b, result)
                } else if FENCES.contains(&callee.as_str()) {
                    CallKind::Fence
                } else if in_cond {
                    CallKind::Oracle(self.oracle(callee, class, e.span))
                } else {
                    let o = self.oracle(callee, OracleClass::Varying, e.span);
                    match self.externs.get(callee) {
                        Some(Convergence::NoConvergent) => CallKind::Plain(o),
                        _ => CallKind::Op(o),
                    }
                };
                self.calls.insert(*id, kind);
                let mut label = callee.clone();
                if top_call == Some(*id) {
                    if let Some(n) = &stmt.name {
                        label = n.clone();
                    }
                }
                self.set_node(*id, e.span, NodeKind::Call(kind), fid, label);
                if !matches!(kind, CallKind::Oracle(_)) {
                    for a in args {
                        rec(self, a, class);
                    }
                }
            }
        }
    }

    /// Computes key scope chains, statement by statement.
    fn chains(&mut self, fid: FuncId, s: &Stmt, outer: &[Scope]) {
        let mut chain = outer.to_vec();
        if self.members.contains(&s.id) {
            chain.push(Scope::Member(s.id));
        }
        if let Some(Some(n)) = self.nodes.get_mut(s.id.0 as usize) {
            n.chain = chain.clone();
            n.func = fid;
        }
        let mut inner = chain.clone();
        if s.is_loop() {
            if self.irreducible.contains(&s.id) {
                inner.push(Scope::Irreducible(s.id));
            } else {
                inner.push(Scope::Loop(s.id));
            }
        }
        match &s.kind {
            StmtKind::For { init, body, .. } => {
                if let Some(i) = init {
                    self.chains(fid, i, &chain);
                }
                self.chains(fid, body, &inner);
            }
            _ => {
                for c in s.children() {
                    self.chains(fid, c, &inner);
                }
            }
        }
    }

    /// Gives `@line` labels to unnamed statements, `@line:col` on collisions.
    fn default_labels(&mut self) {
        let mut count: HashMap<(FuncId, String), usize> = HashMap::new();
        for n in self.nodes.iter().flatten() {
            if n.label.is_empty() {
                *count
                    .entry((n.func, format!("@{}", n.span.start.line)))
                    .or_default() += 1;
            }
        }
        for n in self.nodes.iter_mut().flatten() {
            if n.label.is_empty() {
                let line = format!("@{}", n.span.start.line);
                n.label = if count.get(&(n.func, line.clone())) == Some(&1) {
                    line
                } else {
                    format!("@{}:{}", n.span.start.line, n.span.start.col)
                };
            }
        }
    }
}

fn class_name(c: OracleClass) -> &'static str {
    match c {
        OracleClass::Varying => "varying",
        OracleClass::Uniform => "uniform",
        OracleClass::Invariant => "invariant",
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
