; CLASS: c
; EXPECT: violated
; A store of data moved below an atomic (a flag another thread may poll):
; an atomic is a synchronisation point.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@data = addrspace(1) global i32 0, align 4
@flag = addrspace(1) global i32 0, align 4

define void @src(i32 %x) {
  store i32 %x, ptr addrspace(1) @data, align 4
  %o = atomicrmw xchg ptr addrspace(1) @flag, i32 1 release, align 4
  ret void
}

define void @tgt(i32 %x) {
  %o = atomicrmw xchg ptr addrspace(1) @flag, i32 1 release, align 4
  store i32 %x, ptr addrspace(1) @data, align 4
  ret void
}
