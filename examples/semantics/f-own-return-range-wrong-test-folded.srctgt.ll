; CLASS: f
; EXPECT: violated
; The mutant of `f-own-return-range-test-folded`: the callee's own range
; is `range(i32 0, 20)`, so `v < 10` may be false for a defined `v` and
; folding it to true is wrong.
target triple = "nvptx64-nvidia-cuda"
@out = addrspace(1) global [1024 x i32] zeroinitializer
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define internal range(i32 0, 20) i32 @level(i32 %x) {
entry:
  ret i32 %x
}

define void @src(i32 %x) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  %v = call i32 @level(i32 %x)
  %c = icmp ult i32 %v, 10
  br i1 %c, label %then, label %end
then:
  store i32 1, ptr addrspace(1) %slot
  br label %end
end:
  ret void
}

define void @tgt(i32 %x) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  %v = call i32 @level(i32 %x)
  store i32 1, ptr addrspace(1) %slot
  ret void
}
