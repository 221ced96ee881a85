#!/usr/bin/env bash
# Survey: convcheck on LLVM's own tests of convergent operations.
#
# Usage: scripts/llvm-tests-survey.sh [DIR [CONVCHECK [OPT]]]
#
# DIR defaults to $CONVCHECK_LLVM_CONVERGENT_TESTS, else
# ../shared/llvm-tests/Transforms beside the repository. When DIR holds the
# files of examples/llvm-project-tests/manifest.tsv (LLVM's files, not in
# this repository: see the README there), under their manifest names
# (LoopUnroll__convergent.ll) or their paths below llvm/test/Transforms/
# (LoopUnroll/convergent.ll), those files are surveyed, in the manifest's
# order and under their manifest names, each after checking its SHA-256: a
# file missing or not the manifest's is a row with verdict `missing` and
# counted in the totals. When DIR holds none of them, every DIR/*.ll is
# surveyed as it is.
#
# For every file and every RUN line of it that runs `opt`, runs that
# opt pipeline on the file (OUT), then `convcheck check IN OUT --format
# json`, and prints one row per (file, RUN line, function):
#
#   file  run  function  llvm  verdict  reason
#
# llvm says whether LLVM 19 approves its own output: `pass` when the RUN
# line's FileCheck (with its prefixes) accepts OUT, `fail` when it does
# not, `-` when the RUN line has no FileCheck. The totals are given for
# every pair and for the pairs whose test does not fail.
# verdict is preserved / proved / violated / inconclusive / error, or
# opt-error when opt refuses the RUN line (the row's function is `-`).
# Legacy pass flags (`-jump-threading`) become `-passes=jump-threading`;
# FileCheck, `not` and everything after the first `|` are ignored. The
# last lines are the totals: pairs, verdicts (and their share), violated,
# and the inconclusive/error reasons counted by kind.
#
# CONVCHECK defaults to target/debug/convcheck, OPT to opt-19, FileCheck
# to $FILECHECK or /usr/lib/llvm-19/bin/FileCheck or FileCheck (none: the
# llvm column is `-`). Extra
# convcheck options can be given in CONVCHECK_ARGS (e.g. "--max-iters 4").
# Needs bash, jq, sed, awk, sha256sum.
set -u

here=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-${CONVCHECK_LLVM_CONVERGENT_TESTS:-$here/../shared/llvm-tests/Transforms}}
manifest=$here/examples/llvm-project-tests/manifest.tsv
if [ ! -d "$dir" ]; then
    echo "$0: no folder $dir: LLVM's convergent tests are not in this repository;" \
        "examples/llvm-project-tests/README.md says how to get them" >&2
    exit 2
fi
convcheck=${2:-$here/target/debug/convcheck}
opt=${3:-opt-19}
extra=${CONVCHECK_ARGS:-}
filecheck=${FILECHECK:-/usr/lib/llvm-19/bin/FileCheck}
command -v "$filecheck" >/dev/null 2>&1 || filecheck=FileCheck
if ! command -v "$filecheck" >/dev/null 2>&1; then
    echo "$0: no FileCheck (set FILECHECK): the llvm column is \`-\` throughout" >&2
    filecheck=
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/llvm-tests-survey.XXXXXX")
trap 'rm -rf "$work"' EXIT

for tool in jq sha256sum "$opt" "$convcheck"; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "$0: \`$tool\` not found" >&2
        exit 2
    fi
done

# The names opt knows as passes, for translating legacy flags.
"$opt" --print-passes 2>/dev/null | sed -n 's/^  \([a-z0-9-]*\).*/\1/p' | sort -u >"$work/passes"

rows=$work/rows
: >"$rows"

# The RUN lines of a file, continuation lines joined.
run_lines() {
    sed -n 's/^[[:space:]]*;[[:space:]]*RUN:[[:space:]]*//p' "$1" |
        awk '{ if (sub(/\\[[:space:]]*$/, "")) { buf = buf $0 " " } else { print buf $0; buf = "" } }'
}

