#!/usr/bin/env bash
# Instructions one unit of a benchmark's work costs, from valgrind's callgrind (stable on a shared machine, where
# wall times are not): runs COMMAND twice, with N replaced by 1 and by 11, and prints the difference over 10, so
# start-up, loading and set-up cancel out.
#
#   Tools/Benchmarks/count-instructions.sh [--allocations] COMMAND… (one argument is the letter N) [< input]
#
# With --allocations it counts heap allocations instead (valgrind's memcheck, "total heap usage").
#
#   Tools/Benchmarks/count-instructions.sh .build/release/ftw-bench cbor decode N          # one pass of the mix
#   Tools/Benchmarks/count-instructions.sh .build/release/ftw-bench noise handshake N      # one handshake
#   Tools/Benchmarks/count-instructions.sh .build/release/ftw-bench noise bare N           # its primitives
#   Tools/Benchmarks/count-instructions.sh .build/release/ftw-bench frame client N         # one live frame
#   Tools/Benchmarks/count-instructions.sh .build/release/ftw-bench frame harness N        # the bench without a client
#   Tools/Benchmarks/count-instructions.sh .build/release/ftw-bench frame bare N           # its open + decode
#   Tools/Benchmarks/count-instructions.sh --allocations .build/release/ftw-bench frame client N
#   .build/release/ftw-bench cbor mix > /tmp/mix.hex
#   Tools/Benchmarks/count-instructions.sh "$(python3 -c 'import sys; print(sys.executable)')" \
#       Tools/Benchmarks/cbor2-decode.py N 1 < /tmp/mix.hex                               # cbor2, one pass
#
# Python must be named by its real executable: callgrind does not follow a pyenv shim into the interpreter.
set -euo pipefail
unit=instructions
if [[ ${1:-} == --allocations ]]; then
    unit=allocations
    shift
fi
if [[ $# -lt 2 ]] || ! printf '%s\n' "$@" | grep -qx N; then
    echo "usage: count-instructions.sh [--allocations] COMMAND… with one argument N (the repetitions) [< input]" >&2
    exit 2
fi
command -v valgrind >/dev/null || { echo "count-instructions: valgrind is not installed" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [[ -t 0 ]]; then : >"$work/input"; else cat >"$work/input"; fi
count() {
    local arguments=()
    for argument in "$@"; do [[ $argument == N ]] && arguments+=("$repetitions") || arguments+=("$argument"); done
    if [[ $unit == allocations ]]; then
        valgrind --tool=memcheck "${arguments[@]}" <"$work/input" 2>&1 >/dev/null |
            sed -n 's/.*total heap usage: *\([0-9,]*\) allocs.*/\1/p' | tr -d ,
    else
        valgrind --tool=callgrind --callgrind-out-file="$work/out" "${arguments[@]}" <"$work/input" 2>&1 >/dev/null |
            sed -n 's/.*Collected : *//p' | tr -d ,
    fi
}
repetitions=1
one=$(count "$@")
repetitions=11
eleven=$(count "$@")
[[ -n $one && -n $eleven ]] || { echo "count-instructions: callgrind reported no count (did the command crash?)" >&2; exit 1; }
echo "$(((eleven - one) / 10)) $unit per repetition"
