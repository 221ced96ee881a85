#!/usr/bin/env bash
# Table: `convcheck uniformity` on LLVM's own UniformityAnalysis tests
# (llvm/test/Analysis/UniformityAnalysis/; issue 23, docs/src/uniformity.md
# "LLVM's own tests", examples/uniformity-tests/README.md).
#
# Usage: scripts/uniformity-tests.sh DIR [CONVCHECK [OPT]]
#
# DIR holds the files under their paths below UniformityAnalysis/
# (AMDGPU/phi_div_branch.ll, ...); every file of
# examples/uniformity-tests/manifest.tsv is examined, in its order, after
# checking its SHA-256. One row per (file, function):
#
#   file  function  llvm_uniform  findings  undecided  imprecise  not_examined
#
# llvm_uniform: values and branches opt calls uniform; findings: those the
# model shows divergent, as `%value (class)`; undecided: values the solver
# did not decide within the time budget (depends on the machine's speed);
# imprecise: values opt calls divergent that the model shows uniform
# within the bounds; not_examined: values skipped, or why the function was
# not examined. A file opt or convcheck refuses is one row with function
# `-` and the first two lines of the message. The last lines are the totals.
#
# CONVCHECK defaults to target/debug/convcheck, OPT to opt-19; the time
# budget per file is $UA_TIMEOUT seconds (default 60). Needs bash, jq,
# sha256sum.
set -u

dir=${1:?usage: $0 DIR [CONVCHECK [OPT]]}
here=$(cd "$(dirname "$0")/.." && pwd)
convcheck=${2:-$here/target/debug/convcheck}
opt=${3:-opt-19}
timeout=${UA_TIMEOUT:-60}
manifest=$here/examples/uniformity-tests/manifest.tsv
work=$(mktemp -d "${TMPDIR:-/tmp}/uniformity-tests.XXXXXX")
trap 'rm -rf "$work"' EXIT

for tool in jq sha256sum "$opt" "$convcheck"; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "$0: \`$tool\` not found" >&2
        exit 2
    fi
done

printf 'file\tfunction\tllvm_uniform\tfindings\tundecided\timprecise\tnot_examined\n'
tail -n +2 "$manifest" | while IFS=$'\t' read -r file _commit _bytes sum; do
    [ -n "$file" ] || continue
    in=$dir/$file
    if [ "$(sha256sum "$in" 2>/dev/null | cut -d' ' -f1)" != "$sum" ]; then
        printf '%s\t-\t-\t-\t-\t-\tmissing, or not the file of the manifest\n' "$file"
        continue
    fi
    "$convcheck" uniformity "$in" --opt-bin "$opt" --timeout "$timeout" --format json \
        >"$work/out.json" 2>"$work/err.txt"
    if ! jq -e .functions "$work/out.json" >/dev/null 2>&1; then
        msg=$(jq -r '.error // empty' "$work/out.json" "$work/err.txt" 2>/dev/null | head -n 2)
        [ -n "$msg" ] || msg=$(head -n 1 "$work/err.txt")
        msg=$(printf '%s' "$msg" | sed "s|$dir/||g" | tr '\t\n' '  ' | cut -c1-240)
        printf '%s\t-\t-\t-\t-\t-\trefused: %s\n' "$file" "$msg"
        continue
    fi
    jq -r --arg f "$file" '
        .functions[]
        | [ $f, .name, (.llvm_uniform | tostring),
            ([ .findings[] | "\(.value) (\(.class))" ] | join(", ")),
            (.unknown | length | tostring),
            (.imprecise | length | tostring),
            ( if .reason then .reason
              elif (.skipped | length) > 0
              then "\(.skipped | length) skipped: \(.skipped[0].reason)"
              else "" end
              | gsub("[\t\n]"; " ") | .[0:120] ) ]
        | @tsv' "$work/out.json"
done | tee "$work/rows"

awk -F'\t' '
    $2 == "-" { refused++; next }
    {
        functions++
        uniform += $3
        if ($4 != "") { n = split($4, a, ", "); findings += n; with++ }
        undecided += $5
        imprecise += $6
        if ($7 != "") partial++
    }
    END {
        printf "\nfunctions: %d (plus %d files refused or missing)\n", functions, refused
        printf "uniform claims: %d, findings: %d in %d functions, undecided: %d, imprecise: %d, functions not fully examined: %d\n",
            uniform, findings, with, undecided, imprecise, partial
    }' "$work/rows"
