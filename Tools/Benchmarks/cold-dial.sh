#!/usr/bin/env bash
# Instructions of a process's first wss:// dial against the dials after it, from valgrind's callgrind, in one
# process: `ftw-bench tls-dial` marks each dial, callgrind dumps a profile part at every mark, and this prints the
# first dial's count, the median of the others, their difference and ratio.
#
#   Tools/Benchmarks/cold-dial.sh [ca|system] [DIALS]       # default: ca 6 (one cold dial, five warm)
#
# `ca` trusts the system store plus the test CA file (`--ca FILE`); `system` the system store alone, with the test CA
# added to a copy of the hashed system folder (SSL_CERT_DIR). The TLS server runs outside valgrind (`ftw-bench tls-dial
# serve`), so only the client is counted. Build first: swift build -c release --product ftw-bench.
set -euo pipefail
cd "$(dirname "$0")/../.."
trust=${1:-ca}
dials=${2:-6}
bench=.build/release/ftw-bench
[[ -x $bench ]] || { echo "cold-dial: build $bench first (swift build -c release --product ftw-bench)" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "cold-dial: valgrind is not installed" >&2; exit 2; }
work=$(mktemp -d)
coproc SERVER { exec "$bench" tls-dial serve "$work"; }
trap 'exec {SERVER[1]}>&-; wait; rm -rf "$work"' EXIT
read -r _ port <&"${SERVER[0]}"
valgrind --tool=callgrind --dump-before='*callgrindDumpMark*' --callgrind-out-file="$work/out" \
    "$bench" tls-dial --connect "$port" --folder "$work" --trust "$trust" --dials "$dials" >/dev/null 2>"$work/log" ||
    { cat "$work/log" >&2; exit 1; }
# Parts: 1 is the start-up, then each dial (even parts) and the close after it (odd parts), then the report.
mapfile -t counts < <(for part in $(seq 2 2 $((dials * 2))); do sed -n 's/^totals: //p' "$work/out.$part"; done)
cold=${counts[0]}
warm=$(printf '%s\n' "${counts[@]:1}" | sort -n | sed -n "$((dials / 2))p")
echo "cold-dial ($trust): first dial $cold instructions; later dials $warm (median of $((dials - 1)));" \
    "extra $((cold - warm)); ratio $(awk -v c="$cold" -v w="$warm" 'BEGIN { printf "%.2f", c / w }')"
