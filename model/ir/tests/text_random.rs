//! Random tests of the IR's text form: the reader
//! ([`convcheck_ir::parse`]) against the printer ([`convcheck_ir::print`]).
//!
//! - Round trip: random well-formed modules, built directly from the IR
//!   types so that every instruction, terminator, expression, operator and
//!   call kind occurs, with quoted and plain names, negative constants and
//!   arbitrary spans, print and read back to the same module and the same
//!   text.
//! - No input makes the reader panic or overflow its stack: random bytes,
//!   token soup, and mutations of printed modules (byte deletions and
//!   insertions, line swaps, truncations). Whatever it accepts must print
//!   and read back.
//!
//! Hand-written text and the error messages are tested in `text.rs`.

use convcheck_ir::parse::{parse_module, parse_never_panics, MAX_ERRORS};
use convcheck_ir::print::module_text;
use convcheck_ir::{
    AssignOp, BarrierKind, BinOp, Block, CallKind, Cfg, Expr, Inst, InstKind, Module, OpId, OpInfo,
    OpKind, OracleClass, OracleInfo, Pos, Space, Span, Term, TokenKind, UnOp,
};
use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;
use proptest::sample::select;
use std::collections::HashSet;

/// Deterministic runs (a fixed seed) and a bound on shrinking.
fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x0c1e_7e47),
        max_shrink_time: 30_000,
        ..ProptestConfig::default()
    }
}

fn b(e: Expr) -> Box<Expr> {
    Box::new(e)
}

// ---------------------------------------------------------------------------
// Random well-formed modules

/// Names: plain ones, ones that look like keywords, and ones that need
/// quotes (control characters, quotes, backslashes, non-ASCII).
fn arb_name() -> impl Strategy<Value = String> {
    let special = select(vec![
        '"', '\\', '\n', '\t', '\r', ' ', '@', '#', ';', '}', ':', '\u{7f}', '\u{0}', 'é', '→',
    ]);
    prop_oneof![
        4 => "[a-z_][a-z0-9_.]{0,5}",
        1 => "[0-9.][a-z0-9_.]{0,3}",
        1 => select(vec![
            "br", "label", "ret", "void", "tid", "N", "define", "origin", "op", "oracle",
            "convergencectrl", "not", "call", "load", "module", "entry", "",
        ])
        .prop_map(String::from),
        2 => vec(prop_oneof![any::<char>(), special], 0..5)
            .prop_map(|cs| cs.into_iter().collect()),
    ]
}

/// Op labels, without line breaks: the printer writes labels into
/// comments as they are (see `fixme_label_with_a_line_break_breaks_the_comment`
/// in `text.rs`).
fn arb_label() -> impl Strategy<Value = String> {
    arb_name()
}

fn arb_span() -> impl Strategy<Value = Span> {
    let pos = || {
        prop_oneof![(0u32..50, 0u32..80), (any::<u32>(), any::<u32>())]
            .prop_map(|(line, col)| Pos { line, col })
    };
    (pos(), pos()).prop_map(|(start, end)| Span { start, end })
}

fn arb_i64() -> impl Strategy<Value = i64> {
    prop_oneof![-5i64..5, any::<i64>(), Just(i64::MIN), Just(i64::MAX)]
}

/// Ids of oracles, functions and blocks are drawn large and reduced
/// modulo the table's length by [`Fix`].
fn arb_call_kind() -> impl Strategy<Value = CallKind> {
    let barrier = select(vec![
        BarrierKind::Plain,
        BarrierKind::Count,
        BarrierKind::And,
        BarrierKind::Or,
    ]);
    prop_oneof![
        any::<usize>().prop_map(CallKind::Real),
        any::<usize>().prop_map(CallKind::Op),
        any::<usize>().prop_map(CallKind::Plain),
        any::<usize>().prop_map(CallKind::Oracle),
        (barrier, option::of(any::<usize>())).prop_map(|(b, o)| CallKind::Barrier(b, o)),
        Just(CallKind::Fence),
    ]
}

