#!/usr/bin/env bash
# Runs Examples/LiveHome in a terminal (tmux) against a real ftw-demobox on loopback, as a person would watch it:
#   1. a first run pairs from the box's enrolment link, goes live and closes (its sealed files are the next run's
#      first frame);
#   2. the box restarts with 500 ms of relay latency each way, so its relay answers a dial only after a second or
#      more, and a second run starts in a tmux pane: its first screen must have content before the relay answers
#      (the status line says cached, with readings, the chart's restored points and the time the app missed), and a
#      later screen must say live;
#   3. the demo box's log must show every phone stream closed with 1000.
# Fails, naming what is missing and printing the screen, otherwise. Needs tmux (.ci/run installs it if missing).
set -euo pipefail
cd "$(dirname "$0")/.."

read -r -a flags <<<"${SWIFT_BUILD_FLAGS:-}"
swift build "${flags[@]}" --product ftw-demobox
# One scratch folder for every example package, so ftw-core is built once for all of them.
swift build "${flags[@]}" --package-path Examples/LiveHome --scratch-path .build-examples
demobox="$(swift build "${flags[@]}" --show-bin-path)/ftw-demobox"
livehome="$(swift build "${flags[@]}" --package-path Examples/LiveHome --scratch-path .build-examples \
    --show-bin-path)/live-home"

work=$(mktemp -d)
session="live-home-$$"
box=""
stop_box() {
    [[ -z $box ]] && return 0
    kill "$box" 2>/dev/null || true
    wait "$box" 2>/dev/null || true
    box=""
}
trap 'stop_box; tmux kill-session -t "$session" 2>/dev/null || true; rm -rf "$work"' EXIT

fail() {
    echo "run-live-home: $1" >&2
    [[ -n ${2:-} ]] && printf '%s\n' "$2" >&2
    exit 1
}

# Starts the demo box on its kept state with the given extra options; sets box, link and relay. Its relay turns its
# hour at once (--rotation-spread 0ms --relay-beat 0ms), so a run in the first minutes of an hour does not wait for the box.
start_box() {
    "$demobox" --port 0 --state "$work/box" --rotation-spread 0ms --relay-beat 0ms "$@" >>"$work/box.out" 2>&1 &
    box=$!
    for _ in $(seq 100); do
        [[ $(grep -c '^relay:' "$work/box.out" 2>/dev/null) -ge $starts ]] && break
        sleep 0.1
    done
    relay=$(sed -n 's/^relay: //p' "$work/box.out" | tail -1)
    [[ -n $relay ]] || fail "ftw-demobox printed no relay address" "$(cat "$work/box.out")"
}

starts=1
start_box
link=$(head -1 "$work/box.out")
first=$("$livehome" "$link" --relay "$relay" --data "$work/phone" --seconds 6)
grep -q 'status: live' <<<"$first" || fail "the first run never showed a live screen" "$first"
stop_box

starts=2
start_box --latency 500
tmux new-session -d -s "$session" -x 100 -y 30 \
    "'$livehome' '$link' --relay '$relay' --data '$work/phone' --seconds 8; sleep 60"
screen=""
for _ in $(seq 100); do
    screen=$(tmux capture-pane -p -t "$session")
    grep -q 'status:' <<<"$screen" && break
    sleep 0.05
done
echo "first screen:"
echo "$screen"
grep -q 'status: cached, from the sealed files' <<<"$screen" || fail "the first screen is not the cached one" "$screen"
grep -qE '^  grid_w +-?[0-9]+ W' <<<"$screen" || fail "the first screen has no readings" "$screen"
grep -q 'o' <<<"$(grep ' |' <<<"$screen")" || fail "the first screen's chart has no restored points" "$screen"
grep -q 'missed: [0-9]* s while the app was away, and counting' <<<"$screen" ||
    fail "the first screen does not say what the app missed" "$screen"
for _ in $(seq 200); do
    screen=$(tmux capture-pane -p -t "$session")
    grep -q 'status: live' <<<"$screen" && break
    sleep 0.1
done
echo "live screen:"
echo "$screen"
grep -q 'status: live' <<<"$screen" || fail "the second run never went live" "$screen"
grep -q '\*' <<<"$(grep ' |' <<<"$screen")" || fail "the live chart has no live points" "$screen"
# Three streams left: the pairing's and the first run's (first box), the second run's (second box).
for _ in $(seq 200); do
    [[ $(grep -c 'left the room' "$work/box.out") -ge 3 ]] && break
    sleep 0.1
done
grep 'left the room' "$work/box.out"
[[ $(grep -c 'left the room: close 1000$' "$work/box.out") -ge 3 ]] &&
    ! grep 'left the room' "$work/box.out" | grep -vq 'close 1000$' ||
    fail "the demo box's log does not show every stream closed with 1000" "$(cat "$work/box.out")"
echo "run-live-home: cached first screen, then live; every stream closed with 1000"
