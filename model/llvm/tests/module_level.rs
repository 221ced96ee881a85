//! One small input per module-level construct of the LLVM IR grammar,
//! checked field by field: types, constants and global references, global
//! variables and function headers with all their qualifiers, attribute
//! groups with unknown attributes, names (quoted, numbered), what must be
//! skipped without error (metadata, debug records, comments), and the
//! top-level entities kept as text.
#![deny(unsafe_code)]

use convcheck_llvm::module::Linkage;
use convcheck_llvm::types::FloatKind;
use convcheck_llvm::{parse_module, Attribute, Module, Name, Type, Value};

fn parse(src: &str) -> Module {
    parse_module(src, "t.ll").unwrap_or_else(|e| panic!("{e}\n--- input:\n{src}"))
}

#[test]
fn constants_and_global_references() {
    let src = "@a = global i32 0
@p = global ptr @a
@n = global ptr null
@u = global i32 undef
@q = global i32 poison
@z = global [2 x i32] zeroinitializer
@arr = constant [2 x ptr] [ptr @a, ptr @p]
@s = constant [3 x i8] c\"ab\\00\"
@ce = global i64 ptrtoint (ptr getelementptr (i8, ptr @a, i64 4) to i64)
@f1 = global float 1.500000e+00
@h = global double 0x7FF0000000000000
@tok = global ptr dso_local_equivalent @fn
define void @fn() {
  ret void
}
";
    let m = parse(src);
    let init = |n: &str| m.global(n).and_then(|g| g.initializer.clone()).expect(n);
    assert_eq!(init("p"), Value::Global(Name::Named("a".into())));
    assert_eq!(init("n"), Value::Null);
    assert_eq!(init("u"), Value::Undef);
    assert_eq!(init("q"), Value::Poison);
    assert_eq!(init("z"), Value::ZeroInitializer);
    let Value::Aggregate { text, globals } = init("arr") else {
        panic!()
    };
    assert_eq!((text.as_str(), globals.len()), ("[ptr @a, ptr @p]", 2));
    assert!(matches!(init("s"), Value::Aggregate { text, .. } if text == "c\"ab\\00\""));
    let Value::ConstExpr(c) = init("ce") else {
        panic!()
    };
    assert_eq!(
        (c.opcode.as_str(), c.globals.clone()),
        ("ptrtoint", vec![Name::Named("a".into())])
    );
    assert_eq!(init("f1"), Value::Float("1.500000e+00".into()));
    assert_eq!(init("h"), Value::Float("0x7FF0000000000000".into()));
    assert!(matches!(init("tok"), Value::ConstExpr(c) if c.opcode == "dso_local_equivalent"));
    assert!(m.global("s").expect("@s").is_constant);
}

#[test]
fn types() {
    let cases = [
        ("i1", Type::Int(1)),
        ("i128", Type::Int(128)),
        ("ptr", Type::Ptr { addrspace: 0 }),
        ("ptr addrspace(3)", Type::Ptr { addrspace: 3 }),
        ("half", Type::Float(FloatKind::Half)),
        ("bfloat", Type::Float(FloatKind::BFloat)),
        ("x86_fp80", Type::Float(FloatKind::X86Fp80)),
        (
            "[2 x [3 x i8]]",
            Type::Array {
                len: 2,
                elem: Box::new(Type::Array {
                    len: 3,
                    elem: Box::new(Type::Int(8)),
                }),
            },
        ),
        (
            "<4 x float>",
            Type::Vector {
                scalable: false,
                len: 4,
                elem: Box::new(Type::Float(FloatKind::Float)),
            },
        ),
        (
            "<vscale x 2 x i64>",
            Type::Vector {
                scalable: true,
                len: 2,
                elem: Box::new(Type::Int(64)),
            },
        ),
        (
            "{ i32, ptr }",
            Type::Struct {
                packed: false,
                fields: vec![Type::Int(32), Type::Ptr { addrspace: 0 }],
            },
        ),
        (
            "<{ i8, i32 }>",
            Type::Struct {
                packed: true,
                fields: vec![Type::Int(8), Type::Int(32)],
            },
        ),
        (
            "{}",
            Type::Struct {
                packed: false,
                fields: vec![],
            },
        ),
        ("%T", Type::Named(Name::Named("T".into()))),
        (
            "target(\"spirv.Event\")",
            Type::TargetExt("target(\"spirv.Event\")".into()),
        ),
        ("i32 addrspace(1)*", Type::Ptr { addrspace: 1 }),
        ("i8*", Type::Ptr { addrspace: 0 }),
    ];
    for (text, want) in cases {
        let m = parse(&format!(
            "%T = type {{ i32 }}\n@g = external global {text}\n"
        ));
        let g = m.global("g").expect("@g");
        assert_eq!(g.ty, want, "{text}");
        if !text.ends_with('*') {
            assert_eq!(g.ty.to_string(), text, "Display of {text}");
        }
    }
    let m = parse("%T = type { i32, %T* }\n%O = type opaque\n%P = type <{ i8 }>\n");
    assert_eq!(m.types.len(), 3);
    assert_eq!(m.types[1].ty, None);
    assert_eq!(m.types[2].text, "<{ i8 }>");
}

