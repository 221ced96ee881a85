//! The mapping of LLVM IR into convcheck's IR (`to_ir::to_module`) on the
//! compiler output of `tests/data` and on small hand-written modules: which
//! functions are mapped and which are skipped (exactly), what calls,
//! tokens, parameters and memory become, and that names survive `opt`.
#![deny(unsafe_code)]

mod common;

use std::collections::BTreeSet;

use convcheck_ir::{
    BarrierKind, CallKind, Expr, InstKind, Module, OpKind, OracleClass, Space, TokenKind,
};
use convcheck_llvm::to_ir::{to_module, Mapped, Unsupported};

fn map_data(name: &str) -> Mapped {
    to_module(&common::parse_data(name), name)
}

fn map_text(src: &str) -> Mapped {
    let m = convcheck_llvm::parse_module(src, "t.ll").unwrap_or_else(|e| panic!("{e}"));
    to_module(&m, "t.ll")
}

fn names(m: &Module) -> Vec<&str> {
    m.functions.iter().map(|f| f.name.as_str()).collect()
}

/// Every call expression of a function, with its label.
fn calls<'m>(m: &'m Module, f: &str) -> Vec<(&'m str, CallKind, &'m Expr)> {
    let cfg = &m.functions[m.function(f).expect("function")];
    let mut out = Vec::new();
    for b in &cfg.blocks {
        for e in b.exprs() {
            e.walk(&mut |x| {
                if let Expr::Call { op, kind, .. } = x {
                    out.push((m.label(*op), *kind, x));
                }
            });
        }
    }
    out
}

/// Every memory access of a function: label, space, write.
/// The memory operations of `f`, but the clobbers after calls that may
/// write memory (`to_ir::effects`, labelled `call @f (writes memory)`).
fn accesses<'m>(m: &'m Module, f: &str) -> Vec<(&'m str, Space, bool)> {
    let fid = m.function(f).expect("function");
    m.ops
        .iter()
        .filter(|o| o.func == fid)
        .filter(|o| !o.label.ends_with("(writes memory)"))
        .filter_map(|o| match o.kind {
            OpKind::Mem { space, write } => Some((o.label.as_str(), space, write)),
            _ => None,
        })
        .collect()
}

fn skip(function: &str, construct: &str, line: u32) -> Unsupported {
    Unsupported {
        function: function.into(),
        construct: construct.into(),
        line,
    }
}

#[test]
fn compiler_output_maps_with_exactly_the_expected_skips() {
    let plain = vec![
        "if_then_else",
        "loop_with_break",
        "switch_fallthrough",
        "goto_cycle",
        "arith",
        "nested_loops",
    ];
    let kernels = vec![
        "if_else",
        "loop_nest",
        "loop_continue",
        "divergent_exit",
        "counted_loop",
        "switch_fallthrough",
        "nested_if",
        "goto_forward",
    ];
    let cuda = vec![
        "reduce",
        "_ZL5tid_xv",
        "divergent_exit",
        "helper",
        "calls_helper",
    ];
    let amdgcn = vec!["reduce", "loop_exit", "helper", "calls_helper"];
    let cases: Vec<(&str, Vec<&str>, Vec<Unsupported>)> = vec![
        (
            "generic.ll",
            vec![],
            vec![
                // Floats are in the model; the vector parameter is not.
                skip("floats", "vectors (a parameter of type <4 x float>)", 29),
                skip("aggregates", "aggregates (insertvalue)", 48),
                skip("indirect_branch", "indirect branches (indirectbr)", 78),
            ],
        ),
        ("implicit.ll", vec!["k", "f"], vec![]),
        ("implicit_opt.ll", vec!["k", "f"], vec![]),
        ("kernel_amdgcn.ll", amdgcn.clone(), vec![]),
        ("kernel_amdgcn_O2.ll", amdgcn, vec![]),
        ("kernel_cuda.ll", cuda.clone(), vec![]),
        ("kernel_cuda_O2.ll", cuda, vec![]),
        ("plain_O0.ll", plain.clone(), vec![]),
        ("plain_O2.ll", plain.clone(), vec![]),
        ("plain_g_O1.ll", plain, vec![]),
        ("plain_kernels_O0.ll", kernels.clone(), vec![]),
        ("plain_kernels_O2.ll", kernels, vec![]),
        (
            "tokens.ll",
            vec!["divergent_exit", "anchored", "memory"],
            vec![],
        ),
    ];
    let listed: BTreeSet<&str> = cases.iter().map(|c| c.0).collect();
    for path in common::data_files() {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        assert!(
            listed.contains(name.as_str()) || name == "widths.ll",
            "{name} has no expectation here"
        );
    }
    for (file, mapped, skipped) in cases {
        let got = map_data(file);
        assert_eq!(names(&got.module), mapped, "{file}: mapped functions");
        assert_eq!(got.skipped, skipped, "{file}: skipped functions");
    }
}

