//! Parses the committed clang-19 / opt-19 output and hand-written IR of
//! `tests/data` and checks what the mapping will rely on: every defined
//! function parses, every instruction is classified (generic ones counted
//! and named), attribute groups resolve, calls to `op` are convergent, the
//! `convergencectrl` bundles sit on the right calls, kernels are
//! recognised, and implicit numbering agrees with the numbers opt prints.
//! Golden summaries (`tests/data/*.summary`) pin the whole parse; set
//! `CONVCHECK_BLESS=1` to rewrite them after a deliberate change.
#![deny(unsafe_code)]

mod common;

use common::{data_dir, data_files, parse_data, summary};
use convcheck_llvm::inst::{InstKind, Ordering};
use convcheck_llvm::{ConvergenceIntrinsic, Name, Value};

#[test]
fn golden_summaries() {
    let bless = std::env::var_os("CONVCHECK_BLESS").is_some_and(|v| v == "1");
    let mut mismatched = Vec::new();
    for path in data_files() {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .expect("utf-8 name")
            .to_string();
        let got = summary(&parse_data(&name), true);
        let golden = path.with_extension("summary");
        if bless {
            std::fs::write(&golden, &got).expect("write golden");
            continue;
        }
        let want = std::fs::read_to_string(&golden).unwrap_or_default();
        if want != got {
            eprintln!("--- {} differs; got:\n{got}", golden.display());
            mismatched.push(name);
        }
    }
    assert!(
        mismatched.is_empty(),
        "summaries differ for {mismatched:?} (CONVCHECK_BLESS=1 to accept)"
    );
}

/// (file, defined functions, generic opcodes in order of appearance).
const EXPECTED: &[(&str, usize, &[&str])] = &[
    ("plain_O0.ll", 6, &[]),
    ("plain_O2.ll", 6, &[]),
    ("plain_g_O1.ll", 6, &[]),
    ("kernel_cuda.ll", 5, &[]),
    ("kernel_cuda_O2.ll", 5, &[]),
    ("kernel_amdgcn.ll", 4, &[]),
    ("kernel_amdgcn_O2.ll", 4, &[]),
    ("tokens.ll", 3, &[]),
    ("implicit.ll", 2, &[]),
    ("implicit_opt.ll", 2, &[]),
    ("plain_kernels_O0.ll", 8, &[]),
    ("plain_kernels_O2.ll", 8, &[]),
    ("widths.ll", 22, &[]),
    (
        "generic.ll",
        3,
        &[
            "fneg",
            "fadd",
            "fmul",
            "fpext",
            "fcmp",
            "fptrunc",
            "extractelement",
            "insertelement",
            "shufflevector",
            "fptosi",
            "sitofp",
            "insertvalue",
            "extractvalue",
            "atomicrmw",
            "cmpxchg",
            "extractvalue",
            "fence",
            "invoke",
            "landingpad",
            "resume",
            "indirectbr",
        ],
    ),
];

#[test]
fn every_function_parses_and_every_instruction_is_classified() {
    assert_eq!(
        EXPECTED.len(),
        data_files().len(),
        "every data file has an expectation"
    );
    let (mut functions, mut instructions) = (0, 0);
    for (file, defined, generic) in EXPECTED {
        let m = parse_data(file);
        convcheck_llvm::fuzzing::check_tree(&m);
        assert_eq!(
            m.defined_functions().count(),
            *defined,
            "{file}: defined functions"
        );
        let got: Vec<&str> = m
            .defined_functions()
            .flat_map(|f| f.generic_instructions())
            .map(|i| i.opcode())
            .collect();
        assert_eq!(&got, generic, "{file}: generic instructions");
        functions += m.defined_functions().count();
        instructions += m
            .defined_functions()
            .map(|f| f.instructions().count())
            .sum::<usize>();
    }
    eprintln!("parsed {functions} defined functions, {instructions} instructions");
}

#[test]
fn calls_to_op_are_convergent_through_attribute_groups() {
    for (file, c_convergent) in [
        ("plain_O0.ll", false),
        ("plain_O2.ll", false),
        ("plain_g_O1.ll", false),
        // Clang marks every function of a GPU language convergent.
        ("kernel_cuda.ll", true),
        ("kernel_amdgcn.ll", true),
        ("kernel_amdgcn_O2.ll", true),
    ] {
        let m = parse_data(file);
        let op = m.function("op").expect("op is declared");
        assert!(!op.is_definition);
        assert!(
            op.attrs
                .iter()
                .all(|a| matches!(a, convcheck_llvm::Attribute::Group(_))),
            "{file}: op's attributes are a group"
        );
        assert!(
            op.is_convergent(&m),
            "{file}: op is convergent through its group"
        );
        let mut op_calls = 0;
        for f in m.defined_functions() {
            for (_, call) in f.calls() {
                match call.callee_name() {
                    Some("op") => {
                        op_calls += 1;
                        assert!(call.is_convergent(&m), "{file}: call to op in @{}", f.name);
                    }
                    Some("c") => assert_eq!(
                        call.is_convergent(&m),
                        c_convergent,
                        "{file}: call to c in @{}",
                        f.name
                    ),
                    _ => {}
                }
            }
        }
        assert!(op_calls >= 3, "{file}: found {op_calls} calls to op");
    }
}

