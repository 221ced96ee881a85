// The nested find-tid loop in the kernel language (llvm/llvm-project
// #164496 and #165642 have it in HLSL): each thread calls op() in its own
// iteration of the outer loop. Lowered with --tokens, op() is controlled by
// the inner loop's heart; opt-19 -O2 moves the outer loop's heart into the
// entry block after the entry intrinsic (GVN), which LLVM's verifier
// rejects (docs/src/findings.md).
void find_tid2() {
  for (int i = 0; i < 8; i++) {
    for (int j = 0; j < 8; j++) {
      if (i == tid && j == 0) {
        op();
        break;
      }
    }
  }
}
