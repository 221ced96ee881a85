; CLASS: f
; EXPECT: violated
; EXPECT-MESSAGE: __ballot_sync
; The same test against 512 folded to true: a group of 513 to 1024
; threads tells them apart.
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global [1024 x i32] zeroinitializer
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @__ballot_sync(i32, i32) convergent

define void @src() {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %t
  %c = icmp ult i32 %t, 512
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
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %t
  %b = call i32 @__ballot_sync(i32 -1, i32 1)
  store i32 7, ptr addrspace(1) %slot
  ret void
}