fn arb_space() -> impl Strategy<Value = Space> {
    select(vec![Space::Shared, Space::Global, Space::Local])
}

/// An element access, or 1 to 8 bytes, volatile or not.
fn arb_access() -> impl Strategy<Value = convcheck_ir::Access> {
    (0u32..=8, any::<bool>()).prop_map(|(bytes, volatile)| convcheck_ir::Access {
        bytes,
        volatile,
        atomic: 0,
    })
}

fn arb_expr() -> impl Strategy<Value = Expr> {
    let leaf = prop_oneof![
        arb_i64().prop_map(Expr::Const),
        Just(Expr::Tid),
        Just(Expr::GroupSize),
        arb_name().prop_map(Expr::Var),
        any::<usize>().prop_map(Expr::Oracle),
    ];
    leaf.prop_recursive(4, 24, 3, |inner| {
        let unop = prop_oneof![
            select(vec![UnOp::Not, UnOp::Neg, UnOp::BitNot]),
            (1u8..64).prop_map(UnOp::SExt),
            (1u8..64).prop_map(UnOp::ZExt),
        ];
        let assign = select(vec![
            AssignOp::Set,
            AssignOp::Add,
            AssignOp::Sub,
            AssignOp::Mul,
        ]);
        prop_oneof![
            (unop, inner.clone()).prop_map(|(op, a)| Expr::Unary(op, b(a))),
            (select(BinOp::ALL.to_vec()), inner.clone(), inner.clone())
                .prop_map(|(op, x, y)| Expr::binary(op, x, y)),
            (inner.clone(), inner.clone(), inner.clone()).prop_map(|(c, x, y)| Expr::Select(
                b(c),
                b(x),
                b(y)
            )),
            (arb_call_kind(), arb_name(), vec(inner.clone(), 0..3)).prop_map(
                |(kind, callee, args)| Expr::Call {
                    op: OpId(0),
                    kind,
                    callee,
                    args
                }
            ),
            (
                arb_space(),
                inner.clone(),
                option::of(any::<usize>()),
                arb_access()
            )
                .prop_map(|(space, index, value, access)| Expr::Load {
                    op: OpId(0),
                    space,
                    index: b(index),
                    value,
                    access,
                }),
            (arb_space(), inner.clone(), inner.clone(), arb_access()).prop_map(
                |(space, index, value, access)| Expr::Store {
                    op: OpId(0),
                    space,
                    index: b(index),
                    value: b(value),
                    access,
                }
            ),
            (arb_name(), assign, inner).prop_map(|(var, op, value)| Expr::Assign {
                var,
                op,
                value: b(value)
            }),
        ]
    })
}

fn arb_inst() -> impl Strategy<Value = Inst> {
    let token_kind = select(vec![TokenKind::Entry, TokenKind::Loop, TokenKind::Anchor]);
    let kind = prop_oneof![
        Just(InstKind::Observe),
        arb_expr().prop_map(InstKind::Eval),
        (arb_name(), option::of(arb_expr()))
            .prop_map(|(name, value)| InstKind::SetLocal { name, value }),
        (arb_name(), vec((any::<usize>(), arb_expr()), 0..3))
            .prop_map(|(name, incoming)| InstKind::Phi { name, incoming }),
        (token_kind, arb_name()).prop_map(|(kind, name)| InstKind::Token { kind, name }),
    ];
    (kind, option::of(arb_name())).prop_map(|(kind, token)| Inst {
        kind,
        sid: OpId(0),
        token,
    })
}

fn arb_term() -> impl Strategy<Value = Term> {
    prop_oneof![
        any::<usize>().prop_map(Term::Br),
        (arb_expr(), any::<usize>(), any::<usize>()).prop_map(|(cond, then, els)| Term::CondBr {
            cond,
            then,
            els
        }),
        (
            arb_expr(),
            vec((arb_i64(), any::<usize>()), 0..3),
            any::<usize>()
        )
            .prop_map(|(value, cases, default)| Term::Switch {
                value,
                cases,
                default
            }),
        Just(Term::Ret(None)),
        Just(Term::Unreachable),
        arb_expr().prop_map(|e| Term::Ret(Some(e))),
    ]
}

