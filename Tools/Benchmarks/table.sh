#!/usr/bin/env bash
# Measures every row of the benchmark table and writes it, dated and naming the commit, to docs/benchmarks.md: the
# one source of every performance figure in the README and docs, so none of them goes stale.
#
#   Tools/Benchmarks/table.sh                  every row; about 30 minutes on the 2-core build VM
#   Tools/Benchmarks/table.sh --seconds 30     shorter windows on the real path (60 s by default)
#   Tools/Benchmarks/table.sh --smoke          every benchmark once with tiny windows and few rounds: checks that
#                                              the table still builds (a few minutes); its figures are not kept
#   Tools/Benchmarks/table.sh --static         the launch clock on the static build (Tools/build-release.sh, its
#                                              own scratch folder: a long build the first time), as shipped
#   Tools/Benchmarks/table.sh --out FILE       write somewhere else (the smoke run writes to a temporary file)
#
# It is not run in CI (its windows are minutes of wall clock); run it before a change that moves a figure lands, and
# commit docs/benchmarks.md with the change. Instruction counts come from valgrind's callgrind, which is stable on a
# shared machine; wall times are printed too, with the machine's load, and move by a third between runs. Needs
# valgrind and, for the system-call counts, perf (root, or perf_event_paranoid <= 1); a row whose tool is missing
# says so instead of a figure. cbor2 (pip) is the CBOR row's baseline.
set -euo pipefail
cd "$(dirname "$0")/../.."

seconds=60
smoke=0
static=0
out=docs/benchmarks.md
while [[ $# -gt 0 ]]; do
    case "$1" in
        --seconds) seconds="$2"; shift 2 ;;
        --smoke) smoke=1; seconds=8; shift ;;
        --static) static=1; shift ;;
        --out) out="$2"; shift 2 ;;
        -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
        *) echo "table.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
if [[ $smoke == 1 && $out == docs/benchmarks.md ]]; then out=$(mktemp --suffix=.md); fi

started=$SECONDS
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
say() { echo "table.sh: $*" >&2; }

say "building the release products"
for product in ftw-bench ftw-demobox ftw-frame-floor ftw-launch-baseline ftw-headless; do
    swift build -c release --product "$product" >"$work/build-$product.log" 2>&1 || {
        cat "$work/build-$product.log" >&2
        exit 1
    }
done
bench=.build/release/ftw-bench
launch_bin=.build/release
launch_build="dynamic build"
if [[ $static == 1 ]]; then
    say "building the static release products (Tools/build-release.sh)"
    Tools/build-release.sh >"$work/build-static.log" 2>&1 || { cat "$work/build-static.log" >&2; exit 1; }
    launch_bin=.build-static/release
    launch_build="static build"
fi
load_before=$(cut -d' ' -f1 /proc/loadavg)

# Runs a benchmark, keeping what it printed for the table; `name` names the log.
run() {
    local name=$1
    shift
    say "$name: $*"
    "$@" >"$work/$name.log" 2>&1 || say "$name: exited with $?"
    cat "$work/$name.log" >&2
}
# The first number after `pattern` in `name`'s log, or "?" when it is not there.
number() {
    local value
    value=$(grep -oE "$2 *[-+]?[0-9][0-9,.]*" "$work/$1.log" | head -1 | grep -oE '[-+]?[0-9][0-9,.]*$' | tr -d ,) || true
    echo "${value:-?}"
}
# The number that starts the first match of `regex` in `name`'s log, or "" when there is none.
leading() { grep -oE "$2" "$work/$1.log" | head -1 | grep -oE '^[-+(]*[0-9.]+' | tr -d '(' || true; }
# `instructions per repetition` from count-instructions.sh, or "?".
counted() {
    local value
    value=$(Tools/Benchmarks/count-instructions.sh "$@" 2>/dev/null | awk '{print $1}') || true
    echo "${value:-?}"
}
# a / b with `digits` decimals, or "?" when either is missing.
ratio() { awk -v a="$1" -v b="$2" -v d="${3:-2}" 'BEGIN { if (a == "?" || b == "?" || b == 0) print "?"; else printf "%.*f", d, a / b }'; }
# a / 1000 with one decimal, or "?".
kilo() { awk -v a="$1" 'BEGIN { if (a == "?") print "?"; else printf "%.1f", a / 1000 }'; }
# Whether `value` is at most `limit`: "met", "not met" or "?".
verdict() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "?") print "?"; else if (a + 0 <= b + 0) print "met"; else print "**not met**" }'; }

