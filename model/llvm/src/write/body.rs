//! One function's body: names, allocas, blocks, phis, instructions and
//! expressions, in the conventions of [`super`].
//!
//! Expressions are emitted in the order the IR's interpreter evaluates
//! them (left to right; a store's value before its index), and with its
//! notion of a *wanted* value: a load or a call whose value the IR does not
//! use reads no oracle, so its LLVM result is left unused, which the
//! reader maps back to the same unread access.
#![deny(unsafe_code)]

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

use convcheck_ir::{Cfg, Expr, Inst, InstKind, Term};

use super::{global, llvm_string, local, shown, Role, Writer};

/// The LLVM text of function `fid`.
pub(super) fn function<'m>(w: &mut Writer<'m>, f: &'m Cfg) -> String {
    let mut e = Emitter::new(w, f);
    e.run()
}

pub(super) struct Emitter<'w, 'm> {
    pub(super) w: &'w mut Writer<'m>,
    pub(super) f: &'m Cfg,
    pub(super) used: HashSet<String>,
    /// The alloca of each local that is set somewhere.
    pub(super) slot: HashMap<String, String>,
    /// Parameters that are never set, used directly.
    pub(super) param: HashMap<String, String>,
    pub(super) tokens: HashMap<String, String>,
    pub(super) labels: Vec<String>,
    pub(super) lines: Vec<String>,
    pub(super) cur: String,
    /// Where each block's phis go (a line index).
    pub(super) phi_at: Vec<usize>,
    /// The incoming values of each (block, phi): value and predecessor.
    pub(super) incoming: HashMap<(usize, usize), Vec<(String, String)>>,
    pub(super) next_tmp: usize,
    pub(super) lazy: usize,
}

/// The incoming value of each leading phi of a block for one edge.
type PhiInputs = Vec<(usize, Option<Expr>)>;

pub(super) fn effect_free(e: &Expr) -> bool {
    !e.any(&mut |x| {
        matches!(
            x,
            Expr::Load { .. }
                | Expr::Store { .. }
                | Expr::Call { .. }
                | Expr::Oracle(_)
                | Expr::Assign { .. }
        )
    })
}

/// The leading phis of a block, the only ones the interpreter runs.
fn leading_phis(insts: &[Inst]) -> impl Iterator<Item = (usize, &String, &Vec<(usize, Expr)>)> {
    insts
        .iter()
        .enumerate()
        .map_while(|(i, inst)| match &inst.kind {
            InstKind::Phi { name, incoming } => Some((i, name, incoming)),
            _ => None,
        })
}

impl<'w, 'm> Emitter<'w, 'm> {
    fn new(w: &'w mut Writer<'m>, f: &'m Cfg) -> Self {
        Emitter {
            w,
            f,
            used: HashSet::new(),
            slot: HashMap::new(),
            param: HashMap::new(),
            tokens: HashMap::new(),
            labels: Vec::new(),
            lines: Vec::new(),
            cur: String::new(),
            phi_at: Vec::new(),
            incoming: HashMap::new(),
            next_tmp: 0,
            lazy: 0,
        }
    }

    /// A fresh local name, `want` if it is free.
    pub(super) fn unique(&mut self, want: &str) -> String {
        let mut name = if want.is_empty() {
            "v".to_string()
        } else {
            want.to_string()
        };
        let mut k = 0;
        while self.used.contains(&name) {
            k += 1;
            name = format!("{want}.{k}");
        }
        self.used.insert(name.clone());
        name
    }

    pub(super) fn tmp(&mut self) -> String {
        loop {
            let n = format!("v{}", self.next_tmp);
            self.next_tmp += 1;
            if self.used.insert(n.clone()) {
                return local(&n);
            }
        }
    }

    pub(super) fn line(&mut self, s: impl Into<String>) {
        self.lines.push(format!("  {}", s.into()));
    }

    pub(super) fn start_block(&mut self, label: &str) {
        self.lines.push(String::new());
        self.lines
            .push(format!("{}:", crate::value::Name::Named(label.to_string())));
        self.cur = label.to_string();
    }

