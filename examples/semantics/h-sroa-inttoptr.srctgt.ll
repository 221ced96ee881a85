; CLASS: h
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (The explicit engine alone decides nothing: the domains of out are
;  inexact, class m; the other engines prove or preserve it.)
; SROA turns a pointer kept in an integer slot into `ptrtoint` and
; `inttoptr`: the pointer keeps its object through its integer
; (provenance), so the store goes where it went.
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @src(ptr addrspace(1) %out) {
entry:
  %slot = alloca i64, align 8
  %int = ptrtoint ptr addrspace(1) %out to i64
  store i64 %int, ptr %slot, align 8
  %back = load i64, ptr %slot, align 8
  %p = inttoptr i64 %back to ptr addrspace(1)
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  store i32 7, ptr addrspace(1) %q, align 4
  ret void
}

define void @tgt(ptr addrspace(1) %out) {
entry:
  %int = ptrtoint ptr addrspace(1) %out to i64
  %p = inttoptr i64 %int to ptr addrspace(1)
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  store i32 7, ptr addrspace(1) %q, align 4
  ret void
}