rounds_real=(--seconds "$seconds")
run frame-ws "$bench" frame --real ws "${rounds_real[@]}" --foreign
run frame-wss "$bench" frame --real wss "${rounds_real[@]}"
run idle "$bench" idle --seconds "$seconds"
# A five-minute cycle (300 s holds one turn): twelve of it are an hour of live view with its turns.
run cycle "$bench" frame --real ws --seconds "$([[ $smoke == 1 ]] && echo 8 || echo 300)"
run dial "$bench" dial --cold --runs "$([[ $smoke == 1 ]] && echo 2 || echo 5)"
run persist "$bench" trace persist

restore_folder="$work/restore"
"$bench" restore prepare "$restore_folder" >/dev/null 2>&1
restore_models=$(counted "$bench" restore models "$restore_folder" N)
restore_bare=$(counted "$bench" restore bare "$restore_folder" N)
run restore "$bench" restore
run history "$bench" history

frame_client=$(counted "$bench" frame client N)
frame_harness=$(counted "$bench" frame harness N)
frame_bare=$(counted "$bench" frame bare N)
frame_client_allocations=$(counted --allocations "$bench" frame client N)
frame_harness_allocations=$(counted --allocations "$bench" frame harness N)
frame_bare_allocations=$(counted --allocations "$bench" frame bare N)

run trace "$bench" trace
noise=$(counted "$bench" noise handshake N)
noise_bare=$(counted "$bench" noise bare N)
"$bench" cbor mix >"$work/mix.hex"
cbor=$(counted "$bench" cbor decode N)
python=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null || echo python3)
cbor2=$(counted "$python" Tools/Benchmarks/cbor2-decode.py N 1 <"$work/mix.hex")
mix_messages=$(wc -l <"$work/mix.hex")
run handshake "$bench" handshake
run return-bytes "$bench" return-bytes
launches_run=$([[ $smoke == 1 ]] && echo 2 || echo 10)
# The C reader as a plain C program, whichever build the client is: SwiftPM's product of the same source loads the
# Swift runtime's libraries too (Tools/build-release.sh).
"$(command -v clang || command -v cc)" -O2 -o "$work/ftw-launch-baseline" \
    Tools/Benchmarks/Sources/ftw-launch-baseline/main.c -lcrypto
run launch-clock "$launch_bin/ftw-headless" launch-clock --launches "$launches_run" --instructions \
    --baseline "$work/ftw-launch-baseline" --json
load_after=$(cut -d' ' -f1 /proc/loadavg)

# Per-message figures of the CBOR row: count-instructions counts one pass of the whole mix.
cbor_each=$(ratio "$cbor" "$mix_messages" 0)
cbor2_each=$(ratio "$cbor2" "$mix_messages" 0)
# The launch row: callgrind's instructions from exec to the first content (the stable ratio, judged against the
# target), then the medians of processor time and of wall time over the launches, each against the C reader's.
launch=$(python3 - "$work/launch-clock.log" <<'EOF' 2>/dev/null || echo "? ? ? ? ? ? ? ? ?"
import json, sys
text = open(sys.argv[1]).read()
document = json.loads(text[text.index("{"):])
files, baseline, counted = document["withFiles"], document["baseline"], document["instructions"]
cpu, cpu_floor = files["contentCPU"]["median"], baseline["contentCPU"]["median"]
wall, wall_floor = files["content"]["median"], baseline["content"]["median"]
print(f"{counted['client'] / 1e6:.2f} {counted['baseline'] / 1e6:.2f} {counted['ratio']:.2f}",
      f"{cpu:.2f} {cpu_floor:.2f} {cpu / cpu_floor:.2f} {wall:.1f} {wall_floor:.1f} {wall / wall_floor:.2f}")
EOF
)
read -r launch_instructions launch_floor_instructions launch_ratio launch_cpu launch_floor_cpu launch_cpu_ratio \
    launch_client launch_baseline launch_wall_ratio <<<"$launch"

