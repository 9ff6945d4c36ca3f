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
# A generic type the code names (a `[Int: Field]`, a `Set<UInt8>`) is made, by default, from its mangled name at its
# first use, and each requirement it carries (`Int: Hashable`) is looked up by scanning every protocol conformance of
# the program: with the standard library and Foundation linked in, 6 300 of them, about 140 k instructions a lookup
# and 40 lookups before the first content (5.5 M instructions, a fifth of a launch's). Called through the type's
# metadata accessor with the conformance the compiler already knows, none is scanned (docs/launch-clock.md).
launch_flags=(-Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors)
flags=(-c release --scratch-path .build-static --static-swift-stdlib "${launch_flags[@]}")
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
