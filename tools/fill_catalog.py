"""Fill empty German catalog entries from a Python file holding ``T = {(context, msgid): translation}``.

A translator's helper: ``python tools/fill_catalog.py translations.py``. Entries
already translated are left alone; msgids not in the catalog are reported.
"""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

from babel.messages.pofile import read_po, write_po

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from words import catalog_file  # noqa: E402


def main(argv: list[str]) -> int:
    """Fill the German catalog from ``argv[0]``; returns the exit code (1: some msgid is unknown)."""
    table = runpy.run_path(argv[0])["T"]
    path = catalog_file("de")
    with path.open("rb") as src:
        catalog = read_po(src, locale="de")
    unknown = 0
    for (context, msgid), text in table.items():
        message = catalog.get(msgid, context=context)
        if message is None:
            print(f"not in the catalog: {(context, msgid)!r}")
            unknown += 1
            continue
        empty = (
            not message.string if not isinstance(message.string, tuple) else not all(message.string)
        )
        if empty:
            message.string = text
    with path.open("wb") as dst:
        write_po(dst, catalog, width=100, omit_header=False, include_lineno=False)
    return 1 if unknown else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