ws_instructions=$(number frame-ws 'frame --real ws:')
ws_allocations=$(number frame-ws 'k instructions and')
ws_floor=$(number frame-ws 'C floor')
ws_ratio=$(ratio "$ws_instructions" "$ws_floor" 1)
ws_switches=$(leading frame-ws '[0-9.]+ context switches')
ws_syscalls=$(leading frame-ws '[0-9.]+ system calls a frame')
ws_cpu=$(leading frame-ws '[0-9.]+ µs CPU a frame')
foreign=$(number frame-ws 'frame --real foreign:')
foreign_floor=$(number frame-ws 'the failing open alone \(C\)')
wss_instructions=$(number frame-wss 'frame --real wss:')
wss_allocations=$(number frame-wss 'k instructions and')
wss_floor=$(number frame-wss 'C floor')
wss_ratio=$(ratio "$wss_instructions" "$wss_floor" 1)
wss_switches=$(leading frame-wss '[0-9.]+ context switches')
wss_syscalls=$(leading frame-wss '[0-9.]+ system calls a frame')
idle_switches=$(leading idle '[0-9.]+ context switches a second')
idle_minute=$(leading idle '\([0-9.]+ a minute\)')
# Wake-ups in the window besides its own end (the bench's timer that closes it is one context switch).
idle_wakes=$(awk -v a="${idle_switches:-?}" -v s="$seconds" 'BEGIN { if (a == "?") print "?"; else { w = a * s - 1; printf "%d", w < 0.5 ? 0 : w + 0.5 } }')
idle_syscalls=$(leading idle '[0-9.]+ system calls a second')
idle_instructions=$(leading idle '[0-9.]+ k instructions and')
hour_live=$(grep -oE "an hour of live view at this window's rate: .*" "$work/cycle.log" | sed 's/^[^:]*: //' || true)
hour_idle=$(grep -oE "an hour in the background at this window's rate: .*" "$work/idle.log" | sed 's/^[^:]*: //' || true)
hour_idle_wakes=$(grep -oE '[0-9]+ wake-ups' <<<"$hour_idle" | grep -oE '^[0-9]+' || true)
dial_cold=$(grep -oE 'wss: first greet of a process [0-9.]+ ms CPU' "$work/dial.log" | grep -oE '[0-9.]+ ms' | awk '{print $1}')
dial_warm=$(grep -oE 'wss: .*a warm one [0-9.]+ ms CPU' "$work/dial.log" | grep -oE 'warm one [0-9.]+' | awk '{print $3}')
dial_extra=$(grep -oE 'wss: .*the first costs \+[0-9.]+' "$work/dial.log" | grep -oE '[0-9.]+$')
dial_ws_extra=$(grep -oE 'ws: .*the first costs \+[0-9.]+' "$work/dial.log" | grep -v wss | grep -oE '[0-9.]+$')
# The same greets in instructions (callgrind, one run): what the CPU times cannot say across machines, whose speed
# moves the warm greet's time by half between tables.
dial_cold_m=$(grep -oE 'wss: [0-9.]+ M instructions for the first greet' "$work/dial.log" | grep -oE '[0-9.]+' || true)
dial_warm_m=$(grep -oE 'wss: .* ([0-9.]+) M for a warm one' "$work/dial.log" | grep -oE '[0-9.]+ M for a warm' | grep -oE '^[0-9.]+' || true)
dial_extra_m=$(awk -v c="${dial_cold_m:-}" -v w="${dial_warm_m:-}" 'BEGIN { if (c == "" || w == "") print "?"; else printf "%.2f", c - w }')
persist_instructions=$(leading persist '[0-9.]+ k instructions and [0-9.]+ allocations a write')
persist_allocations=$(leading persist '[0-9.]+ allocations a write')
restore_wall=$(number restore 'ratio restore / baseline:')
history_wall=$(grep -oE 'ratio[^0-9]*[0-9.]+' "$work/history.log" | tail -1 | grep -oE '[0-9.]+$')
trace_append=$(grep -oE 'append .*ratio [0-9.]+' "$work/trace.log" | grep -oE '[0-9.]+$')
handshake_wall=$(grep -oE 'ratio[^0-9]*[0-9.]+' "$work/handshake.log" | tail -1 | grep -oE '[0-9.]+$')
return_ratio=$(number return-bytes 'total bytes:')
frame_own=$(awk -v c="$frame_client" -v h="$frame_harness" 'BEGIN { if (c == "?" || h == "?") print "?"; else print c - h }')
frame_own_allocations=$(awk -v c="$frame_client_allocations" -v h="$frame_harness_allocations" 'BEGIN { if (c == "?" || h == "?") print "?"; else print c - h }')