#[test]
fn declarations_are_not_functions_of_the_module() {
    let got = map_data("plain_O0.ll");
    assert!(got.module.function("op").is_none());
    assert!(got.module.function("c").is_none());
}

#[test]
fn tokens_map_to_token_instructions_and_bundles() {
    let got = map_data("tokens.ll");
    let m = &got.module;
    let f = &m.functions[m.function("divergent_exit").unwrap()];
    let tokens: Vec<(TokenKind, &str, Option<&str>)> = f
        .blocks
        .iter()
        .flat_map(|b| &b.insts)
        .filter_map(|i| match &i.kind {
            InstKind::Token { kind, name } => Some((*kind, name.as_str(), i.token.as_deref())),
            _ => None,
        })
        .collect();
    assert_eq!(
        tokens,
        vec![
            (TokenKind::Entry, "tok", None),
            (TokenKind::Loop, "ltok", Some("tok"))
        ]
    );
    let controlled: Vec<(&str, Option<&str>)> = f
        .blocks
        .iter()
        .flat_map(|b| &b.insts)
        .filter(|i| matches!(i.kind, InstKind::Eval(_)))
        .map(|i| (m.label(i.sid), i.token.as_deref()))
        .collect();
    // Each call of `@op` (convergent, no memory attributes) is followed by
    // what it may write (`to_ir::effects`), which no token controls.
    assert_eq!(
        controlled,
        vec![
            ("op", Some("ltok")),
            ("call @op (writes memory)", None),
            ("op", Some("tok")),
            ("call @op (writes memory)", None)
        ]
    );
    // `%n` is `inreg`: a uniform parameter.
    let n = m.oracle("n").expect("the parameter's oracle");
    assert_eq!(m.oracles[n].class, OracleClass::Uniform);
    // The anchor, and `c()` made convergent by its call site.
    let a = &m.functions[m.function("anchored").unwrap()];
    assert!(matches!(
        a.blocks[0].insts[0].kind,
        InstKind::Token {
            kind: TokenKind::Anchor,
            ..
        }
    ));
    let c = calls(m, "anchored");
    assert!(matches!(c[0], ("c", CallKind::Op(_), _)), "{c:?}");
    // The `i32 inreg`-less parameter of @anchored is per-thread.
    let v = m.oracle("v").expect("the parameter's oracle");
    assert_eq!(m.oracles[v].class, OracleClass::Invariant);
    // convcheck's own static rules accept what was read.
    for f in &m.functions {
        assert!(
            convcheck_ir::tokens::verify(f).is_empty(),
            "{:?}",
            convcheck_ir::tokens::verify(f)
        );
    }
}