#[test]
fn globals_with_qualifiers() {
    let src = "@a = internal addrspace(3) global [64 x i32] undef, align 4
@b = external local_unnamed_addr global i32, align 4
@c = dso_local local_unnamed_addr addrspace(1) externally_initialized global i32 7, section \".data\", align 8, !dbg !0 #2
@d = weak_odr hidden thread_local(localdynamic) unnamed_addr constant i8 1, comdat
@e = extern_weak global i32
attributes #2 = { \"x\" }
";
    let m = parse(src);
    let a = m.global("a").expect("@a");
    assert_eq!(
        (a.qualifiers.linkage, a.addrspace, a.align),
        (Some(Linkage::Internal), 3, Some(4))
    );
    let b = m.global("b").expect("@b");
    assert_eq!(
        (b.initializer.clone(), b.unnamed_addr.as_deref()),
        (None, Some("local_unnamed_addr"))
    );
    let c = m.global("c").expect("@c");
    assert!(c.externally_initialized);
    assert_eq!(
        (c.addrspace, c.initializer.clone()),
        (1, Some(Value::Int(7)))
    );
    assert_eq!(c.extra, ["section \".data\""]);
    assert_eq!(c.metadata[0].name, "dbg");
    assert_eq!(c.attrs, [Attribute::Group(2)]);
    let d = m.global("d").expect("@d");
    assert_eq!(
        d.thread_local.as_deref(),
        Some("thread_local(localdynamic)")
    );
    assert_eq!(
        (d.qualifiers.visibility.as_deref(), d.is_constant),
        (Some("hidden"), true)
    );
    assert_eq!(
        m.global("e").and_then(|e| e.qualifiers.linkage),
        Some(Linkage::ExternWeak)
    );
}

#[test]
fn function_headers() {
    let src = "declare !dbg !1 dso_local spir_func zeroext i8 @d(i32 inreg noundef, ptr byval(%S) align 8, ...) local_unnamed_addr #0
define internal amdgpu_kernel void @k(i32 inreg %x, ptr addrspace(1) noalias nocapture readonly %p, i32 range(i32 0, 1024) %r) unnamed_addr addrspace(0) #0 section \"text\" align 16 personality ptr @d !dbg !5 {
  ret void
}
define linkonce_odr cc 42 void @cc() {
  ret void
}
%S = type { i32 }
attributes #0 = { convergent noinline nounwind \"amdgpu-flat-work-group-size\"=\"1,256\" memory(argmem: readwrite) uwtable(sync) alignstack=16 future_attr \"flag-only\" }
";
    let m = parse(src);
    let d = m.function("d").expect("@d");
    assert!(!d.is_definition && d.varargs);
    assert_eq!(
        d.calling_conv.as_ref().map(|c| c.0.as_str()),
        Some("spir_func")
    );
    assert_eq!(d.ret_attrs, [Attribute::Flag("zeroext".into())]);
    assert_eq!(d.params[0].name, Name::Numbered(0));
    assert_eq!(
        d.params[1].attrs[0],
        Attribute::Valued {
            name: "byval".into(),
            value: "%S".into()
        }
    );
    assert_eq!(d.unnamed_addr.as_deref(), Some("local_unnamed_addr"));
    assert_eq!(d.metadata[0].name, "dbg");
    let k = m.function("k").expect("@k");
    assert_eq!(k.qualifiers.linkage, Some(Linkage::Internal));
    assert!(k.calling_conv.as_ref().is_some_and(|c| c.is_kernel()));
    assert!(k.params[0].attrs.contains(&Attribute::Flag("inreg".into())));
    assert_eq!(
        k.params[2].attrs[0],
        Attribute::Valued {
            name: "range".into(),
            value: "i32 0, 1024".into()
        }
    );
    assert_eq!(
        k.extra,
        ["section \"text\"", "align 16", "personality ptr @d"]
    );
    assert_eq!(k.addrspace, Some(0));
    assert!(k.is_convergent(&m));
    let g = m.attr_group(0).expect("#0");
    let names: Vec<&str> = g.attrs.iter().filter_map(|a| a.name()).collect();
    assert_eq!(
        names,
        [
            "convergent",
            "noinline",
            "nounwind",
            "amdgpu-flat-work-group-size",
            "memory",
            "uwtable",
            "alignstack",
            "future_attr",
            "flag-only"
        ]
    );
    assert_eq!(
        g.attrs[4],
        Attribute::Valued {
            name: "memory".into(),
            value: "argmem: readwrite".into()
        }
    );
    assert_eq!(
        g.attrs[6],
        Attribute::Valued {
            name: "alignstack".into(),
            value: "16".into()
        }
    );
    assert_eq!(
        m.function("cc")
            .and_then(|f| f.calling_conv.clone())
            .map(|c| c.0),
        Some("cc 42".into())
    );
}

