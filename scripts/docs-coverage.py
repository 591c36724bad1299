#!/usr/bin/env python3
"""Lists the public symbols of Errand's modules that have no doc comment of their own.

    scripts/docs-coverage.py <symbol-graph-dir> <Module>...

Reads <symbol-graph-dir>/<Module>/*.symbols.json (from `swift symbolgraph-extract`, which
scripts/docs runs) and exits 1 when a symbol whose access level is public or open has no doc
comment written in the project: none at all, or only one inherited from a module outside the
project (say `description`, documented by the standard library's `CustomStringConvertible`).
Members the compiler makes are not the project's to document: synthesized ones (default
implementations of other modules' protocols, which `-skip-synthesized-members` leaves out
anyway) and implicit ones, which have no place in the source (an enum's `init(rawValue:)`, a
`Codable` type's `init(from:)`). Nor are extension blocks of another module's types (`extension
NetworkDispatcher` in ErrandPolicies, which `-emit-extension-block-symbols` lists so that DocC
gives their members pages): the members are checked, the block has nothing of its own to say.
"""

import json
import sys
from pathlib import Path


def has_own_comment(symbol, modules):
    """Whether the symbol carries a doc comment with text, written in one of `modules`."""
    comment = symbol.get("docComment")
    if not comment:
        return False
    if comment.get("module") not in (None, *modules):
        return False
    return any(line.get("text", "").strip() for line in comment.get("lines", []))


def location(symbol):
    """`path/to/File.swift:line` of the declaration, relative to the repository when possible."""
    where = symbol.get("location")
    if not where:
        return "?"
    uri = where.get("uri", "").removeprefix("file://")
    marker = "/Sources/"
    if marker in uri:
        uri = "Sources/" + uri.split(marker, 1)[1]
    return f"{uri}:{where['position']['line'] + 1}"


def undocumented(graph_dir, module, modules):
    """The undocumented public symbols of one module, as printable lines, without repeats."""
    found = {}
    for path in sorted((graph_dir / module).glob("*.symbols.json")):
        graph = json.loads(path.read_text())
        for symbol in graph.get("symbols", []):
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            identifier = symbol["identifier"]["precise"]
            if "::SYNTHESIZED::" in identifier or "location" not in symbol:
                continue  # made by the compiler, not written in Sources/
            if symbol["kind"]["identifier"] == "swift.extension":
                continue  # the block of an extension to another module's type; its members count
            if has_own_comment(symbol, modules):
                continue
            title = ".".join(symbol.get("pathComponents", [])) or symbol["names"]["title"]
            kind = symbol["kind"]["displayName"]
            found[identifier] = f"{location(symbol)}: {kind} {title}"
    return sorted(found.values())


def main(arguments):
    if len(arguments) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    graph_dir, modules = Path(arguments[0]), arguments[1:]
    missing = 0
    counted = 0
    for module in modules:
        if not list((graph_dir / module).glob("*.symbols.json")):
            print(f"docs-coverage: no symbol graph for {module} in {graph_dir}", file=sys.stderr)
            return 1
        for line in undocumented(graph_dir, module, modules):
            print(line)
            missing += 1
        for path in (graph_dir / module).glob("*.symbols.json"):
            symbols = json.loads(path.read_text()).get("symbols", [])
            counted += sum(1 for s in symbols if s.get("accessLevel") in ("public", "open"))
    if missing:
        print(f"docs-coverage: {missing} public symbols have no doc comment (add a /// summary)",
              file=sys.stderr)
        return 1
    print(f"docs-coverage: all {counted} public symbols of {', '.join(modules)} are documented",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
