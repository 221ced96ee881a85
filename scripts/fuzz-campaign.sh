#!/usr/bin/env bash
# The fuzz campaign of issue 25 (docs/src/findings.md, section 14): each row
# of RUNS below is `convcheck fuzz --opt PIPELINE` on one opt binary with one
# generator preset of examples/fuzz/, run as two shards side by side under
# `nice` (one per core), each shard's JSON kept under OUT/NAME.shardI.json
# and its cases under OUT/NAME.shardI/. Then one line per row: programs,
# seconds (the longer shard), violations, distinct findings after merging
# the shards by key (blamed pass, property, loop nest), inconclusive programs,
# tool failures; and the distinct findings of every row with their first
# case's folder, to be read one by one.
#
# Usage: scripts/fuzz-campaign.sh [OUT] [COUNT]   (defaults:
# target/fuzz-campaign, 50 programs per shard). CONVCHECK_BIN names the
# binary (default target/release/convcheck). ONLY=NAME runs one row.
set -uo pipefail
cd "$(dirname "$0")/.."
out="${1:-target/fuzz-campaign}"
count="${2:-50}"
bin="${CONVCHECK_BIN:-target/release/convcheck}"
mkdir -p "$out"
pre='sroa,simplifycfg<keep-loops>,instcombine,loop(loop-rotate)'
nv='--opt-arg=-mtriple=nvptx64-nvidia-cuda'
# NAME | opt binary | pipeline | preset | extra arguments
RUNS=(
  "o3-nests-22|opt-22|default<O3>|loop-nests|$nv"
  "o3-tid-22|opt-22|default<O3>|tid-counted|$nv --max-iters 2"
  "o3-switch-22|opt-22|default<O3>|switchy|$nv"
  "o3-mem-22|opt-22|default<O3>|shared-memory|$nv"
  "o3-diam-22|opt-22|default<O3>|diamonds|$nv"
  "unroll-tid-22|opt-22|$pre,loop-unroll|tid-counted|--max-iters 2"
  "irce-tid-22|opt-22|$pre,irce|tid-counted|--max-iters 2"
  "licm-nests-22|opt-22|sroa,simplifycfg<keep-loops>,loop-mssa(loop-rotate,licm)|loop-nests|"
  "unswitch-nests-22|opt-22|sroa,simplifycfg<keep-loops>,loop-mssa(loop-rotate),loop-mssa(simple-loop-unswitch<nontrivial>)|loop-nests|"
  "scfg-switch-22|opt-22|sroa,simplifycfg|switchy|"
  "gvnsink-diam-22|opt-22|sroa,simplifycfg<keep-loops>,gvn-sink|diamonds|"
  "flatten-tid-22|opt-22|$pre,loop(loop-flatten)|tid-counted|--max-iters 2"
  "o3-tidtests-22|opt-22|default<O3>|tid-counted-tests|$nv --max-iters 2"
  "o3-nests-19|opt-19|default<O3>|loop-nests|$nv"
  "o3-tid-19|opt-19|default<O3>|tid-counted|$nv --max-iters 2"
  "unroll-tid-19|opt-19|$pre,loop-unroll|tid-counted|--max-iters 2"
)
for row in "${RUNS[@]}"; do
  IFS='|' read -r name optbin pipeline preset extra <<<"$row"
  [ -n "${ONLY:-}" ] && [ "$ONLY" != "$name" ] && continue
  for s in 0 1; do
    # shellcheck disable=SC2086
    ( start=$(date +%s.%N)
      nice "$bin" fuzz --opt "$pipeline" --opt-bin "$optbin" \
        --gen-config "examples/fuzz/$preset.toml" $extra --seed 25 \
        --count "$count" --shard "$s/2" --out "$out/$name.shard$s" \
        --format json >"$out/$name.shard$s.json" 2>"$out/$name.shard$s.err"
      awk -v a="$(date +%s.%N)" -v b="$start" 'BEGIN { printf "%.1f\n", a - b }' >"$out/$name.shard$s.secs" ) &
  done
  wait
done
printf '%-18s %8s %8s %10s %8s %12s %8s\n' run programs seconds violations distinct inconclusive failures
for row in "${RUNS[@]}"; do
  IFS='|' read -r name _ <<<"$row"
  [ -f "$out/$name.shard0.json" ] || continue
  jq -s --arg name "$name" --argjson secs "$(sort -n "$out/$name".shard*.secs | tail -1)" -r '
    [ $name, (map(.programs) | add), ($secs | floor),
      (map(.violations | length) | add),
      (map(.distinct_findings[]) | group_by([.pass, .property, .nest]) | length),
      (map(.inconclusive) | add), (map(.tool_failures) | add) ] | @tsv' \
    "$out/$name".shard*.json
done | awk -F'\t' '{ printf "%-18s %8s %8s %10s %8s %12s %8s\n", $1, $2, $3, $4, $5, $6, $7 }'
echo
echo "distinct findings (merged over shards):"
for row in "${RUNS[@]}"; do
  IFS='|' read -r name _ <<<"$row"
  [ -f "$out/$name.shard0.json" ] || continue
  jq -s --arg name "$name" -r '
    [ to_entries[] | .key as $s | .value.distinct_findings[] | . + {shard: $s} ]
    | group_by([.pass, .property, .nest])[]
    | "\($name)\t\(.[0].pass)\t\(.[0].property)\t\(.[0].nest)\t\(map(.count) | add) violations\tfirst: program \(map(.first_program) | min)\tshapes: \([.[].shapes[]] | unique | join(" | "))"' \
    "$out/$name".shard*.json
done