fn arb_block() -> impl Strategy<Value = Block> {
    (arb_name(), vec(arb_inst(), 0..4), arb_term(), any::<bool>()).prop_map(
        |(name, insts, term, origin)| Block {
            name,
            insts,
            term,
            origin: origin.then_some(OpId(0)),
        },
    )
}

fn arb_cfg() -> impl Strategy<Value = Cfg> {
    (
        arb_name(),
        vec(arb_name(), 0..4),
        vec(any::<usize>(), 0..4),
        vec(arb_block(), 1..4),
    )
        .prop_map(|(name, params, param_oracles, blocks)| Cfg {
            name,
            params,
            param_oracles,
            blocks,
        })
}

fn arb_oracle() -> impl Strategy<Value = OracleInfo> {
    let class = select(vec![
        OracleClass::Varying,
        OracleClass::Uniform,
        OracleClass::Invariant,
        OracleClass::UniformInvariant,
    ]);
    (arb_name(), class, vec(arb_i64(), 0..4), arb_span()).prop_map(|(name, class, domain, span)| {
        OracleInfo {
            name,
            class,
            domain,
            span,
        }
    })
}

fn arb_op_kind() -> impl Strategy<Value = OpKind> {
    prop_oneof![
        Just(OpKind::Stmt),
        Just(OpKind::Observe),
        Just(OpKind::Token),
        (arb_space(), any::<bool>()).prop_map(|(space, write)| OpKind::Mem { space, write }),
        arb_call_kind().prop_map(OpKind::Call),
    ]
}

/// A well-formed module: names unique in their name space, every id in
/// range, parameter oracles a prefix of the parameters, and an op table
/// whose entries match their uses (numbered in the order the printer
/// writes them), plus a few ops nothing uses.
fn arb_module() -> impl Strategy<Value = Module> {
    (
        any::<String>(),
        vec(arb_oracle(), 1..4),
        vec(arb_cfg(), 1..4),
        vec((arb_label(), arb_span()), 1..5),
        vec((arb_op_kind(), any::<usize>()), 0..3),
    )
        .prop_map(|(name, oracles, functions, pool, extra)| {
            let mut m = Module {
                name,
                max_group: None,
                ops: Vec::new(),
                oracles,
                functions,
            };
            Fix::module(&mut m, pool, extra);
            m
        })
}

/// Makes a random module well-formed.
struct Fix {
    oracles: usize,
    funcs: usize,
    blocks: usize,
    func: usize,
    ops: Vec<OpInfo>,
    pool: Vec<(String, Span)>,
}

fn unique<'a>(names: impl Iterator<Item = &'a mut String>) {
    let mut seen = HashSet::new();
    for n in names {
        while !seen.insert(n.clone()) {
            n.push('\'');
        }
    }
}

impl Fix {
    fn module(m: &mut Module, pool: Vec<(String, Span)>, extra: Vec<(OpKind, usize)>) {
        unique(m.oracles.iter_mut().map(|o| &mut o.name));
        unique(m.functions.iter_mut().map(|f| &mut f.name));
        let mut fix = Fix {
            oracles: m.oracles.len(),
            funcs: m.functions.len(),
            blocks: 0,
            func: 0,
            ops: Vec::new(),
            pool,
        };
        for (f, cfg) in m.functions.iter_mut().enumerate() {
            fix.func = f;
            fix.blocks = cfg.blocks.len();
            unique(cfg.blocks.iter_mut().map(|b| &mut b.name));
            cfg.param_oracles.truncate(cfg.params.len());
            for o in &mut cfg.param_oracles {
                *o %= fix.oracles;
            }
            for block in &mut cfg.blocks {
                if block.origin.is_some() {
                    block.origin = Some(fix.op(OpKind::Stmt));
                }
                for inst in &mut block.insts {
                    fix.inst(inst);
                }
                fix.term(&mut block.term);
            }
        }
        for (mut kind, func) in extra {
            if let OpKind::Call(k) = &mut kind {
                fix.call(k);
            }
            fix.func = func % fix.funcs;
            fix.op(kind);
        }
        m.ops = fix.ops;
    }

