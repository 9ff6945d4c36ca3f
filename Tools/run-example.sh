#!/usr/bin/env bash
# Runs Examples/MinimalClient against a real ftw-demobox on loopback, as an integrator would: the first run pairs from
# the box's enrolment link and shows live readings; the second finds the site in its data folder and draws from the
# sealed files before connecting. After each run the demo box's log must show every phone stream closed with 1000 (a
# clean close, not a dropped socket). Fails, naming what is missing, if a run does not print what a person expects.
# The example builds with the explicit import check, so it compiles with `import FTWClient` alone or not at all.
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d)
box=""
trap '[[ -n $box ]] && kill "$box" 2>/dev/null; rm -rf "$work"' EXIT
# SWIFT_BUILD_FLAGS: .ci/run passes its strict flags, so the demo box comes from the build the tests already made.
read -r -a flags <<<"${SWIFT_BUILD_FLAGS:-}"
swift build "${flags[@]}" --product ftw-demobox
swift build "${flags[@]}" --package-path Examples/MinimalClient --scratch-path .build-examples
# A package beside ftw-core whose targets have the plain names (Crypto, Session, Cache, NIOCore, …): SwiftPM refuses
# the graph if any ftw-core target shares one (issue 33), so building it is the check.
swift build "${flags[@]}" --package-path Examples/NameClash --scratch-path .build-examples
# --rotation-spread 0ms --relay-beat 0ms: the relay turns its hour at once, so a run in the first minutes of an hour does not wait
# up to five minutes for the box (Tests/EndToEndTests/WallClockRelay.swift says the same of the wall-clock tests).
"$(swift build "${flags[@]}" --show-bin-path)/ftw-demobox" --port 0 --state "$work/box" --rotation-spread 0ms --relay-beat 0ms >"$work/box.out" 2>&1 &
box=$!
for _ in $(seq 100); do grep -qs '^relay:' "$work/box.out" && break; sleep 0.1; done
link=$(head -1 "$work/box.out")
relay=$(sed -n 's/^relay: //p' "$work/box.out")
[[ -n $relay ]] || { echo "run-example: ftw-demobox printed no relay address: $(cat "$work/box.out")" >&2; exit 1; }
client="$(swift build "${flags[@]}" --package-path Examples/MinimalClient --scratch-path .build-examples \
    --show-bin-path)/minimal-client"

expect() {
    grep -q "$2" <<<"$1" || { printf 'run-example: the %s run printed no "%s":\n%s\n' "$3" "$2" "$1" >&2; exit 1; }
}
# The demo box's log shows at least `$1` streams gone, each closed with 1000.
closed_cleanly() {
    for _ in $(seq 50); do
        [[ $(grep -c 'left the room' "$work/box.out") -ge $1 ]] && break
        sleep 0.1
    done
    [[ $(grep -c 'left the room: close 1000$' "$work/box.out") -ge $1 ]] &&
        ! grep 'left the room' "$work/box.out" | grep -vq 'close 1000$' ||
        {
            echo "run-example: the demo box's log does not show $1 streams closed with 1000:" >&2
            cat "$work/box.out" >&2
            exit 1
        }
}
first=$("$client" "$link" --relay "$relay" --seconds 2 --data "$work/phone")
echo "$first"
expect "$first" "^paired with site" first
expect "$first" "^live readings" first
closed_cleanly 2 # the pairing's session and the client's
second=$("$client" "$link" --relay "$relay" --seconds 2 --data "$work/phone")
echo "$second"
expect "$second" "^drawn before connecting: trace" second
expect "$second" "^chargers: " second
closed_cleanly 3
