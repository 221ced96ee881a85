; CLASS: f
; EXPECT: violated
; A constant float lookup table (written in the forms LLVM prints: decimal
; and double-width hex) decides which threads vote; the target's table
; differs in one entry (0.5 becomes 1.5), so thread 3 no longer votes.
@table = addrspace(4) constant [4 x float] [float 1.000000e+00, float 0.000000e+00, float 0x3FF8000000000000, float 5.000000e-01] ; only: src
@table = addrspace(4) constant [4 x float] [float 1.000000e+00, float 0.000000e+00, float 0x3FF8000000000000, float 1.500000e+00] ; only: tgt
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @vote() #0

define void @src() #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = and i32 %tid, 3
  %p = getelementptr [4 x float], ptr addrspace(4) @table, i32 0, i32 %i
  %v = load float, ptr addrspace(4) %p
  %c = fcmp olt float %v, 1.000000e+00
  br i1 %c, label %then, label %end
then:
  call void @vote()
  br label %end
end:
  ret void
}

define void @tgt() #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = and i32 %tid, 3
  %p = getelementptr [4 x float], ptr addrspace(4) @table, i32 0, i32 %i
  %v = load float, ptr addrspace(4) %p
  %c = fcmp olt float %v, 1.000000e+00
  br i1 %c, label %then, label %end
then:
  call void @vote()
  br label %end
end:
  ret void
}

attributes #0 = { convergent nounwind }
