//! One small input per instruction form the parser models, checked field
//! by field: every instruction with its flags, calls in all their shapes
//! (call-site attributes, bundles, indirect and inline-asm callees), call
//! and callee convergence, terminators and their successors, integer
//! literals, and generic instructions. Module-level constructs are in
//! `module_level.rs`.
#![deny(unsafe_code)]

use convcheck_llvm::inst::{BinOp, CastOp, InstKind, IntPredicate, TailKind};
use convcheck_llvm::{parse_module, Attribute, Instruction, Module, Name, Type, Value};

fn parse(src: &str) -> Module {
    parse_module(src, "t.ll").unwrap_or_else(|e| panic!("{e}\n--- input:\n{src}"))
}

/// The instructions of the first defined function of a module made of
/// `decls` and `define void @f(<params>) { <body> }`.
fn insts(params: &str, body: &str, decls: &str) -> Vec<Instruction> {
    let src = format!("{decls}\ndefine void @f({params}) {{\n{body}\n}}\n");
    let m = parse(&src);
    let f = m.defined_functions().next().expect("a definition");
    f.instructions().map(|(_, i)| i.clone()).collect()
}

fn local(s: &str) -> Value {
    Value::Local(Name::Named(s.into()))
}

#[test]
fn every_icmp_predicate() {
    let preds = [
        "eq", "ne", "ugt", "uge", "ult", "ule", "sgt", "sge", "slt", "sle",
    ];
    let body: String = preds
        .iter()
        .map(|p| format!("  %{p} = icmp {p} i32 %a, 7\n"))
        .collect::<String>()
        + "  ret void";
    let got: Vec<IntPredicate> = insts("i32 %a", &body, "")
        .iter()
        .filter_map(|i| match &i.kind {
            InstKind::ICmp(c) => Some(c.pred),
            _ => None,
        })
        .collect();
    use IntPredicate::*;
    assert_eq!(got, [Eq, Ne, Ugt, Uge, Ult, Ule, Sgt, Sge, Slt, Sle]);
    let i = insts(
        "i32 %a",
        "  %x = icmp samesign ult i32 %a, 1\n  ret void",
        "",
    );
    let InstKind::ICmp(c) = &i[0].kind else {
        panic!()
    };
    assert_eq!(
        (c.flags.clone(), c.pred, c.rhs.clone()),
        (vec!["samesign".to_string()], Ult, Value::Int(1))
    );
}

#[test]
fn binary_operations_with_flags() {
    let ops = [
        ("add nuw nsw", BinOp::Add),
        ("sub nsw", BinOp::Sub),
        ("mul nuw", BinOp::Mul),
        ("sdiv exact", BinOp::SDiv),
        ("udiv", BinOp::UDiv),
        ("srem", BinOp::SRem),
        ("urem", BinOp::URem),
        ("shl nuw nsw", BinOp::Shl),
        ("lshr exact", BinOp::LShr),
        ("ashr", BinOp::AShr),
        ("and", BinOp::And),
        ("or disjoint", BinOp::Or),
        ("xor", BinOp::Xor),
    ];
    let body: String = ops
        .iter()
        .enumerate()
        .map(|(k, (o, _))| format!("  %r{k} = {o} i64 %a, -3\n"))
        .collect::<String>()
        + "  ret void";
    let got = insts("i64 %a", &body, "");
    for ((text, op), inst) in ops.iter().zip(&got) {
        let InstKind::Binary(b) = &inst.kind else {
            panic!("{text}: {:?}", inst.kind)
        };
        let flags: Vec<&str> = text.split(' ').skip(1).collect();
        assert_eq!(
            (b.op, b.flags.iter().map(String::as_str).collect::<Vec<_>>()),
            (*op, flags),
            "{text}"
        );
        assert_eq!(
            (b.ty.clone(), b.lhs.clone(), b.rhs.clone()),
            (Type::Int(64), local("a"), Value::Int(-3))
        );
        assert_eq!(inst.opcode(), text.split(' ').next().unwrap());
    }
}