#[test]
fn convergencectrl_bundles_are_on_the_right_calls() {
    let m = parse_data("tokens.ll");
    let f = m.function("divergent_exit").expect("defined");
    let calls: Vec<(String, Option<ConvergenceIntrinsic>, Option<String>)> = f
        .calls()
        .map(|(i, c)| {
            let at = format!(
                "{}:{}",
                i.result().map(|r| r.to_string()).unwrap_or_default(),
                c.callee
            );
            (
                at,
                c.convergence_intrinsic(),
                c.convergencectrl().map(|v| v.to_string()),
            )
        })
        .collect();
    let want = vec![
        (
            "tok:@llvm.experimental.convergence.entry".to_string(),
            Some(ConvergenceIntrinsic::Entry),
            None,
        ),
        ("tid:@llvm.amdgcn.workitem.id.x".to_string(), None, None),
        (
            "ltok:@llvm.experimental.convergence.loop".to_string(),
            Some(ConvergenceIntrinsic::Loop),
            Some("%tok".to_string()),
        ),
        (":@op".to_string(), None, Some("%ltok".to_string())),
        (":@op".to_string(), None, Some("%tok".to_string())),
    ];
    assert_eq!(calls, want);
    // The op in the latch uses the loop token and sits in block %latch.
    let (block, inst) = f
        .instructions()
        .find(|(_, i)| {
            i.as_call()
                .and_then(|c| c.convergencectrl())
                .is_some_and(|v| v.as_local() == Some(&Name::Named("ltok".into())))
        })
        .expect("a call using %ltok");
    assert_eq!(block.name, Name::Named("latch".into()));
    assert_eq!(inst.line(), 36);

    let g = m.function("anchored").expect("defined");
    let calls: Vec<_> = g.calls().map(|(_, c)| c).collect();
    assert_eq!(
        calls[0].convergence_intrinsic(),
        Some(ConvergenceIntrinsic::Anchor)
    );
    // @c is not convergent itself; its call site is, through #1.
    assert!(!m.function("c").expect("declared").is_convergent(&m));
    assert_eq!(calls[1].callee_name(), Some("c"));
    assert!(calls[1].is_convergent(&m));
    assert_eq!(
        calls[1].convergencectrl(),
        Some(&Value::Local(Name::Named("a".into())))
    );
    assert_eq!(
        calls[1].bundles[0].inputs[0].ty,
        convcheck_llvm::Type::Token
    );
}

#[test]
fn kernels_are_recognised() {
    let cuda = parse_data("kernel_cuda.ll");
    let kernels: Vec<String> = cuda
        .defined_functions()
        .filter(|f| cuda.is_kernel(f))
        .map(|f| f.name.to_string())
        .collect();
    assert_eq!(
        kernels,
        ["reduce", "divergent_exit", "calls_helper"],
        "CUDA kernels through !nvvm.annotations"
    );
    let cl = parse_data("kernel_amdgcn.ll");
    let f = cl.function("reduce").expect("defined");
    assert_eq!(
        f.calling_conv.as_ref().map(|c| c.0.as_str()),
        Some("amdgpu_kernel")
    );
    assert_eq!(f.qualifiers.visibility.as_deref(), Some("protected"));
    assert_eq!(f.params[0].ty, convcheck_llvm::Type::Ptr { addrspace: 1 });
    assert_eq!(f.params[1].ty, convcheck_llvm::Type::Ptr { addrspace: 3 });
    assert!(f.params[0].attrs.iter().any(|a| a.is("noundef")));
    assert!(f.metadata.iter().any(|a| a.name == "kernel_arg_addr_space"));
    assert!(!cl.is_kernel(cl.function("helper").expect("defined")));
    let spir = parse_data("implicit.ll");
    assert!(spir.is_kernel(spir.function("k").expect("defined")));
}

#[test]
fn barrier_intrinsics_are_convergent_calls() {
    let m = parse_data("kernel_cuda.ll");
    for name in ["llvm.nvvm.barrier0", "llvm.nvvm.bar.sync"] {
        assert!(
            m.function(name).expect("declared").is_convergent(&m),
            "{name}"
        );
    }
    let tid = m
        .function("llvm.nvvm.read.ptx.sreg.tid.x")
        .expect("declared");
    assert!(!tid.is_convergent(&m));
    assert!(tid.has_attr(&m, "memory"));
    let g = m.global("tile").expect("@tile");
    assert_eq!(g.addrspace, 3);
    assert_eq!(g.initializer, Some(Value::Undef));
}

