; ModuleID = 'plain.c'
source_filename = "plain.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@shared_buf = dso_local local_unnamed_addr global [64 x i32] zeroinitializer, align 16, !dbg !0

; Function Attrs: nounwind uwtable
define dso_local void @if_then_else(i32 noundef %0) local_unnamed_addr #0 !dbg !20 {
    #dbg_value(i32 %0, !24, !DIExpression(), !25)
  %2 = icmp slt i32 %0, 2, !dbg !26
  br i1 %2, label %3, label %4, !dbg !28

3:                                                ; preds = %1
  tail call void @op() #4, !dbg !29
  br label %5, !dbg !31

4:                                                ; preds = %1
  tail call void @op() #4, !dbg !32
  br label %5

5:                                                ; preds = %4, %3
  tail call void @op() #4, !dbg !34
  ret void, !dbg !35
}

; Function Attrs: convergent
declare !dbg !36 void @op() local_unnamed_addr #1

; Function Attrs: nounwind uwtable
define dso_local void @loop_with_break(i32 noundef %0) local_unnamed_addr #0 !dbg !39 {
    #dbg_value(i32 %0, !41, !DIExpression(), !44)
    #dbg_value(i32 0, !42, !DIExpression(), !45)
  %2 = icmp sgt i32 %0, 0, !dbg !46
  br i1 %2, label %3, label %10, !dbg !48

3:                                                ; preds = %1, %7
  %4 = phi i32 [ %8, %7 ], [ 0, %1 ]
    #dbg_value(i32 %4, !42, !DIExpression(), !45)
  %5 = tail call i32 @c() #5, !dbg !49
  %6 = icmp eq i32 %5, 0, !dbg !49
  br i1 %6, label %7, label %10, !dbg !52

7:                                                ; preds = %3
  tail call void @op() #4, !dbg !53
  %8 = add nuw nsw i32 %4, 1, !dbg !54
    #dbg_value(i32 %8, !42, !DIExpression(), !45)
  %9 = icmp eq i32 %8, %0, !dbg !46
  br i1 %9, label %10, label %3, !dbg !48, !llvm.loop !55

10:                                               ; preds = %7, %3, %1
  tail call void @op() #4, !dbg !59
  ret void, !dbg !60
}

declare !dbg !61 i32 @c() local_unnamed_addr #2

; Function Attrs: nounwind uwtable
define dso_local i32 @switch_fallthrough(i32 noundef %0) local_unnamed_addr #0 !dbg !64 {
    #dbg_value(i32 %0, !68, !DIExpression(), !70)
    #dbg_value(i32 0, !69, !DIExpression(), !70)
  switch i32 %0, label %4 [
    i32 0, label %2
    i32 1, label %6
    i32 7, label %3
  ], !dbg !71

2:                                                ; preds = %1
  tail call void @op() #4, !dbg !72
    #dbg_value(i32 1, !69, !DIExpression(), !70)
  br label %6, !dbg !74

3:                                                ; preds = %1
  tail call void @op() #4, !dbg !75
  br label %6, !dbg !76

4:                                                ; preds = %1
  %5 = mul nsw i32 %0, 3, !dbg !77
    #dbg_value(i32 %5, !69, !DIExpression(), !70)
  br label %6, !dbg !78

6:                                                ; preds = %4, %1, %2, %3
  %7 = phi i32 [ -1, %3 ], [ %5, %4 ], [ 2, %1 ], [ 3, %2 ], !dbg !70
  ret i32 %7, !dbg !79
}

; Function Attrs: nounwind uwtable
define dso_local void @goto_cycle() local_unnamed_addr #0 !dbg !80 {
  br label %1, !dbg !83

1:                                                ; preds = %1, %0
    #dbg_label(!82, !84)
  tail call void @op() #4, !dbg !85
  %2 = tail call i32 @c() #5, !dbg !86
  %3 = icmp eq i32 %2, 0, !dbg !86
  br i1 %3, label %4, label %1, !dbg !88

4:                                                ; preds = %1
  tail call void @op() #4, !dbg !89
  ret void, !dbg !90
}

