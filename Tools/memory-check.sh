#!/usr/bin/env bash
# Whether the client's resident memory stays flat, in two runs of the release build:
#
# 1. A stay on the wall clock: ftw-demobox on loopback, a phone folder paired with it, then `ftw-headless run
#    --real-time` of a scenario that keeps the home screen and the battery in front for MINUTES (default 10) with
#    live readings every second; VmRSS from /proc/<pid>/status every 10 s.
# 2. The soak (`ftw-headless soak --hours HOURS`, default 24, simulated): the process samples /proc/self/statm each
#    simulated hour and reports its start, middle and end.
#
# Each is flat when its end is at most TOLERANCE MiB (default 4) above the sample after warm-up (the first minute of
# the stay; the soak's middle, after the first hours filled the trace's rings and the history's 48 hours): what a
# leak of a few hundred bytes a reading, 600 readings in ten minutes, 86,400 a day, would pass. Exits 1 when either
# is not flat. Takes the stay's minutes and then about a minute for the soak: never in CI.
#
#   Tools/memory-check.sh [--minutes M] [--hours H] [--tolerance MiB] [--bin DIR]
#
# --bin takes the programs from DIR (`.build-static/release` after Tools/build-release.sh) instead of building
# `swift build -c release`.
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=10
hours=24
tolerance=4
bin=""
while [[ $# -gt 0 ]]; do
    case $1 in
        --minutes) minutes=$2 ;;
        --hours) hours=$2 ;;
        --tolerance) tolerance=$2 ;;
        --bin) bin=$2 ;;
        *) echo "usage: Tools/memory-check.sh [--minutes M] [--hours H] [--tolerance MiB] [--bin DIR]" >&2; exit 2 ;;
    esac
    shift 2
done

work=$(mktemp -d)
box=""
client=""
# Both children go with the script, however it ends (Ctrl-C mid-stay included): each is sent SIGTERM and waited for.
stop_children() {
    for child in $client $box; do
        { kill "$child" 2>/dev/null && wait "$child" 2>/dev/null; } || true
    done
    rm -rf "$work"
}
trap stop_children EXIT
if [[ -z $bin ]]; then
    swift build -c release --product ftw-headless 1>&2
    swift build -c release --product ftw-demobox 1>&2
    bin=$(swift build -c release --show-bin-path)
fi

# Prints "flat" or "NOT flat" for samples in KiB, with the start, the warm sample, the middle and the end in MiB.
judge() {
    local title=$1 warm_index=$2
    shift 2
    local samples=("$@") count=$#
    local start=${samples[0]} warm=${samples[$warm_index]} middle=${samples[$((count / 2))]} end=${samples[$((count - 1))]}
    local verdict=flat
    ((end - warm <= tolerance * 1024)) || verdict="NOT flat"
    awk -v t="$title" -v s="$start" -v w="$warm" -v m="$middle" -v e="$end" -v v="$verdict" -v tol="$tolerance" \
        -v n="$count" 'BEGIN { printf "%s: %d samples; resident start %.1f MiB, after warm-up %.1f, middle %.1f, end %.1f MiB: %s (end within %d MiB of warm-up)\n", t, n, s/1024, w/1024, m/1024, e/1024, v, tol }'
    [[ $verdict == flat ]]
}

# The relay turns its hour at once: the stay measures memory, not the hour's turn.
"$bin/ftw-demobox" --port 0 --state "$work/box" --rotation-spread 0ms --relay-beat 0ms >"$work/box.out" 2>&1 &
box=$!
for _ in $(seq 100); do grep -q '^relay:' "$work/box.out" && break; sleep 0.1; done
link=$(head -1 "$work/box.out")
relay=$(sed -n 's/^relay: //p' "$work/box.out")
[[ -n $relay ]] || { echo "memory-check: ftw-demobox printed no relay address: $(cat "$work/box.out")" >&2; exit 1; }
site=$("$bin/ftw-headless" pair "$link" --relay "$relay" --data "$work/phone" | sed -n 's/^paired with site \([0-9a-f]*\).*/\1/p')
[[ -n $site ]] || { echo "memory-check: pairing with the demo box failed" >&2; exit 1; }
cat >"$work/stay.scenario" <<SCENARIO
# The memory check's stay: the home screen and the battery in front, live readings every second.
date 2026-12-02
timezone Europe/Stockholm
at 10:00:00 launch; inactive; active; view now; view battery
wait ${minutes}m; background
SCENARIO
"$bin/ftw-headless" run "$work/stay.scenario" --real-time --site "$site" --data "$work/phone" >"$work/stay.out" 2>&1 &
client=$!
stay=()
while kill -0 "$client" 2>/dev/null; do
    rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$client/status" 2>/dev/null || true)
    [[ -n $rss ]] && stay+=("$rss")
    sleep 10
done
wait "$client" || { echo "memory-check: the stay failed: $(cat "$work/stay.out")" >&2; exit 1; }
((${#stay[@]} >= 3)) || { echo "memory-check: the stay gave only ${#stay[@]} samples" >&2; exit 1; }
stay_flat=0
judge "stay of $minutes min on the wall clock (every 10 s)" $((${#stay[@]} > 6 ? 6 : 1)) "${stay[@]}" || stay_flat=1

"$bin/ftw-headless" soak --hours "$hours" --json >"$work/soak.json" || true
read -r -a soak <<<"$(python3 -c '
import json, sys
memory = json.load(open(sys.argv[1]))["totals"]["memory"]
print(" ".join(str(sample["residentBytes"] // 1024) for sample in memory))
' "$work/soak.json")"
((${#soak[@]} == 3)) || { echo "memory-check: the soak reported no memory samples" >&2; exit 1; }
soak_flat=0
judge "soak of $hours simulated hours (start, middle, end)" 1 "${soak[@]}" || soak_flat=1
exit $((stay_flat | soak_flat))