#[test]
fn implicit_numbering_agrees_with_opt() {
    // opt prints every implicit number; the two parses must be the same
    // module, line numbers aside.
    assert_eq!(
        summary(&parse_data("implicit.ll"), false),
        summary(&parse_data("implicit_opt.ll"), false)
    );
    let m = parse_data("implicit.ll");
    let k = m.function("k").expect("defined");
    let names: Vec<String> = k.params.iter().map(|p| p.name.to_string()).collect();
    assert_eq!(names, ["0", "1"]);
    assert_eq!(
        k.blocks
            .iter()
            .map(|b| b.name.to_string())
            .collect::<Vec<_>>(),
        ["2", "then", "5", "7"]
    );
    assert!(k.params[0].attrs.iter().any(|a| a.is("inreg")));
}

#[test]
fn memory_operations_keep_address_spaces_and_orderings() {
    let m = parse_data("tokens.ll");
    let lds = m.global("lds").expect("@lds");
    assert_eq!(
        (lds.addrspace, lds.qualifiers.linkage),
        (3, Some(convcheck_llvm::module::Linkage::Internal))
    );
    let ext = m.global("ext").expect("@ext");
    assert_eq!((ext.addrspace, ext.initializer.is_none()), (1, true));
    let f = m.function("memory").expect("defined");
    let insts: Vec<_> = f.instructions().map(|(_, i)| &i.kind).collect();
    let InstKind::Alloca(a) = insts[0] else {
        panic!("alloca expected, got {:?}", insts[0])
    };
    assert_eq!((a.addrspace, a.align), (Some(5), Some(4)));
    let InstKind::Store(s) = insts[1] else {
        panic!("store expected")
    };
    assert!(s.volatile && s.atomic.is_none());
    assert_eq!(s.ptr.ty.addrspace(), Some(5));
    let InstKind::Store(s) = insts[3] else {
        panic!("store expected")
    };
    let atomic = s.atomic.as_ref().expect("atomic");
    assert_eq!(
        (atomic.syncscope.as_deref(), atomic.ordering),
        (Some("workgroup"), Ordering::Release)
    );
    let InstKind::Load(l) = insts[4] else {
        panic!("load expected")
    };
    assert_eq!(
        l.atomic.as_ref().map(|a| a.ordering),
        Some(Ordering::SeqCst)
    );
    assert_eq!(l.ptr.ty.addrspace(), Some(1));
    let InstKind::GetElementPtr(g) = insts[2] else {
        panic!("gep expected")
    };
    assert!(g.inbounds());
    assert_eq!(g.base.value, Value::Global(Name::Named("lds".into())));
    let InstKind::GetElementPtr(g) = insts[8] else {
        panic!("gep expected")
    };
    let Value::ConstExpr(c) = &g.base.value else {
        panic!("constant expression base")
    };
    assert_eq!(
        (c.opcode.as_str(), c.globals.clone()),
        ("getelementptr", vec![Name::Named("lds".into())])
    );
}

#[test]
fn switch_tables_and_unknown_attributes() {
    let m = parse_data("tokens.ll");
    let f = m.function("anchored").expect("defined");
    let sw = f.instructions().find_map(|(_, i)| match &i.kind {
        InstKind::Switch(s) => Some(s),
        _ => None,
    });
    let sw = sw.expect("a switch");
    let cases: Vec<(i128, String)> = sw
        .cases
        .iter()
        .map(|c| (c.value, c.dest.to_string()))
        .collect();
    assert_eq!(
        cases,
        [
            (-1, "other".to_string()),
            (i64::MAX as i128, "done".to_string())
        ]
    );
    let group = m.attr_group(2).expect("#2");
    assert!(group
        .attrs
        .iter()
        .any(|a| a.name() == Some("some-future-attr")));

    let plain = parse_data("plain_O2.ll");
    let f = plain.function("switch_fallthrough").expect("defined");
    let succ: Vec<String> = f
        .entry()
        .expect("entry")
        .successors()
        .iter()
        .map(|n| n.to_string())
        .collect();
    assert_eq!(succ, ["4", "2", "6", "3"]);
}

#[test]
fn data_folder_documents_every_file() {
    let readme = std::fs::read_to_string(data_dir().join("README.md")).expect("README.md");
    for path in data_files() {
        let name = path.file_name().and_then(|n| n.to_str()).expect("name");
        assert!(
            readme.contains(&format!("`{name}`")),
            "README.md does not describe {name}"
        );
    }
}
