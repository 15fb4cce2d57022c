"""Draw the layers' imports from the code, as a Mermaid diagram in docs/architecture.md.

    python docs/diagram.py          # print the diagram
    python docs/diagram.py --write  # put it into docs/architecture.md (tests/test_architecture.py checks it is current)

grimp (import-linter's graph) reads every import in the source, those inside
functions too; an arrow is "imports" (no counts: the drawing changes only when
a layer starts or stops importing another).
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import grimp

# The boxes, top to bottom: tournament's layers, then what the whole project shares.
BOXES = {
    "tournament.cli": "cli: the tournament command",
    "tournament.web": "web: tournament serve",
    "tournament.service": "service: operations, export, verify",
    "tournament.output": "output: text, CSV, HTML, SVG",
    "tournament.storage": "storage: tables, event log, database",
    "tournament.formats": "formats: pairing, pods, brackets, standings",
    "referee": "referee: judges game logs",
    "schemas": "schemas: the wire contract",
    "migrations": "migrations: alembic",
}
DOC = Path(__file__).with_name("architecture.md")
START, END = "```mermaid\n", "```\n"


def box(module: str) -> str | None:
    """The box a module is drawn in (the longest name that contains it)."""
    found = [name for name in BOXES if module == name or module.startswith(name + ".")]
    return max(found, key=len) if found else None


def diagram() -> str:
    graph = grimp.build_graph("tournament", "referee", "schemas", "migrations", cache_dir=None)
    arrows = {
        (a, b)
        for module in graph.modules
        for imported in graph.find_modules_directly_imported_by(module)
        if (a := box(module)) and (b := box(imported)) and a != b
    }
    order = list(BOXES)
    ids = {name: name.rpartition(".")[2] for name in BOXES}
    out = ["flowchart TD"]
    out += [f'    {ids[name]}["{label}"]' for name, label in BOXES.items()]
    out += [f"    {ids[a]} --> {ids[b]}" for a, b in sorted(arrows, key=lambda ab: (order.index(ab[0]), order.index(ab[1])))]
    return "\n".join(out) + "\n"


def written(text: str) -> str:
    """docs/architecture.md with `text` as its diagram."""
    doc = DOC.read_text()
    return re.sub(re.escape(START) + r".*?" + re.escape(END), lambda _: START + text + END, doc, count=1, flags=re.S)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write", action="store_true", help="update docs/architecture.md")
    args = parser.parse_args()
    text = diagram()
    if args.write:
        DOC.write_text(written(text))
    else:
        print(text, end="")


if __name__ == "__main__":
    main()
