; CLASS: f
; EXPECT: preserved
; With `noundef` too a result out of range is undefined behaviour at the
; call: `v < 10` folded to true.
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global [1024 x i32] zeroinitializer
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @__ballot_sync(i32, i32) convergent
declare i32 @level()

define void @src() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  %v = call noundef range(i32 0, 10) i32 @level()
  %c = icmp ult i32 %v, 10
  br i1 %c, label %then, label %end
then:
  %b = call i32 @__ballot_sync(i32 -1, i32 1)
  store i32 7, ptr addrspace(1) %slot
  br label %end
end:
  ret void
}

define void @tgt() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  %v = call noundef range(i32 0, 10) i32 @level()
  %b = call i32 @__ballot_sync(i32 -1, i32 1)
  store i32 7, ptr addrspace(1) %slot
  ret void
}
