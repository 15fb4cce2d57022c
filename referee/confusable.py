"""Card names compared as people see them (T-164): Unicode's confusable skeleton (UTS #39, section 4) after NFKC.

Two names with one skeleton look alike on a page or a printed list: `Lightning Bolt` with a Cyrillic `а`, a
no-break space, a zero-width space or a right-to-left override in it is the same card to a reader, and a
second copy of it must not pass a one-copy rule (XO-1.3). The table is Unicode's own (confusables.txt,
kept as referee/confusables.json: each character's prototype); no library on PyPI gives the skeleton itself
(issue 34 weighed `confusables`, `confusable-homoglyphs` and `disarm`: each matches or lists look-alikes, none
maps a string to its skeleton, and each is 1 to 5 MB installed against this 77 KB table).
"""

from __future__ import annotations

import json
import re
import unicodedata
from functools import cache

# Characters a reader cannot see or that change what the others look like: controls, format characters (the
# zero-width space, the bidirectional overrides), private use, unassigned, line and paragraph separators, and
# every space but the plain one (a no-break space looks like a space and is not one).
_UNSEEN = frozenset(("Cc", "Cf", "Co", "Cn", "Cs", "Zl", "Zp"))
_SPACES = re.compile(r"\s+")


@cache
def _prototypes() -> dict[str, str]:
    import importlib.resources  # here: 5 ms of imports every `referee` run would pay, for the deck path alone

    text = importlib.resources.files("referee").joinpath("confusables.json").read_text("utf-8")
    prototypes: dict[str, str] = json.loads(text)["prototypes"]
    return prototypes


def unseen(text: str) -> str | None:
    """The first character of `text` a reader cannot tell is there (or tell from a plain space), else None."""
    for char in text:
        kind = unicodedata.category(char)
        if kind in _UNSEEN or (kind == "Zs" and char != " "):
            return char
    return None


def described(char: str) -> str:
    """`U+200B ZERO WIDTH SPACE`: a character no one can see, named."""
    return f"U+{ord(char):04X} {unicodedata.name(char, 'unnamed')}"


def skeleton(name: str) -> str:
    """The name as it looks: NFKC; what cannot be seen dropped and spaces made one; then UTS #39's skeleton
    (NFD, each character its prototype, NFD again). Equal skeletons: names a reader takes for one."""
    folded = unicodedata.normalize("NFKC", name)
    shown = "".join(c if unicodedata.category(c) != "Zs" else " " for c in folded if unicodedata.category(c) not in _UNSEEN)
    prototypes = _prototypes()
    mapped = "".join(prototypes.get(c, c) for c in unicodedata.normalize("NFD", _SPACES.sub(" ", shown).strip()))
    return unicodedata.normalize("NFD", mapped)
