; CLASS: a
; EXPECT: violated
; The arguments of convergent inline assembly are observed, as those of
; any convergent operation: the target passes another mask.
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @src(i32 %m) {
entry:
  call void asm sideeffect "bar.warp.sync $0;", "r"(i32 %m) #0
  ret void
}

define void @tgt(i32 %m) {
entry:
  %n = or i32 %m, 1
  call void asm sideeffect "bar.warp.sync $0;", "r"(i32 %n) #0
  ret void
}

attributes #0 = { convergent }
