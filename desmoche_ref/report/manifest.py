"""What a report's folder holds, kept beside its pages so that the next report writes only
what changed (issue 27): the manifest (MARKER) keeps each file's SHA-256 and the key of what
each night's page was made from, CACHE what each hand's verdict showed. A page whose key is
unchanged is not made again; a page made again is written only if its bytes changed; a file
no page of the new report is is removed (prune). The result is the folder a report from
scratch makes.

A folder made by a report of before issue 35 (FORMAT 2: a page a hand, `hands/…`) is brought
up to date like any other; its hand pages become pages that send the reader on to the hand on
its night's page (`moved`), and stay that, so that a link to one keeps working.
"""

import hashlib
import json
import os
from typing import TypedDict

MARKER = ".desmoche-report"       # the manifest: the file that says a folder is a report
CACHE = ".desmoche-report-hands"  # each hand's summary, a JSON line each, by the hand's key
FORMAT = 3
OLD_FORMATS = (2,)  # a page a hand (its hands/ pages are moved, not lost)


def stamp(lang: str, here: str, templates: str) -> str:
    """What every page depends on beside its data: the program's version, the language, the
    report's own templates and code (`here`, `templates`), the words it borrows (the Spanish
    catalog, the view's and the verdict's sentences): a page of another program is made again."""
    from importlib.metadata import version

    h = hashlib.sha256(f"{FORMAT} {version('desmoche-ref')} {lang}".encode())
    package = os.path.dirname(here)
    files = [os.path.join(folder, name) for folder in (here, templates) for name in sorted(os.listdir(folder))
             if name.endswith((".py", ".html", ".js", ".css"))]
    files += [os.path.join(package, *name.split("/")) for name in
              ("view.py", "describe.py", "words.py", "cli/view.py", "cli/render.py",
               "locale/es/LC_MESSAGES/desmoche_ref.mo")]
    for path in files:
        try:
            with open(path, "rb") as f:
                h.update(f.read())
        except OSError:  # a file moved by a later version: the version and the rest still say it
            h.update(path.encode())
    return h.hexdigest()


def key(*parts) -> str:
    return hashlib.sha256(repr(parts).encode("utf-8")).hexdigest()[:32]


class Manifest:
    """The files of a report (path -> SHA-256; the cache's too), the key each night's page was
    made from (path -> key), the hands' summaries (hand key -> JSON) and the pages of hands
    moved to their night's page (old path -> the page it sends the reader to), read from a
    folder (empty when it holds none, or one of another program)."""

    def __init__(self, stamp_=""):
        self.stamp, self.files, self.keys, self.summaries, self.digest = stamp_, {}, {}, {}, None
        self.moved = {}

    @classmethod
    def read(cls, root, stamp_):
        out = cls(stamp_)
        try:
            with open(os.path.join(root, MARKER), "rb") as f:
                raw = f.read()
            data = json.loads(raw)
        except (OSError, ValueError):
            return out
        if not isinstance(data, dict):
            return out
        if data.get("format") in OLD_FORMATS:  # a page a hand: each is to be sent on
            out.moved = {path: None for path in data.get("files", {}) if path.startswith("hands/")}
            return out
        if data.get("format") != FORMAT:
            return out
        out.files, out.digest = data.get("files", {}), hashlib.sha256(raw).hexdigest()
        out.moved = data.get("moved", {})
        if data.get("stamp") == stamp_:
            out.keys = data.get("keys", {})
            try:
                with open(os.path.join(root, CACHE), encoding="utf-8") as f:
                    for line in f:
                        k, _tab, summary = line.rstrip("\n").partition("\t")
                        out.summaries[k] = summary
            except OSError:
                out.keys = {}
        return out

    def write(self, root, old) -> list[str]:
        """Write the cache, then the manifest, each only if it changed (the cache line by
        line: it is a line a hand): the names written."""
        written, h = [], hashlib.sha256()
        for k, v in self.summaries.items():
            h.update(f"{k}\t{v}\n".encode("utf-8"))
        self.files[CACHE] = h.hexdigest()
        path = os.path.join(root, CACHE)
        if old.files.get(CACHE) != self.files[CACHE] or not os.path.exists(path):
            with open(f"{path}.tmp{os.getpid()}", "w", encoding="utf-8") as f:
                for k, v in self.summaries.items():
                    f.write(f"{k}\t{v}\n")
            os.replace(f"{path}.tmp{os.getpid()}", path)
            written.append(CACHE)
        data = json.dumps({"format": FORMAT, "stamp": self.stamp, "files": self.files, "keys": self.keys,
                           "moved": self.moved}, sort_keys=True, indent=0).encode("utf-8")
        if hashlib.sha256(data).hexdigest() != old.digest or not os.path.exists(os.path.join(root, MARKER)):
            atomic(os.path.join(root, MARKER), data)
            written.append(MARKER)
        return written


