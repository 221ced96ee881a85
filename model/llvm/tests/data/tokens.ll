; Hand-written IR with convergence control tokens, in the shape of the
; examples of LLVM's ConvergentOperations document: an entry token, a loop
; heart, an anchor, and a divergent loop exit. Checked with opt-19 (see
; README.md).
source_filename = "tokens.ll"
target triple = "amdgcn-amd-amdhsa"

%struct.pair = type { i32, ptr addrspace(3) }

@lds = internal addrspace(3) global [64 x i32] poison, align 4
@ext = external addrspace(1) global i32

declare token @llvm.experimental.convergence.entry() #0
declare token @llvm.experimental.convergence.loop() #0
declare token @llvm.experimental.convergence.anchor() #0
declare void @op() #1
declare i32 @c()
declare i32 @llvm.amdgcn.workitem.id.x() #2

; The loop heart uses the entry token; the operation inside the loop uses the
; loop token and the one after the loop uses the entry token, so threads that
; left the loop in different iterations reconverge there.
define amdgpu_kernel void @divergent_exit(i32 inreg %n) #1 {
entry:
  %tok = call token @llvm.experimental.convergence.entry()
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %ltok = call token @llvm.experimental.convergence.loop() [ "convergencectrl"(token %tok) ]
  %hit = icmp eq i32 %tid, %i
  br i1 %hit, label %exit, label %latch

latch:
  call void @op() [ "convergencectrl"(token %ltok) ]
  %i.next = add nuw nsw i32 %i, 1
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %loop, label %exit

exit:
  call void @op() [ "convergencectrl"(token %tok) ]
  ret void
}

; An anchor whose convergence is implementation-defined, and a call whose
; call site (not its callee) is convergent.
define void @anchored(i64 %v) #1 {
  %a = call token @llvm.experimental.convergence.anchor()
  %1 = call i32 @c() #1 [ "convergencectrl"(token %a) ]
  %2 = icmp ne i32 %1, 0
  br i1 %2, label %3, label %4

3:
  call void @op() [ "convergencectrl"(token %a) ]
  br label %4

4:
  switch i64 %v, label %done [
    i64 -1, label %other
    i64 9223372036854775807, label %done
  ]

other:
  unreachable

done:
  ret void
}

; Memory in every address space the mapping names: LDS (3), global (1),
; private allocas (5), with volatile and atomic accesses kept.
define void @memory(i32 %x, ptr addrspace(1) %p) {
entry:
  %slot = alloca i32, align 4, addrspace(5)
  store volatile i32 %x, ptr addrspace(5) %slot, align 4
  %g = getelementptr inbounds [64 x i32], ptr addrspace(3) @lds, i32 0, i32 %x
  store atomic i32 %x, ptr addrspace(3) %g syncscope("workgroup") release, align 4
  %v = load atomic i32, ptr addrspace(1) %p seq_cst, align 4
  %w = load i32, ptr addrspace(1) @ext, align 4
  %s = add i32 %v, %w
  %f = freeze i32 %s
  %q = getelementptr i8, ptr addrspace(3) getelementptr inbounds ([64 x i32], ptr addrspace(3) @lds, i32 0, i32 2), i32 %f
  store i32 %f, ptr addrspace(3) %q, align 4
  ret void
}

attributes #0 = { convergent nocallback nofree nosync nounwind willreturn memory(none) }
attributes #1 = { convergent nounwind "amdgpu-flat-work-group-size"="1,256" }
attributes #2 = { nounwind readnone speculatable "some-future-attr" }
