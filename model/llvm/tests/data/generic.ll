; Hand-written IR full of constructs outside what the mapping interprets
; (floating point, vectors, aggregates, atomics, exceptions, indirect calls,
; inline asm). Each such instruction must parse as a generic instruction
; with its opcode, so the mapping can report "inconclusive: uses <opcode>".
; Checked with opt-19 (see README.md).
source_filename = "generic.ll"
target datalayout = "e-m:e-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

%struct.S = type { i32, [2 x float], <4 x i16> }
%opaque.T = type opaque
%packed = type <{ i8, i32 }>

$comdat.any = comdat any

@str = private unnamed_addr constant [6 x i8] c"hello\00", align 1
@table = internal global [2 x ptr] [ptr @str, ptr null], align 16
@s = dso_local global %struct.S { i32 1, [2 x float] [float 1.000000e+00, float 0x7FF8000000000000], <4 x i16> <i16 1, i16 2, i16 3, i16 -4> }, comdat($comdat.any)
@tls = thread_local(initialexec) global i64 -9223372036854775808
@big = global i64 18446744073709551615
@alias = alias i32, ptr @s
@gepc = global ptr getelementptr inbounds (%struct.S, ptr @s, i64 0, i32 1, i64 1)

declare i32 @printf(ptr noundef, ...)
declare i32 @__gxx_personality_v0(...)
declare void @may_throw(i32) 
declare float @llvm.fabs.f32(float)

define float @floats(float %a, double %b, <4 x float> %v) {
  %n = fneg float %a
  %s = fadd fast float %n, 1.5
  %m = fmul nnan ninf float %s, 0x3FF0000000000000
  %d = fpext float %m to double
  %c = fcmp olt double %d, %b
  %t = fptrunc double %b to float
  %abs = call nnan float @llvm.fabs.f32(float %t)
  %e = extractelement <4 x float> %v, i32 2
  %ins = insertelement <4 x float> %v, float %e, i64 0
  %sh = shufflevector <4 x float> %ins, <4 x float> poison, <4 x i32> zeroinitializer
  %r = select i1 %c, float %abs, float %e
  %fi = fptosi float %r to i32
  %if = sitofp i32 %fi to float
  ret float %if
}

define i32 @aggregates(ptr %p, i32 %x) personality ptr @__gxx_personality_v0 {
entry:
  %agg = insertvalue { i32, i1 } poison, i32 %x, 0
  %f0 = extractvalue { i32, i1 } %agg, 0
  %old = atomicrmw add ptr %p, i32 %f0 syncscope("singlethread") monotonic, align 4
  %pair = cmpxchg weak ptr %p, i32 %old, i32 0 acq_rel acquire, align 4
  %ok = extractvalue { i32, i1 } %pair, 1
  fence seq_cst
  %fp = load ptr, ptr @table, align 8
  %ind = call i32 %fp(i32 %x)
  %asm = call i32 asm sideeffect "mov $0, $1", "=r,r"(i32 %ind)
  %pf = call i32 (ptr, ...) @printf(ptr noundef @str, i32 %asm)
  invoke void @may_throw(i32 %pf)
          to label %cont unwind label %lpad

cont:
  %va = alloca i8, i32 %x, align 16
  %ptoi = ptrtoint ptr %va to i64
  %itop = inttoptr i64 %ptoi to ptr
  %vec = add <2 x i32> <i32 1, i32 2>, zeroinitializer
  %z = select i1 %ok, i32 %x, i32 7
  ret i32 %z

lpad:
  %lp = landingpad { ptr, i32 }
          cleanup
          catch ptr null
  resume { ptr, i32 } %lp
}

define void @indirect_branch(ptr %target, i1 %c) {
entry:
  indirectbr ptr %target, [label %a, label %b]

a:
  br label %b

b:
  ret void
}