#[test]
fn casts_freeze_select_phi() {
    let body = "entry:
  %z = zext nneg i32 %a to i64
  %s = sext i32 %a to i64
  %t = trunc nuw nsw i64 %z to i8
  %b = bitcast ptr %p to ptr
  %pi = ptrtoint ptr %p to i64
  %ip = inttoptr i64 %pi to ptr
  %as = addrspacecast ptr %p to ptr addrspace(3)
  %f = freeze i32 %a
  %c = icmp eq i32 %a, 0
  %sel = select i1 %c, i32 %a, i32 -1
  br label %next
next:
  %ph = phi i32 [ %a, %entry ], [ %ph2, %next2 ]
  br label %next2
next2:
  %ph2 = add i32 %ph, 1
  br i1 false, label %next, label %out
out:
  ret void";
    let got = insts("i32 %a, ptr %p", body, "");
    let casts: Vec<(CastOp, Vec<String>, Type)> = got
        .iter()
        .filter_map(|i| match &i.kind {
            InstKind::Cast(c) => Some((c.op, c.flags.clone(), c.to.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(casts[0], (CastOp::ZExt, vec!["nneg".into()], Type::Int(64)));
    assert_eq!(
        casts[2],
        (
            CastOp::Trunc,
            vec!["nuw".into(), "nsw".into()],
            Type::Int(8)
        )
    );
    assert_eq!(
        casts[6],
        (CastOp::AddrSpaceCast, vec![], Type::Ptr { addrspace: 3 })
    );
    assert_eq!(casts.len(), 7);
    let InstKind::Freeze(v) = &got[7].kind else {
        panic!()
    };
    assert_eq!(v.value, local("a"));
    let InstKind::Select(s) = &got[9].kind else {
        panic!()
    };
    assert_eq!(
        (s.cond.ty.clone(), s.if_false.value.clone()),
        (Type::Int(1), Value::Int(-1))
    );
    let InstKind::Phi(p) = &got[11].kind else {
        panic!()
    };
    assert_eq!(
        p.incoming,
        vec![
            (local("a"), Name::Named("entry".into())),
            (local("ph2"), Name::Named("next2".into()))
        ]
    );
    let InstKind::CondBr {
        cond,
        if_true,
        if_false,
    } = &got[14].kind
    else {
        panic!()
    };
    assert_eq!(
        (cond, if_true.to_string(), if_false.to_string()),
        (&Value::Int(0), "next".into(), "out".into())
    );
    assert_eq!(got[14].successors().len(), 2);
}

#[test]
fn alloca_load_store_gep() {
    let body = "  %a = alloca i32, align 4
  %b = alloca [4 x i32], i32 %n, align 16, addrspace(5)
  %c = alloca inalloca i8
  %v = load volatile i32, ptr %a, align 4, !tbaa !3
  store i32 %v, ptr %a
  %w = load atomic i64, ptr addrspace(1) %g syncscope(\"agent\") acquire, align 8
  store atomic volatile i64 %w, ptr addrspace(1) %g monotonic, align 8
  %e = getelementptr inbounds nuw [4 x i32], ptr addrspace(5) %b, i64 0, i32 %n
  %e2 = getelementptr i8, ptr %a, i64 -1
  ret void";
    let got = insts("i32 %n, ptr addrspace(1) %g", body, "");
    let InstKind::Alloca(a) = &got[1].kind else {
        panic!()
    };
    assert_eq!(a.count.as_ref().map(|c| c.value.clone()), Some(local("n")));
    assert_eq!((a.align, a.addrspace), (Some(16), Some(5)));
    let InstKind::Alloca(a) = &got[2].kind else {
        panic!()
    };
    assert!(a.inalloca);
    let InstKind::Load(l) = &got[3].kind else {
        panic!()
    };
    assert!(l.volatile && l.atomic.is_none() && l.align == Some(4));
    assert_eq!(got[3].attachment("tbaa"), Some("!3"));
    let InstKind::Store(s) = &got[4].kind else {
        panic!()
    };
    assert_eq!((s.align, s.value.value.clone()), (None, local("v")));
    assert_eq!(got[4].result, None);
    let InstKind::Load(l) = &got[5].kind else {
        panic!()
    };
    assert_eq!(
        l.atomic.as_ref().and_then(|a| a.syncscope.as_deref()),
        Some("agent")
    );
    let InstKind::Store(s) = &got[6].kind else {
        panic!()
    };
    assert!(s.volatile && s.atomic.is_some() && s.ptr.ty == Type::Ptr { addrspace: 1 });
    let InstKind::GetElementPtr(g) = &got[7].kind else {
        panic!()
    };
    assert_eq!(g.flags, ["inbounds", "nuw"]);
    assert_eq!(g.indices.len(), 2);
    assert_eq!(g.source_ty.to_string(), "[4 x i32]");
    let InstKind::GetElementPtr(g) = &got[8].kind else {
        panic!()
    };
    assert!(!g.inbounds());
    assert_eq!(g.indices[0].value, Value::Int(-1));
}

#[test]
fn calls_in_every_shape() {
    let decls = "declare i32 @g(i32, ...)\ndeclare void @h()\ndeclare token @llvm.experimental.convergence.entry()\nattributes #3 = { convergent }";
    let body = "  %t = call token @llvm.experimental.convergence.entry()
  %r = tail call fastcc noundef signext i32 (i32, ...) @g(i32 noundef signext 1, ptr nonnull align 8 @h, i1 zeroext true) #3 [ \"convergencectrl\"(token %t), \"deopt\"(i32 0, ptr null) ], !dbg !9
  musttail call void @h()
  notail call void %fp(i32 %r) convergent nounwind
  call void asm sideeffect \"s_barrier\", \"\"() #3
  call addrspace(1) void @h()
  ret void";
    let got = insts("ptr %fp", body, decls);
    let c = got[1].as_call().expect("call");
    assert_eq!(c.tail, TailKind::Tail);
    assert_eq!(
        c.calling_conv.as_ref().map(|c| c.0.as_str()),
        Some("fastcc")
    );
    assert_eq!(
        c.ret_attrs,
        [
            Attribute::Flag("noundef".into()),
            Attribute::Flag("signext".into())
        ]
    );
    assert_eq!(c.ret_ty, Type::Int(32));
    assert_eq!(
        c.fn_ty.as_ref().map(|t| t.to_string()).as_deref(),
        Some("i32 (i32, ...)")
    );
    assert_eq!(c.callee_name(), Some("g"));
    assert_eq!(c.args.len(), 3);
    assert_eq!(
        c.args[1].attrs,
        [
            Attribute::Flag("nonnull".into()),
            Attribute::Valued {
                name: "align".into(),
                value: "8".into()
            }
        ]
    );
    assert_eq!(c.args[2].value, Value::Int(1));
    assert_eq!(c.fn_attrs, [Attribute::Group(3)]);
    assert_eq!(
        c.bundles.iter().map(|b| b.tag.as_str()).collect::<Vec<_>>(),
        ["convergencectrl", "deopt"]
    );
    assert_eq!(c.convergencectrl(), Some(&local("t")));
    assert_eq!(got[1].attachment("dbg"), Some("!9"));
    assert_eq!(got[2].as_call().map(|c| c.tail), Some(TailKind::MustTail));
    let c = got[3].as_call().expect("call");
    assert!(c.is_indirect() && c.tail == TailKind::NoTail && c.callee == local("fp"));
    assert_eq!(
        c.fn_attrs,
        [
            Attribute::Flag("convergent".into()),
            Attribute::Flag("nounwind".into())
        ]
    );
    let c = got[4].as_call().expect("call");
    assert!(matches!(&c.callee, Value::InlineAsm(t) if t.contains("s_barrier")));
    assert_eq!(got[5].as_call().and_then(|c| c.addrspace), Some(1));
}

#[test]
fn call_site_and_callee_convergence() {
    let src = "declare void @plain()
declare void @inline_conv() convergent
declare void @group_conv() #0
define void @f(ptr %fp) {
  call void @plain()
  call void @plain() #0
  call void @plain() convergent
  call void @inline_conv()
  call void @group_conv()
  call void %fp()
  call void %fp() #0
  ret void
}
attributes #0 = { nounwind convergent }
";
    let m = parse(src);
    let f = m.function("f").expect("defined");
    let got: Vec<bool> = f.calls().map(|(_, c)| c.is_convergent(&m)).collect();
    assert_eq!(got, [false, true, true, true, true, false, true]);
    assert!(!f.is_convergent(&m));
    assert!(m
        .function("group_conv")
        .expect("declared")
        .is_convergent(&m));
}

#[test]
fn terminators_and_successors() {
    let body = "entry:
  switch i8 %v, label %d [
    i8 1, label %a
    i8 -2, label %b
    i8 3, label %a
  ]
a:
  br label %d
b:
  unreachable
d:
  ret i32 0";
    let src = format!("define i32 @f(i8 %v) {{\n{body}\n}}");
    let m = parse(&src);
    let f = m.function("f").expect("defined");
    let succ: Vec<Vec<String>> = f
        .blocks()
        .map(|b| b.successors().iter().map(|n| n.to_string()).collect())
        .collect();
    assert_eq!(succ, [vec!["d", "a", "b", "a"], vec!["d"], vec![], vec![]]);
    let InstKind::Ret(Some(r)) = &f.blocks[3].instructions[0].kind else {
        panic!()
    };
    assert_eq!(r.value, Value::Int(0));
    assert_eq!(
        f.blocks[2].terminator().map(|t| t.opcode()),
        Some("unreachable")
    );
}

#[test]
fn integer_constants() {
    let cases = [
        ("true", 1i128),
        ("false", 0),
        ("-1", -1),
        ("-9223372036854775808", i64::MIN as i128),
        ("18446744073709551615", u64::MAX as i128),
        ("u0xFF", 255),
        ("s0xFF", -1),
    ];
    for (text, want) in cases {
        let got = insts("", &format!("  %x = add i64 {text}, 0\n  ret void"), "");
        let InstKind::Binary(b) = &got[0].kind else {
            panic!()
        };
        assert_eq!(b.lhs, Value::Int(want), "{text}");
    }
}

/// A named struct type in a generic instruction's operands is a type, not
/// a use of a value (red-team review3 H12: `extractvalue %struct.P %p, 1`
/// was "use of undefined value '%struct.P'", exit 2 for the module); a
/// value before an ordering (`cmpxchg ... i32 %b acq_rel monotonic`) is
/// still a use.
#[test]
fn named_struct_types_in_generic_operands_are_types() {
    let src = "%struct.P = type { float, float }
define float @f(%struct.P %p, float %a, ptr %q, i32 %b) {
  %r = insertvalue %struct.P %p, float %a, 0
  %x = extractvalue %struct.P %r, 1
  %c = cmpxchg ptr %q, i32 0, i32 %b acq_rel monotonic
  ret float %x
}
";
    let m = parse(src);
    let f = m.function("f").expect("@f");
    let uses: Vec<Vec<String>> = f
        .instructions()
        .filter_map(|(_, i)| match &i.kind {
            InstKind::Generic(g) => Some(g.uses.iter().map(|n| n.to_string()).collect()),
            _ => None,
        })
        .collect();
    assert_eq!(uses, [vec!["p", "a"], vec!["r"], vec!["q", "b"]]);
}

#[test]
fn generic_instructions_keep_opcode_operands_and_names() {
    let src = "declare void @t(i32)
declare i32 @pers(...)
define void @f(float %a, ptr %p) personality ptr @pers {
entry:
  %b = fadd nnan float %a, 1.000000e+00
  atomicrmw xchg ptr %p, i32 1 seq_cst, align 4, !pcsections !0
  %s = atomicrmw add ptr %p, i32 2 monotonic
  invoke void @t(i32 %s)
          to label %ok unwind label %bad

ok:
  ret void

bad:
  %lp = landingpad { ptr, i32 }
          cleanup
  resume { ptr, i32 } %lp
}
";
    let m = parse(src);
    let f = m.function("f").expect("@f");
    let g: Vec<&convcheck_llvm::inst::Generic> = f
        .instructions()
        .filter_map(|(_, i)| match &i.kind {
            InstKind::Generic(g) => Some(g),
            _ => None,
        })
        .collect();
    assert_eq!(
        g.iter().map(|g| g.opcode.as_str()).collect::<Vec<_>>(),
        [
            "fadd",
            "atomicrmw",
            "atomicrmw",
            "invoke",
            "landingpad",
            "resume"
        ]
    );
    assert_eq!(g[0].operands, "nnan float %a, 1.000000e+00");
    assert_eq!(g[1].operands, "xchg ptr %p, i32 1 seq_cst, align 4");
    assert_eq!(
        g[3].operands,
        "void @t(i32 %s) to label %ok unwind label %bad"
    );
    assert_eq!(
        (g[3].uses.clone(), g[3].labels.len(), g[3].terminator),
        (vec![Name::Named("s".into())], 2, true)
    );
    assert_eq!(g[4].operands, "{ ptr, i32 } cleanup");
    // The unnamed atomicrmw produces a value and takes number 0, since the
    // entry block is named.
    let results: Vec<Option<String>> = f
        .instructions()
        .map(|(_, i)| i.result.as_ref().map(|r| r.to_string()))
        .collect();
    assert_eq!(results[1].as_deref(), Some("0"));
    assert_eq!(
        f.blocks[0]
            .successors()
            .iter()
            .map(|n| n.to_string())
            .collect::<Vec<_>>(),
        ["ok", "bad"]
    );
    assert_eq!(
        f.instructions()
            .find(|(_, i)| i.opcode() == "atomicrmw")
            .map(|(_, i)| i.metadata.len()),
        Some(1)
    );
}
