; CLASS: c
; EXPECT: violated
; A constant lookup table decides which threads vote; the target's table
; differs in one entry (issue 20, class c: answered `proved` before
; constants returned their initializers).
@table = addrspace(4) constant [4 x i32] [i32 1, i32 0, i32 1, i32 0] ; only: src
@table = addrspace(4) constant [4 x i32] [i32 1, i32 0, i32 1, i32 1] ; only: tgt
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @vote() #0

define void @src() #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = and i32 %tid, 3
  %p = getelementptr [4 x i32], ptr addrspace(4) @table, i32 0, i32 %i
  %v = load i32, ptr addrspace(4) %p
  %c = icmp ne i32 %v, 0
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
  %p = getelementptr [4 x i32], ptr addrspace(4) @table, i32 0, i32 %i
  %v = load i32, ptr addrspace(4) %p
  %c = icmp ne i32 %v, 0
  br i1 %c, label %then, label %end
then:
  call void @vote()
  br label %end
end:
  ret void
}

attributes #0 = { convergent nounwind }
