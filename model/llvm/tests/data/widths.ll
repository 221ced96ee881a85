; Hand-written integer functions of several widths whose results depend on
; the high bits the model does not keep (overflow, signed and unsigned
; views, shifts, division, narrow casts, switch cases, a wrapping loop):
; tests/semantics.rs runs each, mapped to convcheck's IR, on inputs with
; garbage above the type's width, and compares with LLVM's own semantics
; (computed by hand in the test, and by lli-19 when it is installed).
; Checked with opt-19 -passes=verify.
source_filename = "widths.ll"

define i8 @add8(i8 %a, i8 %b) {
  %r = add i8 %a, %b
  ret i8 %r
}

define i8 @mul8(i8 %a, i8 %b) {
  %r = mul nsw i8 %a, %b
  ret i8 %r
}

define i8 @sdiv8(i8 %a, i8 %b) {
  %r = sdiv i8 %a, %b
  ret i8 %r
}

define i8 @srem8(i8 %a, i8 %b) {
  %r = srem i8 %a, %b
  ret i8 %r
}

define i8 @udiv8(i8 %a, i8 %b) {
  %r = udiv i8 %a, %b
  ret i8 %r
}

define i8 @urem8(i8 %a, i8 %b) {
  %r = urem i8 %a, %b
  ret i8 %r
}

define i8 @shl8(i8 %a, i8 %b) {
  %s = and i8 %b, 7
  %r = shl i8 %a, %s
  ret i8 %r
}

define i8 @lshr8(i8 %a, i8 %b) {
  %s = and i8 %b, 7
  %r = lshr i8 %a, %s
  ret i8 %r
}

define i8 @ashr8(i8 %a, i8 %b) {
  %s = and i8 %b, 7
  %r = ashr i8 %a, %s
  ret i8 %r
}

define i8 @cmp8(i8 %a, i8 %b) {
  %lt = icmp slt i8 %a, %b
  %ult = icmp ult i8 %a, %b
  %eq = icmp eq i8 %a, %b
  %sge = icmp sge i8 %a, %b
  %ule = icmp ule i8 %a, %b
  %ne = icmp ne i8 %a, %b
  %sgt = icmp sgt i8 %a, %b
  %uge = icmp uge i8 %a, %b
  %x0 = zext i1 %lt to i8
  %x1 = zext i1 %ult to i8
  %x2 = zext i1 %eq to i8
  %x3 = zext i1 %sge to i8
  %x4 = zext i1 %ule to i8
  %x5 = zext i1 %ne to i8
  %x6 = zext i1 %sgt to i8
  %x7 = zext i1 %uge to i8
  %y1 = shl i8 %x1, 1
  %y2 = shl i8 %x2, 2
  %y3 = shl i8 %x3, 3
  %y4 = shl i8 %x4, 4
  %y5 = shl i8 %x5, 5
  %y6 = shl i8 %x6, 6
  %y7 = shl i8 %x7, 7
  %s1 = or i8 %x0, %y1
  %s2 = or i8 %s1, %y2
  %s3 = or i8 %s2, %y3
  %s4 = or i8 %s3, %y4
  %s5 = or i8 %s4, %y5
  %s6 = or i8 %s5, %y6
  %s7 = or i8 %s6, %y7
  ret i8 %s7
}

define i8 @minmax8(i8 %a, i8 %b) {
  %m = call i8 @llvm.smin.i8(i8 %a, i8 %b)
  %u = call i8 @llvm.umax.i8(i8 %a, i8 %b)
  %x = xor i8 %m, %u
  %abs = call i8 @llvm.abs.i8(i8 %x, i1 false)
  %r = add i8 %abs, %m
  ret i8 %r
}

define i8 @select8(i8 %a, i8 %b) {
  %c = icmp ugt i8 %a, %b
  %r = select i1 %c, i8 %a, i8 %b
  ret i8 %r
}

define i8 @narrow8(i8 %a, i8 %b) {
  %t = trunc i8 %a to i4
  %s = sext i4 %t to i8
  %bit = trunc i8 %b to i1
  %z = zext i1 %bit to i8
  %r = add i8 %s, %z
  ret i8 %r
}

define i8 @switch8(i8 %a, i8 %b) {
entry:
  switch i8 %a, label %other [
    i8 -1, label %minus_one
    i8 0, label %zero
    i8 100, label %hundred
  ]

minus_one:
  ret i8 11

zero:
  ret i8 22

hundred:
  ret i8 33

other:
  %c = icmp slt i8 %b, 0
  br i1 %c, label %neg, label %pos

neg:
  ret i8 44

pos:
  ret i8 55
}

define i8 @loop8(i8 %a, i8 %b) {
entry:
  %n = and i8 %a, 7
  br label %head

head:
  %i = phi i8 [ 0, %entry ], [ %i.next, %body ]
  %acc = phi i8 [ %b, %entry ], [ %acc.next, %body ]
  %done = icmp uge i8 %i, %n
  br i1 %done, label %exit, label %body

body:
  %acc.next = mul i8 %acc, 3
  %i.next = add i8 %i, 1
  br label %head

exit:
  ret i8 %acc
}

define i1 @bits1(i1 %a, i1 %b) {
  %x = xor i1 %a, %b
  %s = add i1 %a, %b
  %lt = icmp slt i1 %a, %b
  %y = or i1 %x, %lt
  %r = and i1 %y, %s
  ret i1 %r
}

define i32 @add32(i32 %a, i32 %b) {
  %r = add nsw i32 %a, %b
  %m = mul i32 %r, 65537
  ret i32 %m
}

define i32 @shifts32(i32 %a, i32 %b) {
  %s = and i32 %b, 31
  %l = lshr i32 %a, %s
  %r = ashr i32 %a, %s
  %x = xor i32 %l, %r
  ret i32 %x
}

define i32 @div32(i32 %a, i32 %b) {
  %q = sdiv i32 %a, %b
  %u = udiv i32 %a, %b
  %x = sub i32 %q, %u
  ret i32 %x
}

define i32 @cmp32(i32 %a, i32 %b) {
  %ult = icmp ult i32 %a, %b
  %slt = icmp slt i32 %a, %b
  %z = zext i1 %ult to i32
  %s = sext i1 %slt to i32
  %r = add i32 %z, %s
  ret i32 %r
}

define i32 @widen32(i32 %a, i32 %b) {
  %wa = sext i32 %a to i64
  %wb = zext i32 %b to i64
  %p = mul i64 %wa, %wb
  %h = lshr i64 %p, 32
  %r = trunc i64 %h to i32
  ret i32 %r
}

define i64 @unsigned64(i64 %a, i64 %b) {
  %c = icmp ult i64 %a, %b
  %q = udiv i64 %a, %b
  %l = lshr i64 %a, 60
  %s = select i1 %c, i64 %q, i64 %l
  ret i64 %s
}

declare i8 @llvm.smin.i8(i8, i8)
declare i8 @llvm.umax.i8(i8, i8)
declare i8 @llvm.abs.i8(i8, i1)
