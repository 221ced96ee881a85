; CLASS: c
; EXPECT: violated
; As c-internal-global-never-written-folded, but another kernel of the
; module stores to @t: a launch of @w before this kernel leaves 9 there,
; so folding the load to the initializer is wrong (GlobalOpt does not).
; The global is read as memory (`to_ir/never_written.rs`: a store
; mentions it).
target triple = "nvptx64-nvidia-cuda"
@t = internal addrspace(1) global i32 5, align 4
@out = addrspace(1) global [1024 x i32] zeroinitializer
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @w() {
entry:
  store i32 9, ptr addrspace(1) @t, align 4
  ret void
}

define void @src() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %v = load i32, ptr addrspace(1) @t, align 4
  %p = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  store i32 %v, ptr addrspace(1) %p, align 4
  ret void
}

define void @tgt() {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr [1024 x i32], ptr addrspace(1) @out, i32 0, i32 %tid
  store i32 5, ptr addrspace(1) %p, align 4
  ret void
}
