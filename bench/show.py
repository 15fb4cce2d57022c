"""Page-size benchmark for `referee show`: how big the judge's view of a bot game is, and how long it takes.

Every state is drawn by the server; the page carries them gzip'd. This prints,
for one bot game per ruleset and player count, the records, the page's size,
what the drawn states would weigh unpacked, and the time to write the page
(wall clock: noisy on a loaded machine; compare rows of one run).

    python bench/show.py                       # every ruleset, fewest and most players, seed 1
    python bench/show.py --rulesets maginot --seed 2
"""

from __future__ import annotations

import argparse
import base64
import gzip
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.bots import bot_header, play
from referee.logio import encode_lines
from referee.rulesets import get as get_ruleset
from referee.rulesets import ids as ruleset_ids
from referee.show import show_page


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rulesets", nargs="*", default=list(ruleset_ids()))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{'ruleset':20} {'players':>7} {'records':>7} {'page KiB':>9} {'unpacked KiB':>12} {'seconds':>8}")
    for ruleset_id in args.rulesets:
        ruleset = get_ruleset(ruleset_id)
        for players in sorted({ruleset.min_players, ruleset.max_players}):
            header = bot_header(ruleset_id, args.seed, players)
            lines = [line + b"\n" for line in encode_lines(header, play(header, args.seed))]
            started = time.perf_counter()
            page = show_page(lines, f"{ruleset_id}.jsonl")
            seconds = time.perf_counter() - started
            packed = re.search(r'id="states"[^>]*>([^<]*)<', page)
            unpacked = len(gzip.decompress(base64.b64decode(packed[1]))) if packed else 0
            print(
                f"{ruleset_id:20} {players:>7} {len(lines) - 1:>7} {len(page.encode()) / 1024:>9.0f}"
                f" {unpacked / 1024:>12.0f} {seconds:>8.2f}"
            )


if __name__ == "__main__":
    main()
