#!/usr/bin/env bash
# Builds and runs one module's tests: what a module's owner types after a change.
#
#   Tools/test-module.sh NAME [swift test options…]
#
# NAME is a folder under Modules/ (Protocol, Session, Seal, Cache, …) or Apps/ (DemoBox, Headless). The tests run are
# that folder's test targets (Modules/NAME/Tests/*); the build is incremental, so after a one-file change only that
# module and what depends on it recompile.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ $# -lt 1 ]]; then
    echo "usage: Tools/test-module.sh NAME [swift test options…]; NAME is one of: $(ls Modules | paste -sd' ' -) $(ls Apps | paste -sd' ' -)" >&2
    exit 2
fi
name=$1
shift
folder=Modules/$name
[[ -d $folder ]] || folder=Apps/$name
if [[ ! -d $folder/Tests ]]; then
    echo "test-module: no module named '$name' with tests (looked in Modules/$name/Tests and Apps/$name/Tests)" >&2
    exit 2
fi
targets=$(find "$folder/Tests" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort | paste -sd'|' -)
swift build --build-tests
swift test --skip-build --filter "^($targets)\." "$@"
