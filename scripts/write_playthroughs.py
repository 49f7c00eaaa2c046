"""Write the golden playthroughs: ``tests/playthroughs/<game>-<config>.txt``, one per conformance config.

Run from the repository: ``uv run python scripts/write_playthroughs.py``. Files whose text is unchanged are left
alone, stray ``.txt`` files (a config that is gone) are deleted, and each file's fate and size is printed. Then
review the change with ``git diff tests/playthroughs``: a leak or a rule change shows there.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.playthroughs.transcript import DIRECTORY, playthroughs, transcript  # noqa: E402


def main() -> int:
    wanted = playthroughs()
    names = {item.path.name for item in wanted}
    total = 0
    for item in wanted:
        text = transcript(item.game, item.options)
        old = item.path.read_text(encoding="utf-8") if item.path.exists() else None
        if text != old:
            item.path.write_text(text, encoding="utf-8", newline="\n")
        size = len(text.encode("utf-8"))
        total += size
        state = "new" if old is None else "changed" if text != old else "same"
        print(f"{state:8} {size / 1000:6.1f} KB  {item.path.name}")
    for path in sorted(DIRECTORY.glob("*.txt")):
        if path.name not in names:
            path.unlink()
            print(f"deleted             {path.name}")
    print(f"{len(wanted)} playthroughs, {total / 1000:.1f} KB in all")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
