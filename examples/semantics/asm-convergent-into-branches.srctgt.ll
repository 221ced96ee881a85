; CLASS: b
; EXPECT: violated
; Inline assembly that is `convergent` at the call site (clang marks every
; `asm` statement of CUDA, HIP and OpenCL so) is a convergent operation,
; its arguments observed. The target runs it in both arms of a branch on
; the thread index: every thread still runs it once, but not together.
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @src(i32 %m) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = icmp ult i32 %tid, 1
  call void asm sideeffect "bar.warp.sync $0;", "r"(i32 %m) #0
  br i1 %c, label %a, label %b
a:
  br label %end
b:
  br label %end
end:
  ret void
}

define void @tgt(i32 %m) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = icmp ult i32 %tid, 1
  br i1 %c, label %a, label %b
a:
  call void asm sideeffect "bar.warp.sync $0;", "r"(i32 %m) #0
  br label %end
b:
  call void asm sideeffect "bar.warp.sync $0;", "r"(i32 %m) #0
  br label %end
end:
  ret void
}

attributes #0 = { convergent }