    fn run(&mut self) -> String {
        let f = self.f;
        // Names: blocks first (they keep theirs), then parameters, locals
        // and tokens.
        let preds = f.preds();
        let split_entry = preds.first().is_some_and(|p| !p.is_empty());
        let entry_label = split_entry.then(|| self.unique("convcheck.entry"));
        for b in &f.blocks {
            let l = self.unique(&b.name);
            self.labels.push(l);
        }
        let mut written: Vec<&String> = Vec::new();
        let mut read: Vec<&String> = Vec::new();
        let mut token_names: Vec<&String> = Vec::new();
        for b in &f.blocks {
            for i in &b.insts {
                match &i.kind {
                    InstKind::SetLocal { name, .. } | InstKind::Phi { name, .. } => {
                        written.push(name)
                    }
                    InstKind::Token { name, .. } => token_names.push(name),
                    _ => {}
                }
            }
            for e in b.exprs() {
                e.walk(&mut |x| match x {
                    Expr::Assign { var, .. } => written.push(var),
                    Expr::Var(v) => read.push(v),
                    _ => {}
                });
            }
        }
        let written: HashSet<&String> = written.into_iter().collect();
        let mut params = Vec::new();
        let mut param_ll = Vec::new();
        for (i, p) in f.params.iter().enumerate() {
            let ll = self.unique(p);
            param_ll.push(local(&ll));
            let oracle = f.param_oracles.get(i).map(|&o| &self.w.m.oracles[o]);
            let mut attrs = String::new();
            if oracle.is_some_and(|o| o.class.is_uniform()) {
                attrs.push_str("inreg ");
            }
            if let Some(o) = oracle.filter(|o| o.name != ll) {
                let _ = write!(attrs, "\"convcheck.oracle\"={} ", llvm_string(&o.name));
            }
            params.push(format!("i64 {attrs}{}", local(&ll)));
            if !written.contains(p) {
                self.param.insert(p.clone(), local(&ll));
            }
        }
        let mut allocas = Vec::new();
        let mut seen = HashSet::new();
        for name in written.iter().copied().chain(read.iter().copied()) {
            if !written.contains(name) || self.param.contains_key(name) || !seen.insert(name) {
                continue;
            }
            let ll = if f.params.contains(name) {
                self.unique(&format!("{name}.var"))
            } else {
                self.unique(name)
            };
            self.slot.insert(name.clone(), local(&ll));
            allocas.push((name.clone(), local(&ll)));
        }
        allocas.sort();
        for t in token_names {
            if !self.tokens.contains_key(t) {
                let ll = self.unique(t);
                self.tokens.insert(t.clone(), local(&ll));
            }
        }
        let returns = f
            .blocks
            .iter()
            .any(|b| matches!(b.term, Term::Ret(Some(_))));
        let conv = self.w.group("convergent nounwind");
        let mut head = format!(
            "define {} {}({}) #{conv} {{",
            if returns { "i64" } else { "void" },
            global(&f.name),
            params.join(", ")
        );
        // The allocas, and the copies of parameters that are set.
        let prologue = |e: &mut Self| {
            for (_, ll) in &allocas {
                e.line(format!("{ll} = alloca i64, align 8"));
            }
            for (i, p) in f.params.iter().enumerate() {
                if let Some(slot) = e.slot.get(p).cloned() {
                    let arg = &param_ll[i];
                    e.line(format!("store i64 {arg}, ptr {slot}, align 8"));
                }
            }
        };
        if let Some(l) = &entry_label {
            self.start_block(l);
            prologue(self);
            let first = local(&self.labels[0]);
            self.line(format!("br label {first}"));
        }
        if f.blocks.is_empty() {
            // LLVM has no body without a block; a function of none cannot
            // be run, and `unreachable` says so.
            let l = self.unique("entry");
            self.start_block(&l);
            self.line("unreachable");
        }
        for (b, block) in f.blocks.iter().enumerate() {
            let label = self.labels[b].clone();
            self.start_block(&label);
            self.phi_at.push(self.lines.len());
            self.lines.push(String::new());
            if b == 0 && entry_label.is_none() {
                prologue(self);
            }
            for inst in &block.insts {
                self.inst(inst);
            }
            self.terminator(b, &block.term, entry_label.as_deref());
        }
        // The phis, now that every predecessor's values are known.
        for (b, block) in f.blocks.iter().enumerate() {
            let mut text = Vec::new();
            let mut stores = Vec::new();
            for (i, name, _) in leading_phis(&block.insts) {
                let Some(entries) = self.incoming.get(&(b, i)).cloned() else {
                    continue;
                };
                let phi = self.tmp();
                let list: Vec<String> = entries
                    .iter()
                    .map(|(v, p)| format!("[ {v}, {} ]", local(p)))
                    .collect();
                text.push(format!("  {phi} = phi i64 {}", list.join(", ")));
                if let Some(slot) = self.slot.get(name) {
                    stores.push(format!("  store i64 {phi}, ptr {slot}, align 8"));
                }
            }
            text.extend(stores);
            self.lines[self.phi_at[b]] = text.join("\n");
        }
        head.push('\n');
        let body: Vec<&String> = self.lines.iter().filter(|l| !l.is_empty()).collect();
        let mut out = head;
        let mut first = true;
        for l in body {
            if l.ends_with(':') && !l.starts_with(' ') && !first {
                out.push('\n');
            }
            first = false;
            out.push_str(l);
            out.push('\n');
        }
        out.push_str("}\n");
        out
    }