    fn op(&mut self, kind: OpKind) -> OpId {
        let (label, span) = self.pool[self.ops.len() % self.pool.len()].clone();
        // Every third convergent operation accesses no memory, so that
        // the `memory(none)` mark goes through the text form too.
        let memory_none = matches!(kind, OpKind::Call(CallKind::Op(_))) && self.ops.len() % 3 == 0;
        self.ops.push(OpInfo {
            label,
            span,
            kind,
            func: self.func,
            memory_none,
        });
        OpId(self.ops.len() as u32 - 1)
    }

    fn call(&self, k: &mut CallKind) {
        match k {
            CallKind::Real(f) => *f %= self.funcs,
            CallKind::Op(o) | CallKind::Plain(o) | CallKind::Oracle(o) => *o %= self.oracles,
            CallKind::Barrier(_, Some(o)) => *o %= self.oracles,
            CallKind::Barrier(_, None) | CallKind::Fence => {}
        }
    }

    fn inst(&mut self, inst: &mut Inst) {
        inst.sid = self.op(match inst.kind {
            InstKind::Observe => OpKind::Observe,
            InstKind::Token { .. } => OpKind::Token,
            _ => OpKind::Stmt,
        });
        match &mut inst.kind {
            InstKind::Eval(e) | InstKind::SetLocal { value: Some(e), .. } => self.expr(e),
            InstKind::Phi { incoming, .. } => {
                for (b, e) in incoming {
                    *b %= self.blocks;
                    self.expr(e);
                }
            }
            _ => {}
        }
    }

    fn term(&mut self, t: &mut Term) {
        let n = self.blocks;
        t.map_succs(|b| b % n);
        if let Term::CondBr { cond: e, .. } | Term::Switch { value: e, .. } | Term::Ret(Some(e)) = t
        {
            self.expr(e);
        }
    }

    fn expr(&mut self, e: &mut Expr) {
        match e {
            Expr::Const(_) | Expr::Tid | Expr::GroupSize | Expr::Var(_) => {}
            Expr::Oracle(o) => *o %= self.oracles,
            Expr::Unary(_, a) | Expr::Assign { value: a, .. } => self.expr(a),
            Expr::Binary(_, x, y) => {
                self.expr(x);
                self.expr(y);
            }
            Expr::Select(c, x, y) => {
                self.expr(c);
                self.expr(x);
                self.expr(y);
            }
            Expr::Call { op, kind, args, .. } => {
                self.call(kind);
                *op = self.op(OpKind::Call(*kind));
                args.iter_mut().for_each(|a| self.expr(a));
            }
            Expr::Load {
                op,
                space,
                index,
                value,
                ..
            } => {
                *op = self.op(OpKind::Mem {
                    space: *space,
                    write: false,
                });
                if let Some(o) = value {
                    *o %= self.oracles;
                }
                self.expr(index);
            }
            Expr::Store {
                op,
                space,
                index,
                value,
                ..
            } => {
                *op = self.op(OpKind::Mem {
                    space: *space,
                    write: true,
                });
                self.expr(index);
                self.expr(value);
            }
        }
    }
}

proptest! {
    #![proptest_config(config(1000))]

    /// Printing a well-formed module and reading it back gives the module,
    /// and printing that gives the same text.
    #[test]
    fn printed_modules_read_back(m in arb_module()) {
        let text = module_text(&m);
        let back = parse_module("t.cir", &text);
        prop_assert_eq!(back.as_ref(), Ok(&m), "text:\n{}", text);
        if let Ok(back) = back {
            prop_assert_eq!(module_text(&back), text);
        }
    }
}

// ---------------------------------------------------------------------------
// No input panics

