"""Fill translations into the Spanish catalog from a JSON file of {msgid: msgstr} (a plural's
msgstr a list of its plural forms, as many as the catalog has), then compile it:
`python tools/translate.py FILE.json`. For a batch of new messages after `python tools/catalog.py`
listed them; `catalog.py --check` still has the last word."""

import json
import sys

from babel.messages.pofile import write_po

from catalog import MO, PO, compiled, read_catalog  # tools/ is on sys.path when run as a script


def main(path: str) -> int:
    with open(path, encoding="utf-8") as f:
        wanted = json.load(f)
    catalog = read_catalog()
    missing = []
    for msgid, msgstr in wanted.items():
        message = catalog.get(msgid)
        if message is None:
            missing.append(msgid)
            continue
        message.string = tuple(msgstr) if isinstance(msgstr, list) else msgstr
        message.flags.discard("fuzzy")
    with open(PO, "wb") as f:
        write_po(f, catalog, width=100, omit_header=False, sort_output=False)
    MO.write_bytes(compiled(catalog))
    for msgid in missing:
        print(f"not in the catalog: {msgid!r}", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
