#!/usr/bin/env bash
# Runs Examples/LiveHome in a terminal (tmux) against a real ftw-demobox on loopback, as a person would watch it:
#   0. the example's own tests: its frames as a pure function of the values and now (an outage's frame among them);
#   1. a first run pairs from the box's enrolment link, goes live and closes after a few seconds (its sealed files are
#      the next run's first frame);
#   2. the box restarts with 500 ms of relay latency each way, so its relay answers a dial only after a second or
#      more, and a second run starts in a tmux pane: its first screen must have content before the relay answers
#      (cached, from the sealed files, with readings, the chart's restored points and the time missed at launch),
#      and a later screen must say live;
#   3. the box is stopped: while it is away the screen must say it is reconnecting with the next try's countdown,
#      and the readings' age must grow from one frame to the next although nothing arrives;
#   4. the box comes back on the same port: the screen goes live again and the outage stays on the chart as missed
#      time;
#   5. Ctrl-C in the pane closes the client as its scoped lifetime does: the box's log shows the stream closed with
#      1000 after the keys were sent, and the snapshot file was sealed after them.
# Every phone stream but the one the box's stop cut must leave with 1000. Fails, naming what is missing and
# printing the screen, otherwise. Needs tmux (.ci/run installs it if missing).
set -euo pipefail
cd "$(dirname "$0")/.."

read -r -a flags <<<"${SWIFT_BUILD_FLAGS:-}"
swift build "${flags[@]}" --product ftw-demobox
# One scratch folder for every example package, so ftw-core is built once for all of them.
swift build "${flags[@]}" --package-path Examples/LiveHome --scratch-path .build-examples --build-tests
swift test "${flags[@]}" --package-path Examples/LiveHome --scratch-path .build-examples --skip-build
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

# Starts the demo box on its kept state with the given extra options; sets box, link, relay and port. Its relay turns
# its hour at once (--rotation-spread 0ms --relay-beat 0ms), so a run in the first minutes of an hour does not wait
# for the box. The first start picks a free port; every later one listens on the same, as a box that comes back does.
starts=0
port=0
start_box() {
    starts=$((starts + 1))
    "$demobox" --port "$port" --state "$work/box" --rotation-spread 0ms --relay-beat 0ms "$@" >>"$work/box.out" 2>&1 &
    box=$!
    for _ in $(seq 100); do
        [[ $(grep -c '^relay:' "$work/box.out" 2>/dev/null) -ge $starts ]] && break
        sleep 0.1
    done
    relay=$(sed -n 's/^relay: //p' "$work/box.out" | tail -1)
    [[ -n $relay ]] || fail "ftw-demobox printed no relay address" "$(cat "$work/box.out")"
    port=${relay##*:}
}

# The pane, once it shows a line matching the pattern (tried every 0.1 s for up to the given seconds); fails naming
# what it waited for.
screen=""
wait_for() {
    local pattern=$1 seconds=$2 what=$3
    for _ in $(seq $((seconds * 10))); do
        screen=$(tmux capture-pane -p -t "$session")
        grep -qE "$pattern" <<<"$screen" && return 0
        sleep 0.1
    done
    fail "$what" "$screen"
}

# The grid row's age in whole seconds (`  grid  importing … 7 s old`).
grid_age() {
    grep -E '^  grid ' <<<"$1" | sed -nE 's/.* ([0-9]+) s old$/\1/p'
}

start_box
link=$(head -1 "$work/box.out")
first=$("$livehome" "$link" --relay "$relay" --data "$work/phone" --seconds 6)
grep -q 'connection  live since' <<<"$first" || fail "the first run never showed a live screen" "$first"
stop_box

start_box --latency 500
# The pane runs live-home itself (no shell around it to take Ctrl-C too) and keeps its last screen once it exits.
tmux new-session -d -s "$session" -x 150 -y 34 "'$livehome' '$link' --relay '$relay' --data '$work/phone'"
tmux set-option -t "$session" remain-on-exit on >/dev/null
wait_for '^  readings' 10 "the second run drew no first screen"
echo "first screen:"
echo "$screen"
grep -q '^  readings    cached, from the sealed files of' <<<"$screen" || fail "the first screen is not the cached one" "$screen"
grep -qE '^  grid +(importing|exporting|nothing)' <<<"$screen" || fail "the first screen has no readings" "$screen"
grep -q 'o' <<<"$(grep ' |' <<<"$screen")" || fail "the first screen's chart has no restored points" "$screen"
grep -qE '^  missed .* at launch since [0-9:]+, and counting' <<<"$screen" ||
    fail "the first screen does not say what the app missed" "$screen"
wait_for '^  connection  live since' 20 "the second run never went live"
echo "live screen:"
echo "$screen"
grep -q '\*' <<<"$(grep ' |' <<<"$screen")" || fail "the live chart has no live points" "$screen"

# The box goes away: the screen counts down to the next try, and the readings age on every frame.
stop_box
wait_for '^  connection  reconnecting — next try in [0-9]+ s' 10 "the outage's screen never said it was reconnecting"
before=$(grid_age "$screen")
# Away for longer than the stream's gap rule (3.5 beats): a shorter outage is no gap in the trace's runs (cache.md §4),
# so the chart rightly draws none, and a quick redial made this check depend on the backoff's draw.
sleep 5
after=$(tmux capture-pane -p -t "$session")
echo "outage screen:"
echo "$after"
[[ -n $before && -n $(grid_age "$after") && $(grid_age "$after") -gt $before ]] ||
    fail "the readings' age did not grow while the box was away ($before s, then $(grid_age "$after") s)" "$after"

# The box comes back: live again, and the outage stays on the chart as missed time.
start_box
wait_for '^  connection  live since' 30 "the second run never went live again after the outage"
wait_for '^  missed .*; [0-9]+ s \([0-9:]+–[0-9:]+\)' 10 "the chart does not keep the outage as missed time"
echo "live again:"
echo "$screen"

# Ctrl-C: the client closes as its scoped lifetime does.
touch "$work/ctrl-c"
sleep 0.01
tmux send-keys -t "$session" C-c
wait_for '^live-home: closed on a signal' 10 "Ctrl-C did not close the client"
echo "after Ctrl-C:"
echo "$screen"
for _ in $(seq 50); do
    [[ $(tail -1 "$work/box.out") == *"left the room"* ]] && break
    sleep 0.1
done
grep 'left the room' "$work/box.out"
[[ $(grep 'left the room' "$work/box.out" | tail -1) == *"close 1000" ]] ||
    fail "the box did not see Ctrl-C's close as 1000" "$(cat "$work/box.out")"
[[ -n $(find "$work/phone/sealed" -name 'snapshot-*' -newer "$work/ctrl-c") ]] ||
    fail "Ctrl-C's close sealed no snapshot" "$(ls -l --full-time "$work/phone/sealed" "$work/ctrl-c")"
# Every stream left with 1000 but the one the box's stop cut (it closes its sockets with 1001).
[[ $(grep 'left the room' "$work/box.out" | grep -vc 'close 1000$') -le 1 ]] ||
    fail "a phone stream left other than with 1000" "$(cat "$work/box.out")"
echo "run-live-home: cached first screen, live, the outage counted down and aged, live again with the outage kept;"
echo "run-live-home: Ctrl-C closed with 1000 and sealed the files"
