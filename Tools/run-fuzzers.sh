#!/usr/bin/env bash
# Builds the libFuzzer targets of Tools/Fuzz and runs each one for a fixed budget, one after the other.
#
#   Tools/run-fuzzers.sh                      every fuzzer, 10 million executions or 5 minutes each, whichever first
#   Tools/run-fuzzers.sh --time 5             the CI budget: 5 seconds each
#   Tools/run-fuzzers.sh fuzz-cbor fuzz-noise only these
#   Tools/run-fuzzers.sh --replay FILE fuzz-x run one input (a finding) through a fuzzer once, to debug it
#
# The fuzzers exist only in this build: the manifest adds them when FTW_FUZZ=1, and they are built with
# `-sanitize=fuzzer,address` in their own scratch folder (.build-fuzz), so the normal build never sees them.
# Each run starts from the seeds in Tools/Fuzz/Seeds/<fuzzer> (kept in git) and grows a corpus in
# .build-fuzz/corpus/<fuzzer> (not kept). A crash, a hang (an input that takes over 10 s), an allocation over 256 MB
# or a process over 2 GB fails the run; the input that did it is saved in .build-fuzz/findings/<fuzzer>/.
set -euo pipefail
cd "$(dirname "$0")/.."

all=(fuzz-cbor fuzz-frame fuzz-messages fuzz-noise fuzz-websocket fuzz-sealed fuzz-scenario)
seconds=300
runs=10000000
config=release
replay=""
targets=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --time) seconds="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        --debug) config=debug; shift ;;
        --replay) replay="$2"; shift 2 ;;
        -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
        fuzz-*) targets+=("$1"); shift ;;
        *) echo "run-fuzzers: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
[[ ${#targets[@]} -gt 0 ]] || targets=("${all[@]}")

scratch=.build-fuzz
export FTW_FUZZ=1
# Swift's own crash reporter would catch the trap before libFuzzer can save the input.
export SWIFT_BACKTRACE=enable=no
build=(swift build -c "$config" --scratch-path "$scratch" --sanitize fuzzer --sanitize address
    -Xswiftc -sanitize=fuzzer,address)

for target in "${targets[@]}"; do
    echo "run-fuzzers: building $target ($config)"
    mkdir -p "$scratch/logs"
    "${build[@]}" --product "$target" >"$scratch/logs/build-$target.log" 2>&1 || {
        grep -E "error:" "$scratch/logs/build-$target.log" >&2 || cat "$scratch/logs/build-$target.log" >&2
        echo "run-fuzzers: building $target failed" >&2
        exit 1
    }
done
bin="$("${build[@]}" --show-bin-path)"

if [[ -n "$replay" ]]; then
    exec "$bin/${targets[0]}" "$replay"
fi

# AddressSanitizer's defaults record a call stack for every allocation, fill each new block's first 4 KiB, and keep
# 256 MB of freed memory in quarantine: most of a run's time in decoders that allocate for each input (fuzz-frame ran
# 1,250 inputs a second), and a long run's memory grew past 1 GB. A run records no allocation stacks (a finding
# replayed with --replay above gets them), fills nothing and keeps 16 MB; an ASAN_OPTIONS already set wins.
export ASAN_OPTIONS=${ASAN_OPTIONS:-malloc_context_size=0:max_malloc_fill_size=0:quarantine_size_mb=16}

# The largest input worth trying. The frame fuzzer's reach lane 0 frames and the 1 KiB and 4 KiB bulk buckets: the
# 16 KiB bucket differs only in its length, message bodies of any size are fuzz-messages' job, and every check of a
# frame costs in proportion to its length (with 16 KiB inputs it ran 1,250 inputs a second).
max_len() {
    case "$1" in
        fuzz-frame) echo 4200 ;;
        fuzz-messages) echo 8192 ;;
        *) echo 4096 ;;
    esac
}

failed=()
printf '%-16s %10s %7s %6s %6s %8s  %s\n' fuzzer executions seconds cov ft corpus result
for target in "${targets[@]}"; do
    corpus="$scratch/corpus/$target"
    findings="$scratch/findings/$target"
    log="$scratch/logs/$target.log"
    mkdir -p "$corpus" "$findings" "$(dirname "$log")"
    options=(-max_total_time="$seconds" -runs="$runs" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=256
        -max_len="$(max_len "$target")" -print_final_stats=1 -artifact_prefix="$findings/")
    dictionary="Tools/Fuzz/Dictionaries/$target.dict"
    [[ -f "$dictionary" ]] && options+=(-dict="$dictionary")
    started=$SECONDS
    status=ok
    "$bin/$target" "${options[@]}" "$corpus" "Tools/Fuzz/Seeds/$target" >"$log" 2>&1 || status=FAILED
    # A run that dies on its first input prints no coverage: `|| true` keeps set -e from ending the script there.
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1 || true)
    coverage=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -1 | awk '{print $2, $4}' || true)
    printf '%-16s %10s %7s %6s %6s %8s  %s\n' "$target" "${executions:-?}" "$((SECONDS - started))" \
        ${coverage:-? ?} "$(find "$corpus" -type f | wc -l)" "$status"
    if [[ $status != ok ]]; then
        failed+=("$target")
        grep -E 'SUMMARY|Fatal error|ERROR: libFuzzer|Test unit written' "$log" | head -5 | sed 's/^/    /'
    fi
done

if [[ ${#failed[@]} -gt 0 ]]; then
    echo "run-fuzzers: ${failed[*]} failed; logs in $scratch/logs, inputs in $scratch/findings" >&2
    exit 1
fi