    fn inst(&mut self, inst: &Inst) {
        let token = inst.token.as_deref();
        match &inst.kind {
            InstKind::Observe => {
                let label = self.w.m.label(inst.sid).to_string();
                let g = self.w.group("convergent nounwind \"convcheck.observe\"");
                let want = if label.is_empty() { "observe" } else { &label };
                let name = self
                    .w
                    .declare(want, Role::Observe, |n| format!("declare void {n}() #{g}"));
                let attrs = self.site_attrs(&label, &name, None);
                let bundle = self.bundle(token);
                self.line(format!("call void {}(){attrs}{bundle}", global(&name)));
            }
            InstKind::Eval(e) => {
                self.emit(e, false, token);
            }
            InstKind::SetLocal { name, value } => {
                let v = match value {
                    Some(e) => self.emit(e, true, token),
                    None => "0".to_string(),
                };
                if let Some(slot) = self.slot.get(name).cloned() {
                    self.line(format!("store i64 {v}, ptr {slot}, align 8"));
                }
            }
            InstKind::Phi { .. } => {}
            InstKind::Token { kind, name } => {
                let intrinsic = format!("llvm.experimental.convergence.{}", kind.name());
                let callee = self.w.builtin_decl(
                    &intrinsic,
                    "token",
                    "convergent nounwind willreturn memory(none)",
                );
                let t = self
                    .tokens
                    .get(name)
                    .cloned()
                    .unwrap_or_else(|| local(name));
                let bundle = self.bundle(token);
                self.line(format!("{t} = call token {}(){bundle}", global(&callee)));
            }
        }
    }

    pub(super) fn bundle(&self, token: Option<&str>) -> String {
        match token.and_then(|t| self.tokens.get(t)) {
            Some(t) => format!(" [ \"convergencectrl\"(token {t}) ]"),
            None => String::new(),
        }
    }

    /// The call-site attribute group for a label and an oracle name that
    /// differ from what the reader takes from `callee`.
    pub(super) fn site_attrs(&mut self, label: &str, callee: &str, oracle: Option<&str>) -> String {
        let mut attrs = Vec::new();
        if label != shown(callee) {
            attrs.push(format!("\"convcheck.label\"={}", llvm_string(label)));
        }
        if let Some(o) = oracle.filter(|o| *o != shown(callee)) {
            attrs.push(format!("\"convcheck.oracle\"={}", llvm_string(o)));
        }
        if attrs.is_empty() {
            String::new()
        } else {
            format!(" #{}", self.w.group(&attrs.join(" ")))
        }
    }

