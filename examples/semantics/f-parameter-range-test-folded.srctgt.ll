; CLASS: f
; EXPECT: preserved
; The same fold without `noundef`: a value out of the range is poison, and
; the reference branches on it (undefined behaviour), so those scenarios
; constrain nothing. Was a violation.
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global [1024 x i32] zeroinitializer
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @__ballot_sync(i32, i32) convergent

define void @src(i32 range(i32 0, 1024) %x) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  %c = icmp ult i32 %x, 1024
  br i1 %c, label %then, label %end
then:
  %b = call i32 @__ballot_sync(i32 -1, i32 1)
  store i32 7, ptr addrspace(1) %slot
  br label %end
end:
  ret void
}

define void @tgt(i32 range(i32 0, 1024) %x) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  %b = call i32 @__ballot_sync(i32 -1, i32 1)
  store i32 7, ptr addrspace(1) %slot
  ret void
}