#[test]
fn cuda_kernels_use_shared_memory_barriers_and_the_thread_index() {
    for file in ["kernel_cuda.ll", "kernel_cuda_O2.ll"] {
        let got = map_data(file);
        let m = &got.module;
        let barriers: Vec<&str> = calls(m, "reduce")
            .into_iter()
            .filter(|c| matches!(c.1, CallKind::Barrier(BarrierKind::Plain, None)))
            .map(|c| c.0)
            .collect();
        assert!(!barriers.is_empty(), "{file}");
        assert!(
            barriers.iter().all(|l| *l == "llvm.nvvm.barrier0"),
            "{file}: {barriers:?}"
        );
        // `tile` is `addrspace(3)`, reached through `addrspacecast`.
        let acc = accesses(m, "reduce");
        assert!(
            acc.contains(&("store @tile", Space::Shared, true)),
            "{file}: {acc:?}"
        );
        assert!(
            acc.contains(&("load @tile", Space::Shared, false)),
            "{file}: {acc:?}"
        );
        assert!(
            acc.contains(&("store %0", Space::Global, true)),
            "{file}: {acc:?}"
        );
        // tid_x() is a real call whose body reads the thread index.
        let tid = &m.functions[m.function("_ZL5tid_xv").unwrap()];
        let reads_tid = tid
            .blocks
            .iter()
            .flat_map(|b| b.exprs())
            .any(|e| e.any(&mut |x| *x == Expr::Tid));
        assert!(reads_tid, "{file}");
        assert!(calls(m, "divergent_exit")
            .iter()
            .any(|c| c.0 == "tid_x" && matches!(c.1, CallKind::Real(_))));
        assert!(calls(m, "divergent_exit")
            .iter()
            .any(|c| c.0 == "llvm.nvvm.bar.sync"
                && matches!(c.1, CallKind::Barrier(BarrierKind::Plain, None))));
    }
}

#[test]
fn opencl_builtins_are_recognised_by_their_demangled_names() {
    for file in ["kernel_amdgcn.ll", "kernel_amdgcn_O2.ll"] {
        let got = map_data(file);
        let m = &got.module;
        let reduce = &m.functions[m.function("reduce").unwrap()];
        let exprs: Vec<&Expr> = reduce.blocks.iter().flat_map(|b| b.exprs()).collect();
        let has = |want: &Expr| exprs.iter().any(|e| e.any(&mut |x| x == want));
        assert!(has(&Expr::Tid), "{file}: get_local_id(0)");
        assert!(has(&Expr::GroupSize), "{file}: get_local_size(0)");
        let gid = m.oracle("group_id.x").expect("get_group_id(0)");
        // One value per group: the kernel reads it once, at the top of its
        // entry block, where every thread is converged (groups.rs).
        assert_eq!(m.oracles[gid].class, OracleClass::Uniform);
        let first = &reduce.blocks[0].insts[0];
        assert!(
            matches!(&first.kind, convcheck_ir::InstKind::SetLocal { name, .. }
                if name == "convcheck.group_id.x"),
            "{file}: {first:?}"
        );
        let barriers: Vec<&str> = calls(m, "reduce")
            .into_iter()
            .filter(|c| matches!(c.1, CallKind::Barrier(..)))
            .map(|c| c.0)
            .collect();
        assert_eq!(barriers.len(), 2, "{file}");
        assert!(
            barriers.iter().all(|l| *l == "barrier"),
            "{file}: {barriers:?}"
        );
        // `local int *scratch` is `ptr addrspace(3)`: shared memory.
        let acc = accesses(m, "reduce");
        assert!(
            acc.iter().any(|a| a.1 == Space::Shared && a.2),
            "{file}: {acc:?}"
        );
        // OpenCL functions are convergent: c() is a convergent operation.
        assert!(calls(m, "helper")
            .iter()
            .any(|c| c.0 == "c" && matches!(c.1, CallKind::Op(_))));
        // calls_helper: get_global_id(0) is group_id.x * N + tid, the
        // group index read once at the kernel's entry.
        let ch = &m.functions[m.function("calls_helper").unwrap()];
        let global_id = Expr::binary(
            convcheck_ir::BinOp::Add,
            Expr::binary(
                convcheck_ir::BinOp::Mul,
                Expr::Var("convcheck.group_id.x".into()),
                Expr::GroupSize,
            ),
            Expr::Tid,
        );
        assert!(ch
            .blocks
            .iter()
            .flat_map(|b| b.exprs())
            .any(|e| e.any(&mut |x| *x == global_id)));
    }
}

