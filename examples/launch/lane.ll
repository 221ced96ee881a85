target triple = "nvptx64-nvidia-cuda"

define void @k(ptr %out) {
entry:
  %l = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  %c = icmp eq i32 %l, 0
  br i1 %c, label %then, label %end
then:
  %b = call i32 @ballot(i1 true)
  store i32 %b, ptr %out
  br label %end
end:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.laneid()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @ballot(i1) convergent
