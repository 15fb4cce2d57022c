"""Fixtures shared by every test package: a real headless Chromium for page tests.

Pages are checked in Debian's `chromium` (`/usr/bin/chromium`, installed by
`.ci/run`), driven by Playwright from PyPI; Playwright cannot download its own
browser here. Without a Chromium the browser tests skip, except under `CI`,
where they fail: CI must run them.
"""

from __future__ import annotations

import functools
import os
import shutil
import sys
from collections.abc import Iterator
from typing import Any

import pytest
import typer.testing

# The commands under test (`tournament`, `referee`) are this interpreter's, a venv's even when it is not
# activated, never those of another install earlier on the PATH.
os.environ["PATH"] = os.pathsep.join([os.path.dirname(sys.executable), os.environ.get("PATH", "")])

# typer's CliRunner builds the whole command tree again at each invoke (about a quarter of a second: every
# command's signature and type hints read); the apps never change under test, so each is built once.
typer.testing._get_command = functools.cache(typer.testing._get_command)  # type: ignore[attr-defined]

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def chromium_path() -> str | None:
    """Debian's Chromium, or one named by `CHROMIUM` (a path)."""
    return os.environ.get("CHROMIUM") or shutil.which("chromium") or (
        "/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None
    )


def _unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI is set, so the browser tests must run)")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One headless Chromium for the whole run (Playwright's sync API)."""
    path = chromium_path()
    if path is None:
        _unavailable("no Chromium: install Debian's chromium package")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("playwright is not installed (pip install -e '.[test]')")
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


def _phone(browser: Any) -> Iterator[Any]:
    """A page in its own context (its own cookies), 390x844 like a phone; closed afterwards."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        yield context.new_page()
    finally:
        context.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh phone-sized page: no cookies shared between tests."""
    yield from _phone(browser)


@pytest.fixture
def second(browser: Any) -> Iterator[Any]:
    """Another phone beside `page`, with cookies of its own (a second player)."""
    yield from _phone(browser)
