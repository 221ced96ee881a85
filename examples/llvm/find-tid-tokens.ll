; The find-tid loop with convergence control tokens, shaped like clang's
; -O0 output for
;
;   for (int i = 0; i < 8; i++)
;     if (i == tid) { op(); break; }
;
; where op() is controlled by the loop's heart, so each thread's op() is
; in its own iteration (llvm/llvm-project #164496, here with the thread id
; as the parameter %tid). Written for convcheck; checked with
; `opt-19 -passes=verify`.
define void @find_tid(i32 noundef %tid) #0 {
entry:
  %t.entry = call token @llvm.experimental.convergence.entry()
  %tid.addr = alloca i32, align 4
  %i = alloca i32, align 4
  store i32 %tid, ptr %tid.addr, align 4
  store i32 0, ptr %i, align 4
  br label %for.cond

for.cond:
  %t.loop = call token @llvm.experimental.convergence.loop() [ "convergencectrl"(token %t.entry) ]
  %0 = load i32, ptr %i, align 4
  %cmp = icmp slt i32 %0, 8
  br i1 %cmp, label %for.body, label %for.end

for.body:
  %1 = load i32, ptr %i, align 4
  %2 = load i32, ptr %tid.addr, align 4
  %cmp1 = icmp eq i32 %1, %2
  br i1 %cmp1, label %if.then, label %for.inc

if.then:
  call void @op() [ "convergencectrl"(token %t.loop) ]
  br label %for.end

for.inc:
  %3 = load i32, ptr %i, align 4
  %inc = add nsw i32 %3, 1
  store i32 %inc, ptr %i, align 4
  br label %for.cond

for.end:
  ret void
}

declare void @op() #1
declare token @llvm.experimental.convergence.entry() #2
declare token @llvm.experimental.convergence.loop() #2

attributes #0 = { convergent noinline nounwind }
attributes #1 = { convergent nounwind }
attributes #2 = { convergent nocallback nofree nosync nounwind willreturn memory(none) }
