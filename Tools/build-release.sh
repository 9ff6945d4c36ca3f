#!/usr/bin/env bash
# The release binaries a person ships: ftw-headless and ftw-demobox with the Swift runtime, the standard library and
# Foundation linked into the program (`--static-swift-stdlib`), so a launch maps one file instead of a dozen shared
# libraries and resolves far fewer symbols before `main`. libssl and libcrypto stay the system's shared libraries
# (security fixes arrive with the system's updates), as do glibc and libstdc++. Also builds ftw-launch-baseline, the C
# program `ftw-headless launch-clock` times the first content against.
#
#   Tools/build-release.sh              # static Swift runtime, into .build-static/release
#   Tools/build-release.sh --dynamic    # the plain `swift build -c release`, into .build/release, to compare
#
# The static build has its own scratch folder, so switching between the two never rebuilds the other from scratch.
# Prints the programs' paths and the shared libraries each still needs.
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(-c release --scratch-path .build-static --static-swift-stdlib)
if [[ ${1:-} == --dynamic ]]; then
    flags=(-c release)
elif [[ $# -gt 0 ]]; then
    echo "usage: Tools/build-release.sh [--dynamic]" >&2
    exit 2
fi
for product in ftw-headless ftw-demobox ftw-launch-baseline; do
    swift build "${flags[@]}" --product "$product"
done
bin=$(swift build "${flags[@]}" --show-bin-path)
for product in ftw-headless ftw-demobox; do
    echo "$bin/$product: $(ldd "$bin/$product" | awk '{print $1}' | grep -v '^/\|linux-vdso' | tr '\n' ' ')"
done
echo "$bin/ftw-launch-baseline"
