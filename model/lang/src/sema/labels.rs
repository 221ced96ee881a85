//! Labels and jumps: each function's statement labels, parents, gotos and
//! variables (`facts`), the placement rules of `break`, `continue` and
//! `case`, and the trace-table label of every static node (`// NAME`, the
//! label a `...` stands after, the callee, the access as written, else
//! `@<line>`).

use super::*;

impl<'f> Analyser<'f> {
    /// `break`, `continue` and `case` only inside the statements they need:
    /// `in_loop` and `in_switch` say what encloses `s` in its function.
    pub(super) fn jumps(&mut self, s: &Stmt, in_loop: bool, in_switch: bool) {
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
    pub(super) fn facts<'a>(&mut self, f: &'a Function) -> FnFacts<'a> {
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
    pub(super) fn ancestors<'a>(facts: &FnFacts<'a>, s: &'a Stmt) -> Vec<&'a Stmt> {
        let mut path = vec![s];
        let mut cur = s;
        while let Some(p) = facts.parent.get(&cur.id) {
            path.push(p);
            cur = p;
        }
        path.reverse();
        path
    }

    pub(super) fn set_node(
        &mut self,
        id: StmtId,
        span: Span,
        kind: NodeKind,
        func: FuncId,
        label: String,
    ) {
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

    /// Gives `@line` labels to unnamed statements, `@line:col` on collisions.
    pub(super) fn default_labels(&mut self) {
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
