; CLASS: e
; EXPECT: violated
; EXPECT-MESSAGE: ub.load.line
; The load of @g[tid] hoisted above the test tid < 4 that kept it inside
; the 4-element global @g: for tid >= 4 the target's load is undefined
; behaviour where the reference is defined (was proved: memory was a map
; of addresses). SimplifyCFG and LICM do not do this; a known-wrong mutant.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@g = addrspace(1) global [4 x i32] zeroinitializer, align 4
@out = addrspace(1) global [64 x i32] zeroinitializer, align 4
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @src() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = and i32 %tid, 63
  %c = icmp ult i32 %t, 4
  br i1 %c, label %then, label %exit
then:
  %a = getelementptr inbounds [4 x i32], ptr addrspace(1) @g, i32 0, i32 %t
  %v = load i32, ptr addrspace(1) %a, align 4
  %q = getelementptr inbounds [64 x i32], ptr addrspace(1) @out, i32 0, i32 %t
  store i32 %v, ptr addrspace(1) %q, align 4
  br label %exit
exit:
  ret void
}

define void @tgt() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = and i32 %tid, 63
  %a = getelementptr inbounds [4 x i32], ptr addrspace(1) @g, i32 0, i32 %t
  %v = load i32, ptr addrspace(1) %a, align 4
  %c = icmp ult i32 %t, 4
  br i1 %c, label %then, label %exit
then:
  %q = getelementptr inbounds [64 x i32], ptr addrspace(1) @out, i32 0, i32 %t
  store i32 %v, ptr addrspace(1) %q, align 4
  br label %exit
exit:
  ret void
}