#[test]
fn o0_allocas_become_locals() {
    let got = map_data("plain_O0.ll");
    let m = &got.module;
    // Every alloca of if_then_else is promoted: no memory access at all.
    assert!(accesses(m, "if_then_else").is_empty());
    // arith writes and reads the global array, nothing else, after its
    // call of the external `c()`, an observed event (to_ir::effects).
    assert_eq!(
        accesses(m, "arith"),
        vec![
            ("call @c", Space::Global, true),
            ("store @shared_buf", Space::Global, true),
            ("load @shared_buf", Space::Global, false)
        ]
    );
}

/// Labels, oracle names and which operations are convergent stay the same
/// when `opt -O2` rewrites a module: checks match instances by (label,
/// occurrence) and oracles by name.
#[test]
fn names_survive_opt() {
    let pairs = [
        ("plain_O0.ll", "plain_O2.ll"),
        ("kernel_cuda.ll", "kernel_cuda_O2.ll"),
        ("kernel_amdgcn.ll", "kernel_amdgcn_O2.ll"),
        ("plain_kernels_O0.ll", "plain_kernels_O2.ll"),
    ];
    for (a, b) in pairs {
        let (ma, mb) = (map_data(a).module, map_data(b).module);
        for f in &ma.functions {
            let convergent = |m: &Module| -> BTreeSet<String> {
                let fid = m.function(&f.name).expect("function on both sides");
                m.ops
                    .iter()
                    .filter(|o| o.func == fid && o.is_convergent())
                    .map(|o| o.label.clone())
                    .collect()
            };
            assert_eq!(convergent(&ma), convergent(&mb), "{a} / {b}: @{}", f.name);
        }
        let oracles = |m: &Module| -> BTreeSet<(String, OracleClass)> {
            m.oracles
                .iter()
                .map(|o| (o.name.clone(), o.class))
                .collect()
        };
        // -O2 removes the -O0 homes of parameters and locals, never renames.
        assert!(
            oracles(&mb).is_subset(&oracles(&ma)),
            "{a} / {b}: {:?} vs {:?}",
            oracles(&ma),
            oracles(&mb)
        );
    }
}

#[test]
fn widths_maps_every_function() {
    let got = map_data("widths.ll");
    assert!(got.skipped.is_empty(), "{:?}", got.skipped);
    assert_eq!(got.module.functions.len(), 22);
}

/// Each construct outside the model makes its function unsupported, named,
/// at its line; a caller of a skipped function is skipped too.
#[test]
fn constructs_outside_the_model_are_named() {
    let cases: &[(&str, &str)] = &[
        (
            "%x = fadd fast float 1.0, 2.0",
            "floating point with the fast-math flag 'fast' (the values it allows are not modelled)",
        ),
        (
            "%x = fadd x86_fp80 0xK3FFF8000000000000000, 0xK3FFF8000000000000000",
            "floating point ('fadd' of type x86_fp80)",
        ),
        ("%x = add <2 x i32> zeroinitializer, zeroinitializer", "vectors ('add' of type <2 x i32>)"),
        ("%x = add i128 1, 2", "i128 ('add')"),
        ("%x = atomicrmw add ptr @g, float 1.0 seq_cst", "atomics (atomicrmw add on float)"),
        ("%x = atomicrmw fadd ptr @g, <2 x half> zeroinitializer seq_cst", "atomics (atomicrmw fadd on vectors)"),
        ("%x = atomicrmw xchg ptr @g, ptr null seq_cst", "atomics (atomicrmw xchg on ptr)"),
        ("%x = extractvalue { i32, i32 } { i32 1, i32 2 }, 0", "aggregates (extractvalue of a constant)"),
        ("%x = load atomic <2 x i32>, ptr @g seq_cst, align 8", "vectors (a load of type <2 x i32>)"),
        ("%x = call i32 %fp()", "an indirect call"),
        (
            "%x = call { i32, i32 } asm \"\", \"=r,=r\"()",
            "aggregates (an inline assembly result of type { i32, i32 })",
        ),
        (
            "%x = call i64 @_Z12get_local_idj(i32 3)",
            "the thread index in dimension 3 (_Z12get_local_idj)",
        ),
        (
            "call void @llvm.memcpy.p0.p0.i64(ptr @g, ptr @g, i64 ptrtoint (ptr @g to i64), i1 false)",
            "llvm.memcpy.p0.p0.i64 with a length that is not a constant",
        ),
        ("call void @ext() [ \"deopt\"(i32 0) ]", "the operand bundle \"deopt\""),
        ("%x = ptrtoint ptr @f to i64", "the address of the function @f"),
        ("%a = alloca i32, i32 %n\n  store i32 0, ptr %a\n  %v = load i32, ptr %a\n  %w = getelementptr i32, ptr %a, i32 1", "a dynamically sized alloca"),
    ];
    for (body, construct) in cases {
        let src = format!(
            "@g = global i32 0\n\
             declare i32 @llvm.ctpop.i32(i32)\n\
             declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()\n\
             declare i64 @_Z12get_local_idj(i32)\n\
             declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)\n\
             declare void @ext()\n\
             define void @f(ptr %fp, i32 %n) {{\n  {body}\n  ret void\n}}\n\
             define void @caller() {{\n  call void @f(ptr null, i32 0)\n  ret void\n}}\n"
        );
        let got = map_text(&src);
        assert_eq!(
            got.skipped,
            vec![
                skip("f", construct, 8),
                skip(
                    "caller",
                    "a call to @f, which is not mapped",
                    12 + body.matches('\n').count() as u32
                ),
            ],
            "{body}"
        );
        assert!(got.module.functions.is_empty());
    }
}

