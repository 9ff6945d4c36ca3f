#!/usr/bin/env bash
# Builds one linked DocC manual of every library product, offline, with the toolchain's own tools: `swift build`
# (nothing to do after the CI's `swift test` or a plain `swift build` with the same SWIFT_BUILD_FLAGS), each
# product's symbol graph by `swift-symbolgraph-extract` from the modules that build made (the products alone:
# `swift package dump-symbol-graph` extracts every module and fails on a build without the tests), then
# `docc convert --warnings-as-errors` once per product with its catalog (`<Target>.docc/<Target>.md`, the landing
# page, which every product must have), in dependency order, each given its dependencies' archives (`--dependency`)
# so that a type another module hands out is a link, in a declaration and in a ``/FTWSession/SessionEvent`` link
# alike; then `docc merge` joins them into one archive. Fails, naming the product, on any warning (an unresolved
# link, an undocumented parameter) or a missing catalog.
#
#   Tools/build-docs.sh                    # every product: .build-docs/ftw-core.doccarchive
#   Tools/build-docs.sh FTWClient FTWBus   # those and what they depend on
#
# Open it: `python3 -m http.server -d .build-docs/ftw-core.doccarchive 8000`, then
# http://localhost:8000/documentation/ftwclient/ (an archive is a static site; a browser cannot read it from file://).
set -euo pipefail
cd "$(dirname "$0")/.."

read -r -a flags <<<"${SWIFT_BUILD_FLAGS:-}"
out=.build-docs
swift build "${flags[@]}" >/dev/null
bin=$(swift build "${flags[@]}" --show-bin-path)
triple=$(swift -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')
extract=("$(dirname "$(command -v swift)")/swift-symbolgraph-extract" -target "$triple" -I "$bin/Modules"
    -module-cache-path "$bin/ModuleCache" -minimum-access-level public -skip-synthesized-members -omit-extension-block-symbols)
while read -r map; do extract+=(-Xcc "-fmodule-map-file=$PWD/$map"); done < <(find Modules Apps -name module.modulemap)

# Every library product's target, its folder and the products' targets it depends on (directly or not), dependencies
# first, from the manifest; with arguments, those products and what they depend on.
products=$(swift package describe --type json 2>/dev/null | python3 -c '
import json, sys
package = json.load(sys.stdin)
targets = {target["name"]: target for target in package["targets"]}
libraries = [p["targets"][0] for p in package["products"] if "library" in p["type"]]
def direct(name):
    target = targets[name]
    return target.get("target_dependencies", []) + target.get("product_dependencies", [])
def below(name, seen):
    for dependency in direct(name):
        if dependency in targets and dependency not in seen:
            seen.add(dependency)
            below(dependency, seen)
    return seen
wanted = set(sys.argv[1:]) or set(libraries)
wanted |= {d for name in list(wanted) if name in targets for d in below(name, set()) if d in libraries}
done = []
def visit(name):
    if name in done or name not in wanted:
        return
    for dependency in sorted(below(name, set())):
        visit(dependency)
    done.append(name)
for name in libraries:
    visit(name)
for name in done:
    deps = sorted(d for d in below(name, set()) if d in libraries)
    print(name, targets[name]["path"], *deps)
' "$@")

rm -rf "$out"
mkdir -p "$out/modules"
failed=()
while read -r target path dependencies; do
    catalog="$path/$target.docc"
    if [[ ! -f $catalog/$target.md ]]; then
        echo "build-docs: $target has no landing page ($catalog/$target.md)" >&2
        failed+=("$target")
        continue
    fi
    own=$(mktemp -d)
    mkdir "$own/graphs"
    if ! "${extract[@]}" -module-name "$target" -output-dir "$own/graphs" >"$own/log" 2>&1; then
        cat "$own/log" >&2
        failed+=("$target")
        continue
    fi
    linked=()
    for dependency in $dependencies; do
        [[ -d $out/modules/$dependency.doccarchive ]] && linked+=(--dependency "$out/modules/$dependency.doccarchive")
    done
    if docc convert "$catalog" --additional-symbol-graph-dir "$own/graphs" --warnings-as-errors \
        --enable-experimental-external-link-support "${linked[@]}" \
        --fallback-display-name "$target" --fallback-bundle-identifier "energy.ftw.$target" \
        --output-path "$out/modules/$target.doccarchive" >"$own/log" 2>&1; then
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
docc merge "$out"/modules/*.doccarchive --synthesized-landing-page-name ftw-core \
    --synthesized-landing-page-kind Package --output-path "$out/ftw-core.doccarchive" >/dev/null
echo "build-docs: one manual of $(ls -d "$out"/modules/*.doccarchive | wc -l) products in $out/ftw-core.doccarchive"
