#!/usr/bin/env bash
# The release binaries a person ships: ftw-headless and ftw-demobox with the Swift runtime, the standard library and
# Foundation linked into the program (`--static-swift-stdlib`), so a launch maps one file instead of a dozen shared
# libraries and resolves far fewer symbols before `main`. libssl and libcrypto stay the system's shared libraries
# (security fixes arrive with the system's updates), as does glibc; libstdc++, which only the Swift runtime uses, is
# linked in too when the toolchain finds its static archive. Also builds ftw-launch-baseline, the C program
# `ftw-headless launch-clock` times the first content against.
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
# The shared libstdc++ costs a launch 1.9 M instructions before its first content (the loader resolving its 4 300
# symbol relocations, its initialisers), for the few functions the Swift runtime calls. The toolchain's link
# arguments name `-lstdc++`, so a folder holding only the static archive, searched before the system's, makes the
# linker take that one instead.
# The toolchain's static link also exports every symbol of our own code (`-export-dynamic`: 9 900 dynamic symbols,
# where the static libraries' are hidden), which nothing looks up by name (the runtime's `dlsym` calls look for
# libdispatch's and the sanitizers' symbols, hidden either way), but which the loader and the runtime's `dladdr` at
# start-up walk: 0.35 M instructions of a launch.
launch_flags+=(-Xlinker --no-export-dynamic)
archive=$(clang -print-file-name=libstdc++.a 2>/dev/null || true)
if [[ $archive == /* && -f $archive ]]; then
    mkdir -p .build-static/static-libstdc++
    ln -sf "$archive" .build-static/static-libstdc++/libstdc++.a
    launch_flags+=(-Xswiftc -L -Xswiftc "$PWD/.build-static/static-libstdc++")
else
    echo "build-release.sh: no static libstdc++ (clang -print-file-name=libstdc++.a), so the shared one" >&2
fi
flags=(-c release --scratch-path .build-static --static-swift-stdlib "${launch_flags[@]}")
if [[ ${1:-} == --dynamic ]]; then
    flags=(-c release)
elif [[ $# -gt 0 ]]; then
    echo "usage: Tools/build-release.sh [--dynamic]" >&2
    exit 2
fi
for product in ftw-headless ftw-demobox; do
    swift build "${flags[@]}" --product "$product"
done
bin=$(swift build "${flags[@]}" --show-bin-path)
# The C baseline as a plain C program: SwiftPM links a C executable as it links Swift ones, with the Swift runtime's
# libraries (libswiftCore.so in the plain build; libstdc++, libm and libgcc_s in the static one), which a C reader
# of the files never loads: 0.6 to 3 M instructions that flattered every ratio against it.
"$(command -v clang || command -v cc)" -O2 -o "$bin/ftw-launch-baseline" \
    Tools/Benchmarks/Sources/ftw-launch-baseline/main.c -lcrypto
for product in ftw-headless ftw-demobox; do
    echo "$bin/$product: $(ldd "$bin/$product" | awk '{print $1}' | grep -v '^/\|linux-vdso' | tr '\n' ' ')"
done
echo "$bin/ftw-launch-baseline"