    fn terminator(&mut self, b: usize, t: &Term, entry_label: Option<&str>) {
        let cond = match t {
            Term::CondBr { cond, .. } => {
                let v = self.emit(cond, true, None);
                let c = self.tmp();
                self.line(format!("{c} = icmp ne i64 {v}, 0"));
                Some(c)
            }
            Term::Switch { value, .. } => Some(self.emit(value, true, None)),
            Term::Ret(Some(e)) => Some(self.emit(e, true, None)),
            _ => None,
        };
        // Incoming values of the successors' phis, computed on the way out;
        // when one has an effect and the block has several successors, on
        // an edge block of its own, so that it runs only on its edge.
        let mut distinct: Vec<usize> = Vec::new();
        for s in t.succs() {
            if !distinct.contains(&s) {
                distinct.push(s);
            }
        }
        let mut edges: Vec<(usize, usize, String)> = Vec::new();
        let mut deferred: Vec<(usize, PhiInputs)> = Vec::new();
        let mut target: HashMap<usize, String> = HashMap::new();
        for &s in &distinct {
            let phis: PhiInputs = leading_phis(&self.f.blocks[s].insts)
                .map(|(i, _, inc)| (i, inc.iter().find(|(p, _)| *p == b).map(|x| x.1.clone())))
                .collect();
            let effects = phis
                .iter()
                .any(|(_, e)| e.as_ref().is_some_and(|e| !effect_free(e)));
            if distinct.len() > 1 && effects {
                let name = self.unique(&format!("{}.to.{}", self.labels[b], self.labels[s]));
                target.insert(s, name);
                deferred.push((s, phis));
                continue;
            }
            for (i, e) in phis {
                let v = match e {
                    Some(e) => self.emit(&e, true, None),
                    None => "0".to_string(),
                };
                edges.push((s, i, v));
            }
        }
        let exit = self.cur.clone();
        for (s, i, v) in &edges {
            let n = t.succs().iter().filter(|x| *x == s).count();
            for _ in 0..n {
                self.incoming
                    .entry((*s, *i))
                    .or_default()
                    .push((v.clone(), exit.clone()));
            }
        }
        if b == 0 {
            // The edge from `convcheck.entry` gives the entry's phis 0.
            if let Some(l) = entry_label {
                for (i, _, _) in leading_phis(&self.f.blocks[0].insts) {
                    self.incoming
                        .entry((0, i))
                        .or_default()
                        .insert(0, ("0".into(), l.to_string()));
                }
            }
        }
        let lbl = |e: &Self, b: usize| local(target.get(&b).unwrap_or(&e.labels[b]));
        let text = match t {
            Term::Br(d) => format!("br label {}", lbl(self, *d)),
            Term::CondBr { then, els, .. } => format!(
                "br i1 {}, label {}, label {}",
                cond.unwrap_or_default(),
                lbl(self, *then),
                lbl(self, *els)
            ),
            Term::Switch { cases, default, .. } => {
                let mut seen = HashSet::new();
                let arms: Vec<String> = cases
                    .iter()
                    .filter(|(v, _)| seen.insert(*v))
                    .map(|(v, d)| format!("i64 {v}, label {}", lbl(self, *d)))
                    .collect();
                format!(
                    "switch i64 {}, label {} [ {} ]",
                    cond.unwrap_or_default(),
                    lbl(self, *default),
                    arms.join(" ")
                )
            }
            Term::Ret(Some(_)) => format!("ret i64 {}", cond.unwrap_or_default()),
            Term::Ret(None) => {
                let returns = self
                    .f
                    .blocks
                    .iter()
                    .any(|b| matches!(b.term, Term::Ret(Some(_))));
                if returns {
                    "ret i64 0".to_string()
                } else {
                    "ret void".to_string()
                }
            }
            Term::Unreachable => "unreachable".to_string(),
        };
        self.line(text);
        for (s, phis) in deferred {
            let label = target[&s].clone();
            self.start_block(&label);
            let mut values = Vec::new();
            for (i, e) in phis {
                let v = match e {
                    Some(e) => self.emit(&e, true, None),
                    None => "0".to_string(),
                };
                values.push((i, v));
            }
            let exit = self.cur.clone();
            for (i, v) in values {
                self.incoming
                    .entry((s, i))
                    .or_default()
                    .push((v, exit.clone()));
            }
            let to = local(&self.labels[s]);
            self.line(format!("br label {to}"));
        }
    }
}
