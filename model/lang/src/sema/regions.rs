//! Regions and key scopes (seed 000, Cycles, Iteration Statement, Jump
//! Statements, The noconvergent Statement): goto cycles, irreducible
//! iteration statements and `noconvergent` statements make
//! implementation-defined regions; every statement's chain of key scopes
//! follows from them and from the loops around it.

use super::*;

impl<'f> Analyser<'f> {
    /// Goto cycles, irreducible loops and noconvergent statements.
    pub(super) fn regions<'a>(&mut self, f: &'a Function, facts: &FnFacts<'a>) {
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

    /// Computes key scope chains, statement by statement.
    pub(super) fn chains(&mut self, fid: FuncId, s: &Stmt, outer: &[Scope]) {
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
}
