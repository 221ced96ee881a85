; ModuleID = 'implicit.ll'
source_filename = "implicit.ll"
target triple = "spirv64-unknown-unknown"

; Function Attrs: convergent nounwind
declare spir_func void @op() #0

declare spir_func i32 @c()

; Function Attrs: convergent nounwind
define spir_kernel void @k(i32 inreg %0, i32 signext %1) #1 {
  %3 = call spir_func i32 @c()
  %4 = icmp slt i32 %0, %3
  br i1 %4, label %then, label %5

then:                                             ; preds = %5, %2
  call spir_func void @op() #0
  br label %5

5:                                                ; preds = %then, %2
  %6 = add nsw i32 %1, 1
  call spir_func void @op() #0
  switch i32 %6, label %7 [
    i32 0, label %then
  ]

7:                                                ; preds = %5
  ret void
}

define spir_func i32 @f(i32 %x) {
  %1 = add i32 %x, 1
  ret i32 %1
}

attributes #0 = { convergent nounwind }
attributes #1 = { convergent nounwind "uniform-work-group-size"="true" }
