#!/usr/bin/env bash
# Checks the module boundaries the compiler cannot: run by .ci/run, and by hand from the repository root.
#
#   1. Time is injected. No source under Modules/*/Sources, except the Clock module (the seam itself), reads the
#      system clock or sleeps: no Date(), Date.now, Task.sleep, Thread.sleep, sleep/usleep/nanosleep,
#      ContinuousClock, SuspendingClock, DispatchTime/DispatchWallTime, gettimeofday, clock_gettime, time(nil),
#      CFAbsoluteTimeGetCurrent, ProcessInfo's uptime. Such code takes a Clock or a WallClock (module ClockSeam).
#      Sleeping on an injected clock (`clock.sleep(for:)`), declaring a Clock's own `sleep(until:)` (the event loop's
#      clock, which reads time from the clock it is given) and socket calls given a duration (poll) are fine.
#   2. Modules talk through interfaces. A module's sources import another module's live implementation never:
#      only interface targets (*Interface) and the shared pieces listed in SHARED below. Test support (TEST_ONLY)
#      is for tests, never for sources. Nothing re-exports (@_exported) what it imports, except FTWClient's
#      Exports.swift: FTWClient is the one import an integrator writes, and its API is made of the modules' own
#      types, so it re-exports the types it hands out, one by one (and the API check guards their modules). Anywhere
#      else a re-export would hide a dependency the import check is there to see.
#      Whether an import is public only where the API needs it is the compiler's check (InternalImportsByDefault,
#      with warnings as errors in CI).
#   3. The integrator's product links no tooling. `FTWClient`'s dependency closure (read from
#      `swift package describe --type json`) holds no demo box, simulation or test support: no DemoBox, no
#      HeadlessTooling, no target in TEST_ONLY.
#
# Each violation is printed as FILE:LINE: what is wrong; the script exits 1 if there is any.
set -euo pipefail
cd "$(dirname "$0")/.."

# Targets any module may import: the wire, the bus, the clock seam, cryptography and the age-keyed ask machinery.
SHARED="FTWBus FTWClockSeam FTWBoxProtocol FTWCrypto CFTWOpenSSL FTWCache"
# Targets only tests (and other test-support targets) may import: fakes, harnesses and the simulated clock.
TEST_ONLY="FTWFixtures FTWTestingTraits FTWSessionTestSupport FTWSessionTestHarness FTWSealTestSupport FTWHistoryTestSupport FTWClockSeamTesting FTWTLSCertificates"

violations=0
report() {
    echo "$1: $2"
    violations=$((violations + 1))
}

# Lines of Swift source that are not comments, as FILE:LINE:TEXT.
code_lines() {
    grep -rnH --include='*.swift' -E "$1" "${@:2}" 2>/dev/null | grep -vE '^[^:]+:[0-9]+:\s*//' || true
}

# 1. The clock seam.
clock_pattern='\bDate\(\)|\bDate\.now\b|\bDate\(timeIntervalSinceNow|Task\.sleep|Thread\.sleep|(^|[^.A-Za-z0-9_])(u|nano)?sleep\(|'
clock_pattern+='ContinuousClock|SuspendingClock|DispatchTime|DispatchWallTime|gettimeofday|clock_gettime|\btime\(nil\)|'
clock_pattern+='CFAbsoluteTimeGetCurrent|systemUptime'
for sources in Modules/*/Sources; do
    [[ $sources == Modules/Clock/Sources ]] && continue
    while IFS= read -r hit; do
        [[ -z $hit ]] && continue
        what=$(grep -oE "$clock_pattern" <<<"${hit#*:*:}" | sed -E 's/^[^A-Za-z]+//' | paste -sd, - | sed 's/,/, /g')
        report "${hit%%:*}:$(cut -d: -f2 <<<"$hit")" \
            "reads the system clock or sleeps ($what); take a Clock or WallClock from FTWClockSeam instead"
    done < <(code_lines "$clock_pattern" "$sources" | grep -vE '\bfunc (u|nano)?sleep\(' || true)
done

# 2. Imports. Every target folder is owned by the module (or app) folder it sits in.
declare -A owner
for folder in Modules/*/Sources/* Apps/*/Sources/*; do
    [[ -d $folder ]] && owner[$(basename "$folder")]=$(cut -d/ -f1-2 <<<"$folder")
done
is_listed() { [[ " $2 " == *" $1 "* ]]; }

import_pattern='^\s*(@[A-Za-z_]+\s+)*((public|package|internal|fileprivate|private)\s+)?import\s'
for sources in Modules/*/Sources; do
    module=$(cut -d/ -f1-2 <<<"$sources")
    while IFS= read -r hit; do
        [[ -z $hit ]] && continue
        file=${hit%%:*}
        line=$(cut -d: -f2 <<<"$hit")
        text=${hit#*:*:}
        target=$(sed -E 's/.*import\s+((typealias|struct|class|enum|protocol|let|var|func)\s+)?([A-Za-z_][A-Za-z0-9_]*).*/\3/' <<<"$text")
        importer=$(cut -d/ -f4 <<<"$file")
        if is_listed "$target" "$TEST_ONLY" && ! is_listed "$importer" "$TEST_ONLY"; then
            report "$file:$line" "imports the test support $target; only tests may"
        elif [[ -n ${owner[$target]:-} && ${owner[$target]} != "$module" && $target != *Interface ]] &&
            ! is_listed "$importer" "$TEST_ONLY" &&
            ! is_listed "$target" "$SHARED"; then
            report "$file:$line" "imports $target, the implementation of ${owner[$target]}; depend on its interface"
        fi
    done < <(code_lines "$import_pattern" "$sources")
done

# Re-exports: only FTWClient's one file of them, anywhere in the sources.
EXPORTS="Apps/Headless/Sources/FTWClient/Exports.swift"
while IFS= read -r hit; do
    [[ -z $hit ]] && continue
    file=${hit%%:*}
    [[ $file == "$EXPORTS" ]] && continue
    target=$(sed -E 's/.*import\s+((typealias|struct|class|enum|protocol|let|var|func)\s+)?([A-Za-z_][A-Za-z0-9_.]*).*/\3/' \
        <<<"${hit#*:*:}")
    report "$file:$(cut -d: -f2 <<<"$hit")" \
        "re-exports $target (@_exported); only $EXPORTS may, import it where it is used instead"
done < <(code_lines '^\s*@_exported\s' Modules Apps Tools Tests)

# 3. What FTWClient links.
FORBIDDEN="FTWDemoBox FTWHeadlessTooling $TEST_ONLY"
while IFS= read -r target; do
    [[ -z $target ]] && continue
    if [[ $target == FTWClient-missing ]]; then
        report "Package.swift" "no FTWClient target: the integrator's product is missing"
    elif is_listed "$target" "$FORBIDDEN"; then
        report "Package.swift" "FTWClient links $target (demo box, simulation or test support); an integrator's app must not"
    fi
done < <(swift package describe --type json 2>/dev/null | python3 -c '
import json, sys
targets = {t["name"]: t.get("target_dependencies", []) for t in json.load(sys.stdin)["targets"]}
seen, todo = set(), ["FTWClient"]
while todo:
    name = todo.pop()
    for dep in targets.get(name, []):
        if dep not in seen:
            seen.add(dep)
            todo.append(dep)
print("\n".join(sorted(seen)) if "FTWClient" in targets else "FTWClient-missing")
')

if [[ $violations -gt 0 ]]; then
    echo "check-boundaries: $violations violation(s)" >&2
    exit 1
fi
echo "check-boundaries: clean"
