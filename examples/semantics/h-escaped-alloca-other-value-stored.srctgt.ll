; CLASS: h
; EXPECT: violated
; EXPECT-explicit: inconclusive
; (Under --engine explicit alone: the domain of rdg's result is inexact,
; since it reaches a stored value; the product answers.)
; The pair of h-escaped-alloca-address-after-sroa-o19 with the target
; storing x + 2 where the reference stores x + 1 through the escaped
; address: rdg (`memory(read)`) may read the slot through @gp, so its
; result may differ. The escaped alloca's base is matched by its order, so
; the addresses agree and the values stored through them are compared.
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
  %4 = add nsw i32 %1, 2
  store i32 %4, ptr %3, align 4
  %5 = call noundef i32 @_Z3rdgv() #1
  %6 = getelementptr inbounds i32, ptr %0, i64 0
  store i32 %5, ptr %6, align 4
  ret void
}

declare noundef i32 @_Z3rdgv() #1

attributes #0 = { convergent mustprogress noinline norecurse nounwind }
attributes #1 = { convergent nounwind willreturn memory(read) }
