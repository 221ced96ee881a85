; CLASS: h
; EXPECT: preserved
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the domain of rdg's result is inexact,
; since it reaches a stored value; the product answers.)
; clang-19 -O0 CUDA (`int a = x; gp = &a; a = x + 1; out[0] = rdg();`,
; rdg `pure`, so `convergent memory(read)`): the parameters' slots %3 and
; %4 are promoted, %5 is kept in memory because its address goes to @gp.
; opt-19 -passes=sroa deletes the two slots and renumbers %5 as %3. LangRef
; lets the implementation choose an alloca's address, so the address
; stored to @gp is the same one in both: an alloca whose address may be
; captured has a base named by its order among such allocas, not by its
; LLVM name (red-team review2 G11: violated before, the stored addresses
; differed).
target triple = "nvptx64-nvidia-cuda"
@gp = addrspace(1) externally_initialized global ptr null, align 8

define void @src(ptr noundef %0, i32 noundef %1) #0 {
  %3 = alloca ptr, align 8
  %4 = alloca i32, align 4
  %5 = alloca i32, align 4
  store ptr %0, ptr %3, align 8
  store i32 %1, ptr %4, align 4
  %6 = load i32, ptr %4, align 4
  store i32 %6, ptr %5, align 4
  store ptr %5, ptr addrspacecast (ptr addrspace(1) @gp to ptr), align 8
  %7 = load i32, ptr %4, align 4
  %8 = add nsw i32 %7, 1
  store i32 %8, ptr %5, align 4
  %9 = call noundef i32 @_Z3rdgv() #1
  %10 = load ptr, ptr %3, align 8
  %11 = getelementptr inbounds i32, ptr %10, i64 0
  store i32 %9, ptr %11, align 4
  ret void
}

define void @tgt(ptr noundef %0, i32 noundef %1) #0 {
  %3 = alloca i32, align 4
  store i32 %1, ptr %3, align 4
  store ptr %3, ptr addrspacecast (ptr addrspace(1) @gp to ptr), align 8
  %4 = add nsw i32 %1, 1
  store i32 %4, ptr %3, align 4
  %5 = call noundef i32 @_Z3rdgv() #1
  %6 = getelementptr inbounds i32, ptr %0, i64 0
  store i32 %5, ptr %6, align 4
  ret void
}

declare noundef i32 @_Z3rdgv() #1

attributes #0 = { convergent mustprogress noinline norecurse nounwind }
attributes #1 = { convergent nounwind willreturn memory(read) }