; Function Attrs: nounwind uwtable
define dso_local i32 @arith(i32 noundef %0, i32 noundef %1, i64 noundef %2) local_unnamed_addr #0 !dbg !91 {
    #dbg_value(i32 %0, !96, !DIExpression(), !104)
    #dbg_value(i32 %1, !97, !DIExpression(), !104)
    #dbg_value(i64 %2, !98, !DIExpression(), !104)
  %4 = shl i32 %0, 3, !dbg !105
  %5 = lshr i32 %1, 2, !dbg !106
  %6 = xor i32 %5, %4, !dbg !107
    #dbg_value(i32 %6, !99, !DIExpression(), !104)
  %7 = udiv i32 %1, 3, !dbg !108
  %8 = urem i32 %1, 5, !dbg !109
  %9 = add nuw nsw i32 %7, %8, !dbg !110
    #dbg_value(i32 %9, !100, !DIExpression(), !104)
  %10 = zext i32 %0 to i64, !dbg !111
  %11 = mul nuw nsw i64 %10, 65529, !dbg !112
  %12 = add i64 %11, %2, !dbg !113
    #dbg_value(!DIArgList(i64 %10, i64 %2), !101, !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_constu, 65529, DW_OP_mul, DW_OP_LLVM_arg, 1, DW_OP_plus, DW_OP_stack_value), !104)
  %13 = trunc i64 %12 to i32, !dbg !114
    #dbg_value(i64 %12, !102, !DIExpression(DW_OP_LLVM_convert, 64, DW_ATE_unsigned, DW_OP_LLVM_convert, 16, DW_ATE_unsigned, DW_OP_stack_value), !104)
  %14 = tail call i32 @c() #5, !dbg !115
  %15 = icmp eq i32 %14, 0, !dbg !115
  %16 = select i1 %15, i32 %9, i32 %6, !dbg !115
    #dbg_value(i32 %16, !103, !DIExpression(), !104)
  %17 = shl i32 %13, 16, !dbg !116
  %18 = ashr exact i32 %17, 16, !dbg !116
  %19 = add nsw i32 %16, %18, !dbg !117
  %20 = and i32 %0, 63, !dbg !118
  %21 = zext nneg i32 %20 to i64, !dbg !119
  %22 = getelementptr inbounds [64 x i32], ptr @shared_buf, i64 0, i64 %21, !dbg !119
  store i32 %19, ptr %22, align 4, !dbg !120, !tbaa !121
  %23 = add nsw i32 %0, 1, !dbg !125
  %24 = and i32 %23, 63, !dbg !126
  %25 = zext nneg i32 %24 to i64, !dbg !127
  %26 = getelementptr inbounds [64 x i32], ptr @shared_buf, i64 0, i64 %25, !dbg !127
  %27 = load i32, ptr %26, align 4, !dbg !127, !tbaa !121
  %28 = icmp sgt i32 %0, 0, !dbg !128
  %29 = icmp ne i32 %1, 0, !dbg !129
  %30 = and i1 %28, %29, !dbg !129
  %31 = zext i1 %30 to i32, !dbg !129
  %32 = add nsw i32 %27, %31, !dbg !130
  ret i32 %32, !dbg !131
}

; Function Attrs: nounwind uwtable
define dso_local void @nested_loops(i32 noundef %0, i32 noundef %1) local_unnamed_addr #0 !dbg !132 {
    #dbg_value(i32 %0, !136, !DIExpression(), !141)
    #dbg_value(i32 %1, !137, !DIExpression(), !141)
    #dbg_value(i32 0, !138, !DIExpression(), !141)
  %3 = icmp sgt i32 %0, 0, !dbg !142
  br i1 %3, label %4, label %19, !dbg !143

4:                                                ; preds = %2
  %5 = tail call i32 @llvm.smax.i32(i32 %1, i32 1), !dbg !143
  %6 = add nsw i32 %5, -1, !dbg !143
  br label %7, !dbg !143

7:                                                ; preds = %4, %16
  %8 = phi i32 [ %17, %16 ], [ 0, %4 ]
    #dbg_value(i32 %8, !138, !DIExpression(), !141)
  br label %9, !dbg !144

9:                                                ; preds = %7, %12
  %10 = phi i32 [ %13, %12 ], [ 0, %7 ], !dbg !145
    #dbg_value(i32 %10, !139, !DIExpression(), !145)
  tail call void @op() #4, !dbg !146
    #dbg_value(i32 %10, !139, !DIExpression(DW_OP_plus_uconst, 1, DW_OP_stack_value), !145)
  %11 = icmp eq i32 %10, %6, !dbg !148
  br i1 %11, label %16, label %12, !dbg !149

