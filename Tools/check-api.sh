#!/usr/bin/env bash
# The guarded public API: compares the API of FTWClient and of every module whose types it re-exports (what an
# integrator names through `import FTWClient`) with the baseline, using `swift package diagnose-api-breaking-changes`.
#
# The baseline is the commit in Tools/API/baseline (tagged with its version where tags were kept): CI runs on a clean
# clone of main, which may carry no tags, and the commit is an ancestor of main, so it is always there. The baseline's
# API is built once into .build-api (a later run reuses it); that build is this step's cost.
# An intentional break is one line of Tools/API/allowed-breaks.txt, the tool's own message, reviewed with the change
# (Tools/API/README.md).
#
#   Tools/check-api.sh           # what CI runs
set -euo pipefail
cd "$(dirname "$0")/.."

read -r version commit _ < <(grep -v '^#' Tools/API/baseline)
if ! git cat-file -e "$commit^{commit}" 2>/dev/null; then
    echo "check-api: the baseline $version ($commit, Tools/API/baseline) is not in this clone" >&2
    exit 1
fi
if ! git merge-base --is-ancestor "$commit" HEAD; then
    echo "check-api: the baseline $version ($commit) is not an ancestor of HEAD: record the commit main holds" >&2
    exit 1
fi

# The modules whose types FTWClient re-exports (`@_exported public import struct FTWSession.SessionError`), read from
# its one file of re-exports, each once, and FTWClient itself.
targets=$(sed -n 's/^@_exported public import [a-z]* \([A-Za-z]*\)\.[A-Za-z]*$/\1/p' \
    Apps/Headless/Sources/FTWClient/Exports.swift | sort -u)
if [[ -z $targets ]]; then
    echo "check-api: no re-exported module read from Apps/Headless/Sources/FTWClient/Exports.swift" >&2
    exit 1
fi
read -r -a flags <<<"${SWIFT_BUILD_FLAGS:-}"
# shellcheck disable=SC2086 # the targets are words on purpose
swift package "${flags[@]}" diagnose-api-breaking-changes "$commit" \
    --products FTWClient --targets $targets \
    --baseline-dir .build-api \
    --breakage-allowlist-path Tools/API/allowed-breaks.txt
