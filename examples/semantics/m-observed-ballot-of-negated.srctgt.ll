; CLASS: m
; EXPECT: violated
; EXPECT-MESSAGE: __ballot_sync
; EXPECT-explicit: inconclusive
; The target votes `0 - %x` where the reference votes `%x`: the same
; value at 0 (the one value the explicit engine's domain gives a
; parameter nothing compares) and at 2^31, different everywhere else. An
; argument of a convergent operation is observed, so `x`'s domain is
; inexact: inconclusive under the explicit engine alone (it answered
; preserved before), violated by the product.
target triple = "nvptx64-nvidia-cuda"
declare i32 @__ballot_sync(i32, i32) convergent

define void @src(i32 %x) {
entry:
  %b = call i32 @__ballot_sync(i32 -1, i32 %x)
  ret void
}

define void @tgt(i32 %x) {
entry:
  %n = sub i32 0, %x
  %b = call i32 @__ballot_sync(i32 -1, i32 %n)
  ret void
}
