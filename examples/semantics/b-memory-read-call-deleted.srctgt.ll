; CLASS: b
; EXPECT: proved
; EXPECT-explicit: preserved
; (The explicit engine alone proves nothing for every iteration count.)
; A `memory(argmem: read)` external call (it only reads) whose value is
; unused: deleting it is allowed (LangRef, `memory`: no write effects).
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @ext(ptr) #0
@buf = addrspace(1) global [64 x i32] zeroinitializer

define void @src() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %r = call i32 @ext(ptr addrspacecast (ptr addrspace(1) @buf to ptr))
  ret void
}

define void @tgt() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  ret void
}

attributes #0 = { nounwind willreturn memory(argmem: read) }