#[derive(Clone, Debug)]
enum Mutation {
    Delete(usize),
    Insert(usize, u8),
    SwapLines(usize, usize),
    Truncate(usize),
}

fn arb_mutation() -> impl Strategy<Value = Mutation> {
    let byte = select(b"()[]{}\"\\\n;%$@#-09:,=>x \xff\xc3".to_vec());
    prop_oneof![
        any::<usize>().prop_map(Mutation::Delete),
        (any::<usize>(), byte).prop_map(|(i, c)| Mutation::Insert(i, c)),
        (any::<usize>(), any::<usize>()).prop_map(|(i, j)| Mutation::SwapLines(i, j)),
        any::<usize>().prop_map(Mutation::Truncate),
    ]
}

fn mutate(text: &str, muts: &[Mutation]) -> Vec<u8> {
    let mut bytes = text.as_bytes().to_vec();
    for m in muts {
        let n = bytes.len();
        match *m {
            Mutation::Delete(i) if n > 0 => {
                bytes.remove(i % n);
            }
            Mutation::Insert(i, c) => bytes.insert(i % (n + 1), c),
            Mutation::SwapLines(i, j) => {
                let mut lines: Vec<Vec<u8>> =
                    bytes.split(|b| *b == b'\n').map(<[u8]>::to_vec).collect();
                let k = lines.len();
                lines.swap(i % k, j % k);
                bytes = lines.join(&b'\n');
            }
            Mutation::Truncate(i) => bytes.truncate(i % (n + 1)),
            Mutation::Delete(_) => {}
        }
    }
    bytes
}

/// What every answer of the reader must satisfy: errors are located and
/// capped, and an accepted text is a module that prints and reads back.
fn check_answer(bytes: &[u8]) {
    parse_never_panics(bytes);
    let text = String::from_utf8_lossy(bytes);
    match parse_module("f.cir", &text) {
        Err(d) => {
            assert!(!d.0.is_empty() && d.0.len() <= MAX_ERRORS + 1, "{d}");
            for e in &d.0 {
                assert!(e.pos.line >= 1 && e.pos.col >= 1, "{e}");
            }
        }
        Ok(m) => {
            let again = module_text(&m);
            assert_eq!(parse_module("f.cir", &again).as_ref(), Ok(&m), "{again}");
        }
    }
}

/// Words and punctuation of the text form, for token soup.
const VOCAB: &[&str] = &[
    "module",
    "oracle",
    "op",
    "define",
    "void",
    "in",
    "at",
    "origin",
    "label",
    "br",
    "switch",
    "ret",
    "observe",
    "eval",
    "set",
    "phi",
    "token",
    "call",
    "load",
    "store",
    "not",
    "neg",
    "bitnot",
    "tid",
    "N",
    "real",
    "plain",
    "barrier",
    "fence",
    "mem",
    "shared",
    "read",
    "write",
    "stmt",
    "varying",
    "entry",
    "loop",
    "convergencectrl",
    "%x",
    "$o",
    "@f",
    "#0",
    "#1",
    "0",
    "-",
    "-1",
    "1:1-1:2",
    "\"s\"",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ",",
    ":",
    "=",
    "+=",
    "->",
    "?",
    "+",
    "%",
    "==",
    "\n",
    "; c\n",
    "\"\\",
];

proptest! {
    #![proptest_config(config(1000))]

    #[test]
    fn mutated_modules_never_panic(m in arb_module(), muts in vec(arb_mutation(), 1..8)) {
        check_answer(&mutate(&module_text(&m), &muts));
    }

    #[test]
    fn random_bytes_never_panic(bytes in vec(any::<u8>(), 0..400)) {
        check_answer(&bytes);
    }

    #[test]
    fn token_soup_never_panics(words in vec(select(VOCAB.to_vec()), 0..80), seps in vec(select(vec![" ", "", "\n"]), 80)) {
        let mut text = String::from("module \"m\"\n");
        for (w, s) in words.iter().zip(&seps) {
            text.push_str(w);
            text.push_str(s);
        }
        check_answer(text.as_bytes());
    }
}
