#!/usr/bin/env bash
# The measurement issue 24 asks for, on a machine with an NVIDIA GPU and its
# driver (libcuda.so) plus llc-19 (apt-get install -y llvm-19): seed 000's
# examples through `convcheck gpu` at ptxas -O0 and -O3, with and without
# `opt -O2` first, and `convcheck fuzz --gpu --count 200`, each recorded
# under OUT so that `convcheck gpu --replay` and `fuzz --gpu --replay` can
# compare them again later without a GPU (docs/src/hardware.md).
#
# Usage: scripts/gpu-measure.sh [OUT]   (default OUT: target/gpu-measure)
# It stops at the first command that fails for a reason other than a merge
# (exit 1 means the hardware merged what the model separates: a finding),
# unless KEEP_GOING=1 (then every command runs and the failures are counted).
# CONVCHECK_BIN names the binary (default target/release/convcheck, built
# when missing).
set -uo pipefail
cd "$(dirname "$0")/.."
out="${1:-target/gpu-measure}"
mkdir -p "$out"
bin="${CONVCHECK_BIN:-target/release/convcheck}"
[ -x "$bin" ] || cargo build --release -p convcheck || exit 2
failures=0
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | tee "$out/device.txt"

run() {
  echo "== convcheck $*"
  "$bin" "$@"
  local code=$?
  if [ "$code" -ne 0 ] && [ "$code" -ne 1 ]; then
    if [ "${KEEP_GOING:-0}" = 1 ]; then
      echo "failed: convcheck $* exited $code" >&2
      failures=$((failures + 1))
    else
      echo "stopped: convcheck $* exited $code" >&2
      exit "$code"
    fi
  fi
}

for f in examples/seed/*.c; do
  name=$(basename "$f" .c)
  for fn in $(grep -oE '^void [A-Za-z_0-9]+' "$f" | cut -d' ' -f2); do
    for p in 0 3; do
      run gpu "$f" --function "$fn" --ptxas-opt "$p" --scenarios 8 \
        --record "$out/seed/$name.$fn.ll-O0.ptxas-O$p" > "$out/seed-$name.$fn.ptxas-O$p.txt"
    done
    run gpu "$f" --function "$fn" --opt O2 --ptxas-opt 3 --scenarios 8 \
      --record "$out/seed/$name.$fn.O2.ptxas-O3" > "$out/seed-$name.$fn.O2.txt"
  done
done
run fuzz --gpu --count 200 --seed 1 --out "$out/fuzz" > "$out/fuzz.txt"
run fuzz --gpu --replay "$out/fuzz" > "$out/fuzz-replay.txt"
tail -n 20 "$out"/fuzz.txt
echo "results in $out ($failures commands failed)"
