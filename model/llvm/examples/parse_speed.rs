//! Measures parse speed on a large generated module: kernel-shaped
//! functions with loops, phis, convergence tokens, address-space memory
//! accesses, switches, metadata attachments and debug records, written as
//! clang and opt print them. Speed is measured here, never asserted in tests.
//!
//! `cargo run --release --example parse_speed -- [MEGABYTES]` (default 20).
#![deny(unsafe_code)]

use std::fmt::Write as _;
use std::time::Instant;

fn function(s: &mut String, k: usize) {
    let _ = write!(
        s,
        r#"; Function Attrs: convergent nounwind
define dso_local amdgpu_kernel void @f{k}(i32 noundef %n, ptr addrspace(1) noundef align 4 %p) local_unnamed_addr #0 !dbg !3 {{
entry:
  %t = call token @llvm.experimental.convergence.entry()
  br label %loop

loop:                                             ; preds = %next, %entry
  %i = phi i32 [ 0, %entry ], [ %i.next, %next ]
  %acc = phi i32 [ 0, %entry ], [ %acc.next, %next ]
  %lt = call token @llvm.experimental.convergence.loop() [ "convergencectrl"(token %t) ]
    #dbg_value(i32 %i, !4, !DIExpression(), !5)
  %idx = zext nneg i32 %i to i64
  %a = getelementptr inbounds i32, ptr addrspace(1) %p, i64 %idx
  %v = load i32, ptr addrspace(1) %a, align 4, !tbaa !6
  %c = icmp slt i32 %v, %n
  br i1 %c, label %then, label %latch

then:                                             ; preds = %loop
  tail call void @op() #1 [ "convergencectrl"(token %lt) ]
  %w = mul nsw i32 %v, 3
  store i32 %w, ptr addrspace(1) %a, align 4, !tbaa !6
  br label %latch

latch:                                            ; preds = %then, %loop
  %acc.next = add i32 %acc, %v
  %i.next = add nuw nsw i32 %i, 1
  %more = icmp ult i32 %i.next, %n
  switch i32 %acc.next, label %next [
    i32 0, label %exit
    i32 -1, label %exit
  ]

next:                                             ; preds = %latch
  br i1 %more, label %loop, label %exit, !llvm.loop !7

exit:                                             ; preds = %next, %latch, %latch
  call void @op() [ "convergencectrl"(token %t) ]
  ret void
}}

"#
    );
}

fn module(bytes: usize) -> (String, usize) {
    let mut s = String::from(
        "source_filename = \"gen.cl\"\ntarget triple = \"amdgcn-amd-amdhsa\"\n\n\
         declare token @llvm.experimental.convergence.entry() #1\n\
         declare token @llvm.experimental.convergence.loop() #1\n\
         declare void @op() #1\n\n",
    );
    let mut k = 0;
    while s.len() < bytes {
        function(&mut s, k);
        k += 1;
    }
    s.push_str(
        "attributes #0 = { convergent norecurse nounwind \"amdgpu-flat-work-group-size\"=\"1,256\" }\n\
         attributes #1 = { convergent nounwind }\n\
         !3 = distinct !DISubprogram(name: \"f\")\n!4 = !DILocalVariable(name: \"i\", scope: !3)\n\
         !5 = !DILocation(line: 1, scope: !3)\n!6 = !{!\"int\", !8}\n!7 = distinct !{!7}\n!8 = !{!\"tbaa\"}\n",
    );
    (s, k)
}

fn main() {
    let mb: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(20);
    let (src, functions) = module(mb << 20);
    let mut best = f64::INFINITY;
    let mut instructions = 0;
    for _ in 0..5 {
        let start = Instant::now();
        let m = convcheck_llvm::parse_module(&src, "gen.ll").expect("the generated module parses");
        best = best.min(start.elapsed().as_secs_f64());
        instructions = m
            .defined_functions()
            .map(|f| f.instructions().count())
            .sum();
    }
    let size = src.len() as f64 / (1 << 20) as f64;
    println!(
        "{size:.1} MiB, {functions} functions, {instructions} instructions: best of 5 {best:.3} s = {:.1} MiB/s, {:.2} M instructions/s",
        size / best,
        instructions as f64 / best / 1e6
    );
}
