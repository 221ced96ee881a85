#!/usr/bin/env bash
# Smoke test of the fuzz build that ClusterFuzzLite runs: builds every
# cargo-fuzz target with .clusterfuzzlite/build.sh into a temporary OUT, on
# the stable toolchain (no sanitizer), then runs each target for a few
# seconds. Exits non-zero if the build fails or a target crashes.
#
#   bash fuzz/ci-smoke.sh            # 5 seconds per target
#   FUZZ_SECONDS=60 bash fuzz/ci-smoke.sh
#
# Installs cargo-fuzz if it is missing. Crash inputs are kept in
# fuzz/artifacts/<target>/ (ignored by git) to be replayed with
# `cargo fuzz run -s none <target> <file>`.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${FUZZ_SECONDS:-5}"

if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "== cargo install cargo-fuzz --locked"
  cargo install cargo-fuzz --locked
fi

OUT="$(mktemp -d)"
export OUT
trap 'rm -rf "$OUT"' EXIT

echo "== .clusterfuzzlite/build.sh (OUT=$OUT, no sanitizer)"
start=$SECONDS
CARGO_FUZZ_ARGS="--sanitizer none ${CARGO_FUZZ_ARGS:-}" bash .clusterfuzzlite/build.sh
echo "built in $((SECONDS - start)) s"

failed=0
ran=0
for bin in "$OUT"/*; do
  [[ -f "$bin" && -x "$bin" ]] || continue
  target="$(basename "$bin")"
  mkdir -p "$OUT/corpus/$target" "fuzz/artifacts/$target"
  echo "== $target: ${seconds} s"
  if "$bin" -max_total_time="$seconds" -artifact_prefix="fuzz/artifacts/$target/" \
      -print_final_stats=1 "$OUT/corpus/$target" >"$OUT/$target.log" 2>&1; then
    grep -E '^(Done|stat::number_of_executed_units)' "$OUT/$target.log" || true
  else
    echo "$target FAILED; its log:" >&2
    tail -n 40 "$OUT/$target.log" >&2
    failed=$((failed + 1))
  fi
  ran=$((ran + 1))
done

if [[ $ran -eq 0 ]]; then
  echo "fuzz smoke: no fuzz target was built" >&2
  exit 1
fi
echo "fuzz smoke: $((ran - failed)) passed, $failed failed"
[[ $failed -eq 0 ]]