#[test]
fn escaping_and_volatile_allocas_stay_in_memory() {
    let got = map_text(
        "declare void @use(ptr)\n\
         define i32 @f(i32 %x) {\n\
           %kept = alloca i32, align 4\n\
           %vol = alloca i32, align 4\n\
           %slot = alloca i32, align 4\n\
           store i32 %x, ptr %kept\n\
           call void @use(ptr %kept)\n\
           store volatile i32 %x, ptr %vol\n\
           store i32 %x, ptr %slot\n\
           %a = load i32, ptr %slot\n\
           %b = load i32, ptr %kept\n\
           %s = add i32 %a, %b\n\
           ret i32 %s\n\
         }\n",
    );
    assert!(got.skipped.is_empty(), "{:?}", got.skipped);
    assert_eq!(
        accesses(&got.module, "f"),
        vec![
            ("store %kept", Space::Local, true),
            // The call of the external `@use` is an observed event with
            // its argument (to_ir::effects).
            ("call @use (argument 0)", Space::Global, true),
            ("store %vol", Space::Local, true),
            ("load %kept", Space::Local, false)
        ]
    );
    // What `@use` may write (no memory attributes): all shared and global
    // memory, and `%kept`, whose address it takes (`to_ir::effects`).
    let fid = got.module.function("f").expect("f");
    let clobbers: Vec<Space> = got
        .module
        .ops
        .iter()
        .filter(|o| o.func == fid && o.label == "call @use (writes memory)")
        .filter_map(|o| match o.kind {
            OpKind::Mem { space, .. } => Some(space),
            _ => None,
        })
        .collect();
    assert_eq!(clobbers, [Space::Global, Space::Local]);
}

#[test]
fn float_allocas_become_locals_unless_read_as_another_type() {
    // clang -O0 keeps a `float` local and a `double` parameter in allocas:
    // slots like integer ones. A float slot also read as `i32` stays in
    // memory (a slot read through another type is not a local).
    let got = map_text(
        "define float @f(float %x, double %d) {\n\
           %v = alloca float, align 4\n\
           %w = alloca double, align 8\n\
           %pun = alloca float, align 4\n\
           store float %x, ptr %v\n\
           store double %d, ptr %w\n\
           store float %x, ptr %pun\n\
           %a = load float, ptr %v\n\
           %b = load double, ptr %w\n\
           %c = fptrunc double %b to float\n\
           %i = load i32, ptr %pun\n\
           %j = bitcast i32 %i to float\n\
           %s = fadd float %a, %c\n\
           %t = fadd float %s, %j\n\
           ret float %t\n\
         }\n",
    );
    assert!(got.skipped.is_empty(), "{:?}", got.skipped);
    assert_eq!(
        accesses(&got.module, "f"),
        vec![
            ("store %pun", Space::Local, true),
            ("load %pun", Space::Local, false)
        ]
    );
}

