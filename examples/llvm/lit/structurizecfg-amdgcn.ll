; A user's AMDGPU test, its RUN line given to convcheck: the triple and the
; cl::opt reach opt through --opt-arg, exactly as opt's RUN line has them.
;
; RUN: convcheck check %s --opt structurizecfg --opt-arg=-mtriple=amdgcn-- --opt-arg=-structurizecfg-skip-uniform-regions | FileCheck %s
;
; CHECK: stage 1: StructurizeCFGPass on uniform_if (opt-bisect 1): proved (every iteration count)
; CHECK: note: pipeline: opt-19 -passes=structurizecfg -S -mtriple=amdgcn-- -structurizecfg-skip-uniform-regions {{.*}}.ll
; CHECK: verdict: proved
;
; A uniform branch (on an `inreg` kernel argument) with a convergent call
; in each arm and one after the join.

declare void @vote(i32) convergent

define amdgpu_kernel void @uniform_if(i32 inreg %n, ptr addrspace(1) %out) {
entry:
  %u = icmp eq i32 %n, 0
  br i1 %u, label %then, label %else

then:
  call void @vote(i32 1)
  br label %join

else:
  call void @vote(i32 2)
  br label %join

join:
  call void @vote(i32 3)
  ret void
}