12:                                               ; preds = %9
  %13 = add nuw nsw i32 %10, 1, !dbg !150
    #dbg_value(i32 %13, !139, !DIExpression(), !145)
  %14 = tail call i32 @c() #5, !dbg !151
  %15 = icmp eq i32 %14, 0, !dbg !152
  br i1 %15, label %9, label %16, !dbg !153, !llvm.loop !154

16:                                               ; preds = %9, %12
  %17 = add nuw nsw i32 %8, 1, !dbg !156
    #dbg_value(i32 %17, !138, !DIExpression(), !141)
  %18 = icmp eq i32 %17, %0, !dbg !142
  br i1 %18, label %19, label %7, !dbg !143, !llvm.loop !157

19:                                               ; preds = %16, %2
  ret void, !dbg !159
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.smax.i32(i32, i32) #3

attributes #0 = { nounwind uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { convergent "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #2 = { "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #3 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #4 = { convergent nounwind }
attributes #5 = { nounwind }

!llvm.dbg.cu = !{!2}
!llvm.module.flags = !{!12, !13, !14, !15, !16, !17, !18}
!llvm.ident = !{!19}

!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())
!1 = distinct !DIGlobalVariable(name: "shared_buf", scope: !2, file: !3, line: 7, type: !9, isLocal: false, isDefinition: true)
!2 = distinct !DICompileUnit(language: DW_LANG_C11, file: !3, producer: "Debian clang version 19.1.7 (3~deb12u1)", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, retainedTypes: !4, globals: !8, splitDebugInlining: false, nameTableKind: None)
!3 = !DIFile(filename: "plain.c", directory: "/work/main/model/llvm/tests/data", checksumkind: CSK_MD5, checksum: "c28a8dac71f542a21c114062c2b97fcf")
!4 = !{!5, !6, !7}
!5 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!6 = !DIBasicType(name: "long long", size: 64, encoding: DW_ATE_signed)
!7 = !DIBasicType(name: "short", size: 16, encoding: DW_ATE_signed)
!8 = !{!0}
!9 = !DICompositeType(tag: DW_TAG_array_type, baseType: !5, size: 2048, elements: !10)
!10 = !{!11}
!11 = !DISubrange(count: 64)
!12 = !{i32 7, !"Dwarf Version", i32 5}
!13 = !{i32 2, !"Debug Info Version", i32 3}
!14 = !{i32 1, !"wchar_size", i32 4}
!15 = !{i32 8, !"PIC Level", i32 2}
!16 = !{i32 7, !"PIE Level", i32 2}
!17 = !{i32 7, !"uwtable", i32 2}
!18 = !{i32 7, !"debug-info-assignment-tracking", i1 true}
!19 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!20 = distinct !DISubprogram(name: "if_then_else", scope: !3, file: !3, line: 9, type: !21, scopeLine: 9, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !2, retainedNodes: !23)
!21 = !DISubroutineType(types: !22)
!22 = !{null, !5}
!23 = !{!24}
!24 = !DILocalVariable(name: "tid", arg: 1, scope: !20, file: !3, line: 9, type: !5)
!25 = !DILocation(line: 0, scope: !20)
!26 = !DILocation(line: 10, column: 11, scope: !27)
!27 = distinct !DILexicalBlock(scope: !20, file: !3, line: 10, column: 7)
!28 = !DILocation(line: 10, column: 7, scope: !20)
!29 = !DILocation(line: 11, column: 5, scope: !30)
!30 = distinct !DILexicalBlock(scope: !27, file: !3, line: 10, column: 16)
!31 = !DILocation(line: 12, column: 3, scope: !30)
!32 = !DILocation(line: 13, column: 5, scope: !33)
!33 = distinct !DILexicalBlock(scope: !27, file: !3, line: 12, column: 10)
!34 = !DILocation(line: 15, column: 3, scope: !20)
!35 = !DILocation(line: 16, column: 1, scope: !20)
!36 = !DISubprogram(name: "op", scope: !3, file: !3, line: 4, type: !37, flags: DIFlagPrototyped, spFlags: DISPFlagOptimized)
!37 = !DISubroutineType(types: !38)
!38 = !{null}
!39 = distinct !DISubprogram(name: "loop_with_break", scope: !3, file: !3, line: 18, type: !21, scopeLine: 18, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !2, retainedNodes: !40)
!40 = !{!41, !42}
!41 = !DILocalVariable(name: "n", arg: 1, scope: !39, file: !3, line: 18, type: !5)
!42 = !DILocalVariable(name: "i", scope: !43, file: !3, line: 19, type: !5)
!43 = distinct !DILexicalBlock(scope: !39, file: !3, line: 19, column: 3)
!44 = !DILocation(line: 0, scope: !39)
!45 = !DILocation(line: 0, scope: !43)
!46 = !DILocation(line: 19, column: 21, scope: !47)
!47 = distinct !DILexicalBlock(scope: !43, file: !3, line: 19, column: 3)
!48 = !DILocation(line: 19, column: 3, scope: !43)
!49 = !DILocation(line: 20, column: 9, scope: !50)
!50 = distinct !DILexicalBlock(scope: !51, file: !3, line: 20, column: 9)
!51 = distinct !DILexicalBlock(scope: !47, file: !3, line: 19, column: 31)
!52 = !DILocation(line: 20, column: 9, scope: !51)
!53 = !DILocation(line: 22, column: 5, scope: !51)
!54 = !DILocation(line: 19, column: 27, scope: !47)
!55 = distinct !{!55, !48, !56, !57, !58}
!56 = !DILocation(line: 23, column: 3, scope: !43)
!57 = !{!"llvm.loop.mustprogress"}
!58 = !{!"llvm.loop.unroll.disable"}
!59 = !DILocation(line: 24, column: 3, scope: !39)
!60 = !DILocation(line: 25, column: 1, scope: !39)
!61 = !DISubprogram(name: "c", scope: !3, file: !3, line: 5, type: !62, flags: DIFlagPrototyped, spFlags: DISPFlagOptimized)
!62 = !DISubroutineType(types: !63)
!63 = !{!5}
!64 = distinct !DISubprogram(name: "switch_fallthrough", scope: !3, file: !3, line: 27, type: !65, scopeLine: 27, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !2, retainedNodes: !67)
!65 = !DISubroutineType(types: !66)
!66 = !{!5, !5}
!67 = !{!68, !69}
!68 = !DILocalVariable(name: "v", arg: 1, scope: !64, file: !3, line: 27, type: !5)
!69 = !DILocalVariable(name: "acc", scope: !64, file: !3, line: 28, type: !5)
!70 = !DILocation(line: 0, scope: !64)
!71 = !DILocation(line: 29, column: 3, scope: !64)
!72 = !DILocation(line: 31, column: 5, scope: !73)
!73 = distinct !DILexicalBlock(scope: !64, file: !3, line: 29, column: 14)
!74 = !DILocation(line: 32, column: 5, scope: !73)
!75 = !DILocation(line: 37, column: 5, scope: !73)
!76 = !DILocation(line: 38, column: 5, scope: !73)
!77 = !DILocation(line: 40, column: 13, scope: !73)
!78 = !DILocation(line: 41, column: 3, scope: !73)
!79 = !DILocation(line: 43, column: 1, scope: !64)
!80 = distinct !DISubprogram(name: "goto_cycle", scope: !3, file: !3, line: 45, type: !37, scopeLine: 45, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !2, retainedNodes: !81)
!81 = !{!82}
!82 = !DILabel(scope: !80, name: "again", file: !3, line: 46)
!83 = !DILocation(line: 45, column: 23, scope: !80)
!84 = !DILocation(line: 46, column: 1, scope: !80)
!85 = !DILocation(line: 47, column: 3, scope: !80)
!86 = !DILocation(line: 48, column: 7, scope: !87)
!87 = distinct !DILexicalBlock(scope: !80, file: !3, line: 48, column: 7)
!88 = !DILocation(line: 48, column: 7, scope: !80)
!89 = !DILocation(line: 50, column: 3, scope: !80)
!90 = !DILocation(line: 51, column: 1, scope: !80)
!91 = distinct !DISubprogram(name: "arith", scope: !3, file: !3, line: 53, type: !92, scopeLine: 53, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !2, retainedNodes: !95)
!92 = !DISubroutineType(types: !93)
!93 = !{!5, !5, !94, !6}
!94 = !DIBasicType(name: "unsigned int", size: 32, encoding: DW_ATE_unsigned)
!95 = !{!96, !97, !98, !99, !100, !101, !102, !103}
!96 = !DILocalVariable(name: "a", arg: 1, scope: !91, file: !3, line: 53, type: !5)
!97 = !DILocalVariable(name: "b", arg: 2, scope: !91, file: !3, line: 53, type: !94)
!98 = !DILocalVariable(name: "w", arg: 3, scope: !91, file: !3, line: 53, type: !6)
!99 = !DILocalVariable(name: "x", scope: !91, file: !3, line: 54, type: !5)
!100 = !DILocalVariable(name: "y", scope: !91, file: !3, line: 55, type: !94)
!101 = !DILocalVariable(name: "z", scope: !91, file: !3, line: 56, type: !6)
!102 = !DILocalVariable(name: "s", scope: !91, file: !3, line: 57, type: !7)
!103 = !DILocalVariable(name: "r", scope: !91, file: !3, line: 58, type: !5)
!104 = !DILocation(line: 0, scope: !91)
!105 = !DILocation(line: 54, column: 14, scope: !91)
!106 = !DILocation(line: 54, column: 30, scope: !91)
!107 = !DILocation(line: 54, column: 20, scope: !91)
!108 = !DILocation(line: 55, column: 18, scope: !91)
!109 = !DILocation(line: 55, column: 27, scope: !91)
!110 = !DILocation(line: 55, column: 23, scope: !91)
!111 = !DILocation(line: 56, column: 21, scope: !91)
!112 = !DILocation(line: 56, column: 34, scope: !91)
!113 = !DILocation(line: 56, column: 19, scope: !91)
!114 = !DILocation(line: 57, column: 13, scope: !91)
!115 = !DILocation(line: 58, column: 11, scope: !91)
!116 = !DILocation(line: 59, column: 28, scope: !91)
!117 = !DILocation(line: 59, column: 26, scope: !91)
!118 = !DILocation(line: 59, column: 16, scope: !91)
!119 = !DILocation(line: 59, column: 3, scope: !91)
!120 = !DILocation(line: 59, column: 22, scope: !91)
!121 = !{!122, !122, i64 0}
!122 = !{!"int", !123, i64 0}
!123 = !{!"omnipotent char", !124, i64 0}
!124 = !{!"Simple C/C++ TBAA"}
!125 = !DILocation(line: 60, column: 24, scope: !91)
!126 = !DILocation(line: 60, column: 29, scope: !91)
!127 = !DILocation(line: 60, column: 10, scope: !91)
!128 = !DILocation(line: 60, column: 40, scope: !91)
!129 = !DILocation(line: 60, column: 44, scope: !91)
!130 = !DILocation(line: 60, column: 35, scope: !91)
!131 = !DILocation(line: 60, column: 3, scope: !91)
!132 = distinct !DISubprogram(name: "nested_loops", scope: !3, file: !3, line: 63, type: !133, scopeLine: 63, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !2, retainedNodes: !135)
!133 = !DISubroutineType(types: !134)
!134 = !{null, !5, !5}
!135 = !{!136, !137, !138, !139}
!136 = !DILocalVariable(name: "n", arg: 1, scope: !132, file: !3, line: 63, type: !5)
!137 = !DILocalVariable(name: "m", arg: 2, scope: !132, file: !3, line: 63, type: !5)
!138 = !DILocalVariable(name: "i", scope: !132, file: !3, line: 64, type: !5)
!139 = !DILocalVariable(name: "j", scope: !140, file: !3, line: 66, type: !5)
!140 = distinct !DILexicalBlock(scope: !132, file: !3, line: 65, column: 17)
!141 = !DILocation(line: 0, scope: !132)
!142 = !DILocation(line: 65, column: 12, scope: !132)
!143 = !DILocation(line: 65, column: 3, scope: !132)
!144 = !DILocation(line: 67, column: 5, scope: !140)
!145 = !DILocation(line: 0, scope: !140)
!146 = !DILocation(line: 68, column: 7, scope: !147)
!147 = distinct !DILexicalBlock(scope: !140, file: !3, line: 67, column: 8)
!148 = !DILocation(line: 70, column: 16, scope: !140)
!149 = !DILocation(line: 70, column: 20, scope: !140)
!150 = !DILocation(line: 69, column: 8, scope: !147)
!151 = !DILocation(line: 70, column: 24, scope: !140)
!152 = !DILocation(line: 70, column: 23, scope: !140)
!153 = !DILocation(line: 70, column: 5, scope: !147)
!154 = distinct !{!154, !144, !155, !57, !58}
!155 = !DILocation(line: 70, column: 27, scope: !140)
!156 = !DILocation(line: 71, column: 6, scope: !140)
!157 = distinct !{!157, !143, !158, !57, !58}
!158 = !DILocation(line: 72, column: 3, scope: !132)
!159 = !DILocation(line: 73, column: 1, scope: !132)
