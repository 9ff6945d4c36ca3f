#!/usr/bin/env bash
# Builds the DocC documentation of every library product offline, with the toolchain's own tools: the symbol graphs
# from `swift package dump-symbol-graph` (on the build the tests made, so nothing is compiled again when the flags
# match), then `docc convert --warnings-as-errors` once per product, with its catalog
# (`<Target>.docc/<Target>.md`, the landing page, which every product must have). Fails, naming the product, on
# any warning (an unresolved link, an undocumented parameter) or a missing catalog.
#
#   Tools/build-docs.sh                 # every product, into .build-docs/<Target>.doccarchive
#   Tools/build-docs.sh FTWClient Bus   # some of them
#
# Open one: `python3 -m http.server -d .build-docs/FTWClient.doccarchive 8000`, then
# http://localhost:8000/documentation/ftwclient/ (an archive is a static site; a browser cannot read it from file://).
set -euo pipefail
cd "$(dirname "$0")/.."

read -r -a flags <<<"${SWIFT_BUILD_FLAGS:-}"
out=.build-docs
graphs="$(swift build "${flags[@]}" --show-bin-path)/../symbolgraph"
swift package "${flags[@]}" dump-symbol-graph --skip-synthesized-members >/dev/null

# Every library product's target and its folder, from the manifest.
products=$(swift package describe --type json 2>/dev/null | python3 -c '
import json, sys
package = json.load(sys.stdin)
paths = {target["name"]: target["path"] for target in package["targets"]}
for product in package["products"]:
    if "library" in product["type"]:
        print(product["targets"][0], paths[product["targets"][0]])
')

failed=()
mkdir -p "$out"
while read -r target path; do
    [[ $# -gt 0 && " $* " != *" $target "* ]] && continue
    catalog="$path/$target.docc"
    if [[ ! -f $catalog/$target.md ]]; then
        echo "build-docs: $target has no landing page ($catalog/$target.md)" >&2
        failed+=("$target")
        continue
    fi
    own=$(mktemp -d)
    cp "$graphs/$target.symbols.json" "$own/"
    cp "$graphs/$target"@*.symbols.json "$own/" 2>/dev/null || true
    if docc convert "$catalog" --additional-symbol-graph-dir "$own" --warnings-as-errors \
        --fallback-display-name "$target" --fallback-bundle-identifier "energy.ftw.$target" \
        --output-path "$out/$target.doccarchive" >"$own/log" 2>&1; then
        echo "build-docs: $target"
    else
        grep -E 'warning|error' "$own/log" >&2 || cat "$own/log" >&2
        failed+=("$target")
    fi
    rm -rf "$own"
done <<<"$products"

if [[ ${#failed[@]} -gt 0 ]]; then
    echo "build-docs: failed for ${failed[*]}" >&2
    exit 1
fi
