; Hand-written IR that leans on LLVM's implicit numbering: unnamed
; parameters, an unlabeled entry block, results without "%N =", blocks that
; start right after a terminator without a label, typed-pointer-free spir
; calling conventions, and comments everywhere. opt-19 prints the same
; module with every number written out (see README.md); both must parse to
; the same names.
target triple = "spirv64-unknown-unknown"

declare spir_func void @op() #0
declare spir_func i32 @c()

define spir_kernel void @k(i32 inreg, i32 signext) #1 { ; %0, %1, entry is %2
  call spir_func i32 @c() ; %3
  icmp slt i32 %0, %3 ; %4
  br i1 %4, label %then, label %5

then:                    ; a named block does not take a number
  call spir_func void @op() #0
  br label %5

  add nsw i32 %1, 1      ; unlabeled block %5 starts here; this is %6
  call spir_func void @op() #0 ; void: no number
  switch i32 %6, label %7 [
    i32 0, label %then
  ]

  ret void               ; block %7
}

define spir_func i32 @f(i32 %x) {
  %1 = add i32 %x, 1     ; the entry block is %0
  ret i32 %1
}

attributes #0 = { convergent nounwind }
attributes #1 = { convergent nounwind "uniform-work-group-size"="true" }