#[test]
fn metadata_debug_records_and_comments_are_skipped() {
    let src = "; a comment
source_filename = \"x.c\" ; trailing comment
target datalayout = \"e-m:e\"
target triple = \"x86_64-unknown-linux-gnu\"
define void @f(i32 %x) !dbg !4 {
entry: ; preds = nothing
    #dbg_value(i32 %x, !10, !DIExpression(DW_OP_LLVM_fragment, 0, 32), !11)
    #dbg_declare(ptr null, !12, !DIExpression(), !13)
  %y = add i32 %x, 1, !dbg !11
  br label %exit, !llvm.loop !{!\"inline\"}
exit:
    #dbg_label(!14, !15)
  ret void, !dbg !16
}
!llvm.dbg.cu = !{!0}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, emissionKind: FullDebug)
!1 = !DIFile(filename: \"x.c\", directory: \"/tmp\", checksumkind: CSK_MD5, checksum: \"00\")
!2 = !{i32 7, !\"Dwarf Version\", i32 5}
!3 = !DIExpression(DW_OP_constu, 18446744073709551615, DW_OP_stack_value)
!99 = !SomeFutureNode(field: weird)
";
    let m = parse(src);
    assert_eq!(m.source_filename.as_deref(), Some("x.c"));
    assert_eq!(m.datalayout.as_deref(), Some("e-m:e"));
    assert_eq!(m.triple.as_deref(), Some("x86_64-unknown-linux-gnu"));
    let f = m.function("f").expect("@f");
    assert_eq!(f.instructions().count(), 3);
    assert_eq!(
        f.blocks[0].instructions[1].attachment("llvm.loop"),
        Some("!{!\"inline\"}")
    );
    assert_eq!(m.metadata.len(), 6);
    assert_eq!(m.metadata[0].name, "llvm.dbg.cu");
    assert_eq!(m.metadata[5].text, "!SomeFutureNode(field: weird)");
    assert_eq!(f.blocks[0].instructions[0].line(), 9);
}

#[test]
fn other_top_level_entities_are_kept_as_text() {
    let src = "$c = comdat any
module asm \"nop\"
@g = global i32 0, comdat($c)
@al = hidden alias i32, ptr @g
@if = ifunc void (), ptr @resolver
define ptr @resolver() {
  ret ptr null
}
";
    let m = parse(src);
    let kinds: Vec<String> = m
        .others
        .iter()
        .map(|o| format!("{:?}:{}", o.kind, o.text))
        .collect();
    assert_eq!(
        kinds,
        [
            "Comdat:$c = comdat any",
            "ModuleAsm:module asm \"nop\"",
            "Alias:@al = hidden alias i32, ptr @g",
            "IFunc:@if = ifunc void (), ptr @resolver"
        ]
    );
}

#[test]
fn quoted_and_numbered_names() {
    let src = "define void @\"quoted fn\"(i32 %\"a b\") {
\"my block\":
  %\"x\\22y\" = add i32 %\"a b\", 1
  br label %\"exit\"
\"exit\":
  ret void
}
@0 = global i32 1
@1 = global ptr @0
";
    let m = parse(src);
    let f = m.function("quoted fn").expect("found by its unquoted name");
    assert_eq!(f.blocks[0].name, Name::Named("my block".into()));
    assert_eq!(
        f.blocks[0].instructions[0].result,
        Some(Name::Named("x\"y".into()))
    );
    assert_eq!(
        f.blocks[0].instructions[0]
            .result
            .as_ref()
            .map(|n| n.to_string())
            .as_deref(),
        Some("\"x\\22y\"")
    );
    assert_eq!(
        m.globals[1].initializer,
        Some(Value::Global(Name::Numbered(0)))
    );
}