#[test]
fn unused_values_read_no_oracle() {
    // An unused load is an access without a value; an unused call to a
    // pure (`readnone` / `memory(none)`, `willreturn`) external function
    // reads nothing either, and a `void` call has nothing to read. (Without
    // `willreturn` such a call is an event: it may not return, review3 H14.)
    let got = map_text(
        "@g = global i32 0\n\
         declare i32 @c() memory(none) willreturn\n\
         declare i32 @d() #0\n\
         declare i32 @e()\n\
         declare void @v()\n\
         define void @f() {\n\
           %unused = load i32, ptr @g\n\
           %also = call i32 @c()\n\
           %old = call i32 @d()\n\
           %site = call i32 @e() readnone willreturn\n\
           call void @v()\n\
           ret void\n\
         }\n\
         attributes #0 = { nounwind willreturn readnone }\n",
    );
    let f = &got.module.functions[0];
    // Five, and the event of the call of `@v`, which may have effects
    // (to_ir::effects): a store, evaluated for its effect too, and what
    // it may write (a clobber of all shared and global memory).
    assert_eq!(f.blocks[0].insts.len(), 7);
    assert!(f.blocks[0]
        .insts
        .iter()
        .all(|i| matches!(i.kind, InstKind::Eval(_))));
    assert!(f.blocks[0]
        .exprs()
        .iter()
        .any(|e| matches!(e, Expr::Load { value: None, .. })));
}

#[test]
fn unused_values_of_external_calls_are_read() {
    // A call that may touch memory reads its oracle whether or not its
    // value is used: a pass that deletes the last use keeps the call, and
    // the read must not vanish with the use (issue 11). A convergent
    // operation's value likewise; `memory(argmem: none)` is pure.
    let got = map_text(
        "declare i32 @c()\n\
         declare i64 @w() memory(read) willreturn\n\
         declare i32 @p() memory(argmem: none) willreturn\n\
         declare i32 @vote(i32) convergent\n\
         declare i32 @llvm.nvvm.barrier0.popc(i32) convergent nounwind\n\
         define void @f() {\n\
           %a = call i32 @c()\n\
           %b = call i64 @w()\n\
           %n = call i32 @p()\n\
           %v = call i32 @vote(i32 1)\n\
           %k = call i32 @llvm.nvvm.barrier0.popc(i32 1)\n\
           ret void\n\
         }\n",
    );
    assert!(got.skipped.is_empty(), "{:?}", got.skipped);
    let f = &got.module.functions[0];
    let set: Vec<String> = f.blocks[0]
        .insts
        .iter()
        .filter_map(|i| match &i.kind {
            InstKind::SetLocal {
                name,
                value: Some(Expr::Call { .. }),
            } => Some(name.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(set, ["a", "b", "v", "k"]);
    // The first instruction is the event of the call of `@c`, which may
    // have effects (to_ir::effects); `@w` (`memory(read)`) has none.
    assert!(matches!(
        f.blocks[0].insts[0].kind,
        InstKind::Eval(Expr::Store { .. })
    ));
    // Then what `@c` may write (a clobber), `%a`, `%b`, and `@p`'s call.
    assert!(matches!(f.blocks[0].insts[4].kind, InstKind::Eval(_)));
    // The data-carrying barrier's result is taken too (after `@vote`'s
    // value and what `@vote`, convergent and without memory attributes,
    // may write).
    assert!(matches!(
        f.blocks[0].insts[7].kind,
        InstKind::SetLocal {
            value: Some(Expr::Call {
                kind: CallKind::Barrier(_, Some(_)),
                ..
            }),
            ..
        }
    ));
}