# The files: NAME<TAB>PATH, or NAME<TAB>- when a manifest file is missing
# or differs.
list=$work/files
: >"$list"
while IFS=$'\t' read -r name path _commit _bytes sum; do
    [ "$name" = file ] && continue
    in=$dir/$name
    [ -e "$in" ] || in=$dir/${path#llvm/test/Transforms/}
    if [ "$(sha256sum "$in" 2>/dev/null | cut -d' ' -f1)" = "$sum" ]; then
        printf '%s\t%s\n' "$name" "$in" >>"$list"
    else
        printf '%s\t-\n' "$name" >>"$list"
    fi
done <"$manifest"
if ! grep -qv $'\t-$' "$list"; then
    echo "$0: $dir holds none of the files of $manifest: surveying $dir/*.ll as they are" >&2
    : >"$list"
    for in in "$dir"/*.ll; do
        [ -e "$in" ] && printf '%s\t%s\n' "$(basename "$in")" "$in" >>"$list"
    done
fi

while IFS=$'\t' read -r base in; do
    if [ "$in" = - ]; then
        printf '%s\t-\t-\t-\tmissing\tmissing, or not the file of the manifest\n' "$base" >>"$rows"
        continue
    fi
    n=0
    while IFS= read -r run; do
        n=$((n + 1))
        cmd=${run%%|*}
        # The FileCheck of the RUN line, if any: its options, %s dropped.
        fc=""
        case $run in
        *"|"*FileCheck*)
            fc=${run#*FileCheck}
            fc=${fc%%|*}
            fc=$(printf '%s\n' "$fc" | sed -e 's/%s//g')
            ;;
        esac
        case " $cmd " in
        *" opt "*) ;;
        *) continue ;;
        esac
        # Everything after the word `opt`, with %s as the input file.
        cmd=$(printf '%s\n' "$cmd" | sed -e 's/^.*[[:space:]]opt[[:space:]]//' -e 's/^opt[[:space:]]//')
        cmd=$(printf '%s\n' "$cmd" | sed -e 's/<[[:space:]]*%s/%s/g' -e 's/%s/@IN@/g' -e 's/2>&1//g')
        # Only words and quoted words: no redirection, substitution or
        # second command outside quotes.
        bare=$(printf '%s\n' "$cmd" | sed -e "s/'[^']*'//g" -e 's/"[^"]*"//g')
        bad=0
        case $bare in *[\<\>\;\&\(\)\\]*) bad=1 ;; esac
        case $cmd in *[\$\`]*) bad=1 ;; esac
        if [ $bad = 1 ]; then
            printf '%s\t%s\t-\t-\topt-error\tRUN line not understood\n' "$base" "$n" >>"$rows"
            continue
        fi
        eval "set -- $cmd" 2>/dev/null || {
            printf '%s\t%s\t-\t-\topt-error\tRUN line not understood\n' "$base" "$n" >>"$rows"
            continue
        }
        args=()
        passes=""
        skip_next=0
        for a in "$@"; do
            if [ $skip_next = 1 ]; then
                skip_next=0
                continue
            fi
            case $a in
            "<" | "@IN@" | -S | -disable-output | -verify | --verify) ;;
            -o) skip_next=1 ;;
            -passes=* | --passes=*) passes=${passes:+$passes,}${a#*=} ;;
            -*=* | --*) args+=("$a") ;;
            -*)
                if grep -qx -- "${a#-}" "$work/passes"; then
                    passes=${passes:+$passes,}${a#-}
                else
                    args+=("$a")
                fi
                ;;
            *) args+=("$a") ;;
            esac
        done
        out=$work/out.ll
        if [ -z "$passes" ]; then
            printf '%s\t%s\t-\t-\topt-error\tno pass pipeline in the RUN line\n' "$base" "$n" >>"$rows"
            continue
        fi
        # (In a subshell that outlives opt, so that an abort of opt is
        # reported in the row, not by the shell.)
        if ! (
            "$opt" -S "-passes=$passes" "${args[@]}" "$in" -o "$out" 2>"$work/opt.err"
            rc=$?
            exit $rc
        ) 2>/dev/null; then
            msg=$(head -n 1 "$work/opt.err" | tr '\t' ' ' | cut -c1-120)
            # Not a pair (opt printed nothing), but what convcheck says of
            # the module opt's verifier refused is worth a note.
            if (
                "$opt" -S "-passes=$passes" "${args[@]}" -disable-verify "$in" -o "$out" 2>/dev/null
                rc=$?
                exit $rc
            ) 2>/dev/null; then
                # shellcheck disable=SC2086
                "$convcheck" check "$in" "$out" --format json $extra >"$work/out.json" 2>/dev/null
                v=$(jq -r '[(if has("functions") then .functions[] else . end) | select(.verdict == "violated") | .function] | join(",")' "$work/out.json" 2>/dev/null)
                [ -n "$v" ] && msg="$msg (convcheck on the unverified output: @$v violated)"
            fi
            printf '%s\t%s\t-\t-\topt-error\t%s\n' "$base" "$n" "$msg" >>"$rows"
            continue
        fi
        llvm=-
        if [ -n "$fc" ] && [ -n "$filecheck" ]; then
            llvm=fail
            fcargs=()
            bare=$(printf '%s\n' "$fc" | sed -e "s/'[^']*'//g" -e 's/"[^"]*"//g')
            case "$bare$fc" in
            *[\<\>\;\&\(\)\$\`\\%]*) llvm=- ;; # not understood: unknown
            *)
                eval "fcargs=($fc)" 2>/dev/null
                if "$filecheck" "${fcargs[@]}" "$in" <"$out" >/dev/null 2>"$work/fc.err"; then
                    llvm=pass
                elif grep -q "no check strings found" "$work/fc.err"; then
                    # A copy without its CHECK lines: LLVM's view unknown.
                    llvm=-
                fi
                ;;
            esac
        fi
        # shellcheck disable=SC2086
        "$convcheck" check "$in" "$out" --format json $extra >"$work/out.json" 2>"$work/err.txt"
        code=$?
        if [ $code = 2 ] || ! jq -e . "$work/out.json" >/dev/null 2>&1; then
            msg=$(head -n 1 "$work/err.txt" | tr '\t' ' ' | cut -c1-120)
            printf '%s\t%s\t-\t%s\terror\t%s\n' "$base" "$n" "$llvm" "$msg" >>"$rows"
            continue
        fi
        jq -r --arg f "$base" --arg n "$n" --arg llvm "$llvm" '
            (if has("functions") then .functions[] else . end)
            | [ $f, $n, (.function // "-"), $llvm, .verdict,
                ( [ (.stages // [])[] | (.reason // empty) ] + [ .reason // empty ]
                  + [ .counterexample.message // empty ]
                  | first // "" | gsub("[\t\n]"; " ") | .[0:160] ) ]
            | @tsv' "$work/out.json" >>"$rows"
    done < <(run_lines "$in")
done <"$list"

printf 'file\trun\tfunction\tllvm\tverdict\treason\n'
cat "$rows"

# Totals. A reason's kind is its text with numbers, names and the
# `reference, N=2: thread 0:` prefix taken out.
awk -F'\t' '
    $5 == "opt-error" { operr++; next }
    $5 == "missing" { missing++; next }
    {
        for (k = 0; k < 2; k++) {
            if (k == 1 && $4 == "fail") continue
            pairs[k]++
            if ($5 == "preserved" || $5 == "proved" || $5 == "violated") verdicts[k]++
            if ($5 == "violated") violated[k]++
            if ($5 == "proved") proved[k]++
            if ($5 == "preserved") preserved[k]++
        }
        if ($5 == "inconclusive" || $5 == "error") {
            r = $6
            sub(/^(reference|target)[^:]*: (thread [0-9]+: )?/, "", r)
            gsub(/@[A-Za-z0-9_.$-]+/, "@F", r)
            gsub(/`[^`]*`/, "`X`", r)
            gsub(/block [A-Za-z0-9_.-]+/, "block B", r)
            gsub(/[0-9]+/, "N", r)
            reasons[$5 ": " substr(r, 1, 90)]++
        }
    }
    END {
        printf "\npairs: %d (plus %d RUN lines opt refused)\n", pairs[0], operr
        printf "verdicts: %d (%.1f%%)\n", verdicts[0], pairs[0] ? 100 * verdicts[0] / pairs[0] : 0
        printf "  proved (every iteration count): %d, preserved (within the bounds): %d\n", proved[0], preserved[0]
        printf "violated: %d\n", violated[0]
        printf "pairs whose test does not fail: %d, verdicts %d (%.1f%%), violated %d\n",
            pairs[1], verdicts[1], pairs[1] ? 100 * verdicts[1] / pairs[1] : 0, violated[1]
        if (missing) printf "files missing, or not the files of the manifest: %d\n", missing
        for (r in reasons) printf "  %4d  %s\n", reasons[r], r | "sort -rn"
    }' "$rows"
