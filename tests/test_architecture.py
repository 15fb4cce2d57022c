"""docs/architecture.md's diagram is the code's: drawn again from the imports, it is unchanged.

(The import rules themselves are import-linter's contracts in pyproject.toml, run by `lint-imports` in tox's lint env.)
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_architecture_diagram_is_drawn_from_the_current_imports() -> None:
    spec = importlib.util.spec_from_file_location("diagram", ROOT / "docs" / "diagram.py")
    assert spec is not None and spec.loader is not None
    diagram = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(diagram)
    doc = (ROOT / "docs" / "architecture.md").read_text()
    assert diagram.written(diagram.diagram()) == doc, "run: python docs/diagram.py --write"