def atomic(path, data: bytes):
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


class Counted(TypedDict):
    """What a Writer counts as it writes."""

    pages: int
    bytes: int
    written: list[str]      # the files written (a page unchanged is not)


class Figures(Counted, total=False):
    """What a report's build did (site.py: build), as `report` tells it."""

    season_bytes: int       # index.html's size
    removed: list[str]      # the files pruned
    hands: int


class Writer:
    """Writes a page only when its bytes differ from the manifest's; counts what it wrote."""

    def __init__(self, root, old: Manifest, new: Manifest):
        self.root, self.old, self.new = root, old, new
        self.figures: Figures = {"pages": 0, "bytes": 0, "written": []}

    def put(self, page: str, *parts: str):
        """Write `page`, the strings `parts` one after the other (an iterable among them is
        written as it yields: a long list is never one string)."""
        path = os.path.join(self.root, page)
        tmp, h, size = f"{path}.tmp{os.getpid()}", hashlib.sha256(), 0
        with open(tmp, "wb") as f:
            for part in parts:
                for text in ([part] if isinstance(part, str) else part):
                    data = text.encode("utf-8")
                    h.update(data)
                    f.write(data)
                    size += len(data)
        digest = h.hexdigest()
        self.new.files[page] = digest
        self.figures["pages"] += page.endswith(".html")
        self.figures["bytes"] += size
        if page == "index.html":
            self.figures["season_bytes"] = size
        if self.old.files.get(page) == digest and os.path.exists(path):
            os.unlink(tmp)
            return
        os.replace(tmp, path)
        self.figures["written"].append(page)

    def record(self, page: str, digest: str, written: bool):
        """A page another process wrote (or found as it would have written it)."""
        self.new.files[page] = digest
        self.figures["pages"] += 1
        if written:
            self.figures["written"].append(page)

    def keep(self, page: str) -> bool:
        """Keep a page made before as it is (True), if it is there."""
        digest = self.old.files.get(page)
        if digest is None or not os.path.exists(os.path.join(self.root, page)):
            return False
        self.new.files[page] = digest
        self.figures["pages"] += 1
        return True

    def there(self, page: str):
        """The SHA-256 the manifest holds of a page that is there, else None."""
        if not os.path.exists(os.path.join(self.root, page)):
            return None
        return self.old.files.get(page)


def prune(root, manifest: Manifest) -> list[str]:
    """Remove every file of the folder that the report now is not (a page of a hand no longer
    picked, a file put there by hand): the folder holds what a report from scratch holds."""
    keep = set(manifest.files) | {MARKER, CACHE}
    removed = []
    for folder, dirs, names in os.walk(root, topdown=False):
        for name in names:
            path = os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/")
            if path not in keep:
                os.unlink(os.path.join(folder, name))
                removed.append(path)
        if folder != root and not os.listdir(folder) and os.path.basename(folder) == "hands":
            os.rmdir(folder)  # the hand pages' folder of a report before issue 35, now empty
    return sorted(removed)
