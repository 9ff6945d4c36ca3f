#!/usr/bin/env bash
# Docs that compile: every ```swift block of README.md, docs/, the DocC catalogs and the `///` doc comments of the
# modules' and apps' sources (the `///` taken off) must be a contiguous run of lines (the same lines, any
# indentation added to all of them) of a Swift file CI builds: the DocSnippets target (Examples/Snippets, built by
# `swift test`), a test target's `DocSnippets.swift` (for a module FTWDocSnippets cannot import) or an example
# package (Examples/*, built and run by Tools/run-example.sh and Tools/run-live-home.sh). Prints FILE:LINE for each
# block found nowhere and exits 1 if there is any.
set -euo pipefail
cd "$(dirname "$0")/.."

python3 - <<'PYTHON'
import pathlib, re, sys

docs = [pathlib.Path("README.md"), *sorted(pathlib.Path("docs").rglob("*.md"))]
docs += sorted(path for path in pathlib.Path(".").glob("**/*.docc/**/*.md") if ".build" not in str(path))
sources = [path for path in pathlib.Path("Examples").rglob("*.swift") if ".build" not in path.parts]
# A module FTWDocSnippets cannot import (a test support, the tooling) keeps its doc comments' blocks in its tests.
sources += sorted(pathlib.Path(".").glob("*/*/Tests/*/DocSnippets.swift"))
texts = {path: path.read_text().split("\n") for path in sources}
# The doc comments DocC renders: a `///` line's text after the marker and its one space.
commented = sorted(path for top in ("Modules", "Apps") for path in pathlib.Path(top).glob("*/Sources/**/*.swift"))

def lines_of(path):
    lines = path.read_text().split("\n")
    if path.suffix != ".swift":
        return lines
    return [re.sub(r"^///( |$)", "", line.strip()) if line.strip().startswith("///") else "" for line in lines]

def blocks(path):
    lines = lines_of(path)
    start = None
    for number, line in enumerate(lines, 1):
        if start is None and re.match(r"^\s*```swift\s*$", line):
            start, body = number, []
        elif start is not None and re.match(r"^\s*```\s*$", line):
            yield start, body
            start = None
        elif start is not None:
            body.append(line)

def dedented(lines):
    indents = [len(line) - len(line.lstrip()) for line in lines if line.strip()]
    cut = min(indents, default=0)
    return [line[cut:] for line in lines]

def found(block):
    block = dedented(block)
    while block and not block[-1].strip():
        block.pop()
    for lines in texts.values():
        for at in range(len(lines) - len(block) + 1):
            if dedented(lines[at:at + len(block)]) == block:
                return True
    return False

missing = [f"{path}:{number}" for path in docs + commented for number, block in blocks(path) if not found(block)]
for place in missing:
    print(f"{place}: this Swift block is in no snippet (Examples/Snippets, a test target's DocSnippets.swift) or "
          "example package CI builds")
if missing:
    sys.exit(1)
print(f"check-doc-snippets: every Swift block of {len(docs)} documents and the doc comments of {len(commented)} "
      "source files is compiled")
PYTHON
