target triple = "nvptx64-nvidia-cuda"

define void @k(ptr %out) {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %n = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %c = icmp uge i32 %b, %n
  br i1 %c, label %then, label %end
then:
  %v = call i32 @ballot(i1 true)
  store i32 %v, ptr %out
  br label %end
end:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare i32 @ballot(i1) convergent