commit=$(git rev-parse --short HEAD)
dirty=$(git diff --quiet HEAD -- Modules Apps Tools Package.swift 2>/dev/null || echo " with uncommitted changes")
took=$((SECONDS - started))
mkdir -p "$(dirname "$out")"
cat >"$out" <<EOF
# Benchmarks

Generated by \`Tools/Benchmarks/table.sh\` on $(date -u +%Y-%m-%d) at commit \`$commit\`$dirty, on $(nproc) cores
(load $load_before before, $load_after after), in $((took / 60)) min $((took % 60)) s$([[ $smoke == 1 ]] && echo ", a smoke run: its figures are not the record"). Do not edit it by hand: run
the script and commit what it writes. Every performance figure in the README and the module READMEs comes from
this page. Instruction counts are callgrind's (stable on a shared machine); wall times move by a third with the
load and are given as ratios measured in one run.

## On the real path (issue 26)

A phone is a child process that opens its paired data folder through \`FTWClient\` alone, with the home screen and
the battery open, streaming from an \`ftw-demobox\` process over loopback at 1 Hz; the figures are per frame it
received in a $seconds s window, everything its process did in that window included (the ring file's write every
15 s among it: the window opens halfway between two writes, so it holds exactly one a period, and two runs differ
by no write). The window sits between two five-minute turns: at a turn a history tile closes and the models ask
the box again, work of the turn rather than of a frame, counted by their own benchmarks. Another phone's frame
is the phone's count beside three other paired phones (the most a room holds beside it) less its count alone, over the frames the neighbours added.
The floor is \`ftw-frame-floor\` (C, the same build): ChaCha20-Poly1305 open and a CBOR walk of
a 512-byte 1 Hz delta; for \`wss\` an \`SSL_read\` and a WebSocket parse first. How it is measured:
\`ftw-bench frame --real\` (Tools/Benchmarks/Sources/ftw-bench/RealFrameBenchmark.swift).

| measure | now | floor / peer (same run) | ratio | target | |
|---|---|---|---|---|---|
| live frame over ws: instructions, allocations | $ws_instructions k, $ws_allocations | C floor $ws_floor k | ${ws_ratio}× | ≤ 30 k (≤ 4× floor) | $(verdict "$ws_instructions" 30) |
| live frame over ws: context switches / system calls | ${ws_switches:-?} / ${ws_syscalls:-?} (${ws_cpu:-?} µs CPU) | — | — | ≤ 2 / ≤ 6 | $(verdict "${ws_switches:-?}" 2) / $(verdict "${ws_syscalls:-?}" 6) |
| live frame over wss: instructions, allocations | $wss_instructions k, $wss_allocations | C floor with \`SSL_read\` + WebSocket parse $wss_floor k | ${wss_ratio}× | ≤ 43 k (≤ 3× floor) | $(verdict "$wss_instructions" 43) |
| live frame over wss: context switches / system calls | ${wss_switches:-?} / ${wss_syscalls:-?} | — | — | — | |
| another phone in the room: instructions a foreign frame | $foreign k | the failing open alone (C) $foreign_floor k | — | ≤ 8 k (issue 33: libcrypto's own ChaCha20 and Poly1305; above it, a check of our own) | $(verdict "$foreign" 8) |
| live-trace ring write (every 15 s in front), ten fields × 301 points | ${persist_instructions:-?} k instructions, ${persist_allocations:-?} allocations a write | — | — | ≤ 100 k | $(verdict "${persist_instructions:-?}" 100) |
| a launched client in the background, nothing dialled | ${idle_switches:-?} context switches a second (${idle_minute:-?} a minute), ${idle_syscalls:-?} system calls a second, ${idle_instructions:-?} k instructions a second | nothing to do | ${idle_wakes:-?} wake-ups in $seconds s besides the window's own end | 0 wake-ups | $(verdict "${idle_wakes:-?}" 0) |
| an hour of live view over ws: 12 five-minute cycles (a 300 s window holding one turn, × 12) | ${hour_live:-?} | — | — | — | |
| an hour in the background, nothing dialled (the window above, × 3 600 / $seconds) | ${hour_idle:-?} | nothing to do | — | 0 wake-ups | $(verdict "${hour_idle_wakes:-?}" 0) |
| first wss dial of a process (a greet: dial, TLS, Noise, hello) | ${dial_cold:-?} ms CPU; ${dial_cold_m:-?} M instructions | a warm greet ${dial_warm:-?} ms; ${dial_warm_m:-?} M | +${dial_extra:-?} ms, +${dial_extra_m} M instructions (ws: +${dial_ws_extra:-?} ms) | ≤ +10 ms | $(verdict "${dial_extra:-?}" 10) |
| first content after launch (\`ftw-headless launch-clock --instructions\`, $launch_build): instructions from exec (callgrind); processor time and wall time, medians of $launches_run launches | ${launch_instructions:-?} M; ${launch_cpu:-?} ms CPU; ${launch_client:-?} ms | C reader of the same files ${launch_floor_instructions:-?} M; ${launch_floor_cpu:-?} ms CPU; ${launch_baseline:-?} ms | **${launch_ratio:-?}×** by instructions (CPU ${launch_cpu_ratio:-?}×, wall ${launch_wall_ratio:-?}×) | ≤ 1.5× (static build) | $(verdict "${launch_ratio:-?}" 1.5) |

## The client's own benchmarks

| benchmark | measure | baseline (same run) | instructions: measure / baseline | ratio | wall-time ratio |
|---|---|---|---|---|---|
| \`restore\` | restore and draw prices, plan, chargers, prefs, home, snapshot (the tour's files) | read and open the same six files | $(kilo "$restore_models") k / $(kilo "$restore_bare") k a round | **$(ratio "$restore_models" "$restore_bare")** (target ≤ 3) | ${restore_wall:-?} |
| \`history\` | restore and build the model | read and open the tiles file | — | — | ${history_wall:-?} |
| \`frame\` (in memory) | one 1 Hz delta end to end in the client, less the bench's own box, carrier and clock (\`frame harness\`: $(kilo "$frame_harness") k, $frame_harness_allocations allocations) | open + decode of the same frame (\`FrameCodec.decodeMessage\`), $frame_bare_allocations allocations | $(kilo "$frame_own") k / $(kilo "$frame_bare") k a frame, $frame_own_allocations allocations | $(ratio "$frame_own" "$frame_bare" 1) (whole bench $(kilo "$frame_client") k: $(ratio "$frame_client" "$frame_bare" 1)) | — |
| \`trace\` | a ring append | \`[Sample]\` append and trim | — | — | ${trace_append:-?} |
| \`cbor\` | \`CBORDecoder\`, one envelope of the mix | cbor2's native \`loads\`, same bytes | $cbor_each / $cbor2_each | **$(ratio "$cbor" "$cbor2")** | — |
| \`noise\` | \`NoiseHandshake\`, both sides | the same libcrypto calls, made bare | $(ratio "$noise" 1000000) M / $(ratio "$noise_bare" 1000000) M | **$(ratio "$noise" "$noise_bare")** | — |
| \`handshake\` | a return on loopback, dial to \`hello_ok\` | opening the relay socket until \`ready\` | — | — | ${handshake_wall:-?} |
| \`return-bytes\` | a return's bytes on the wire | the cold first open's | — | ${return_ratio:-?} (simulated, exact) | — |

How each is measured is in the benchmark's own source (\`Tools/Benchmarks/Sources/ftw-bench\`) and the module's
README. The raw output of this run:

\`\`\`
$(for log in frame-ws frame-wss cycle idle dial persist restore history trace handshake return-bytes; do grep -vE '^==[0-9]+==' "$work/$log.log" 2>/dev/null | grep -E '^[a-z-]+( --[a-z]+)?( [a-z]+)?:' || true; done)
\`\`\`
EOF
say "wrote $out in $((took / 60)) min $((took % 60)) s (not run in CI: --smoke is the quick check)"
