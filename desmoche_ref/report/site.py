"""The report written: a folder of pages (a season page, a page a night, a hand, a player),
or the season page alone as one self-contained file. Nothing is fetched from anywhere: the
style sheet and the replay's script sit beside the pages (or inside the one file).

The season's data comes from the store (store/season.py: a `reader` with `.season` and
`.records(hands)`); this package renders it. The hand pages are most of the work (each
hand judged again and its table drawn after every move): they are read from the book a
batch at a time, half of each batch written by a child process forked for it, half by this
one, so a season takes both cores and no more memory than a batch.

A folder that holds a report is brought up to date (issue 27): its manifest (MARKER) keeps
each file's SHA-256 and the key of what each hand's and night's page was made from, and
CACHE what each hand's verdict showed. A page whose key is unchanged is not made again; a
page made again is written only if its bytes changed; a file no page of the new report is
is removed. The result is the same folder a report made from scratch would be.
"""

import hashlib
import json
import os
from datetime import datetime, timezone

from markupsafe import Markup

from . import pages
from .judge import judge
from .values import Shown, player_values, season_values

MARKER = ".desmoche-report"       # the manifest: the file that says a folder is a report
CACHE = ".desmoche-report-hands"  # each hand's summary, a JSON line each, by the hand's key
FORMAT = 2
ROWS = "\x00rows\x00"  # where a player page's hands go (written as they come)


def _context(lang):
    from importlib.metadata import version

    return {"lang": lang, "version": version("desmoche-ref"), "made": None}


def stamp(lang: str) -> str:
    """What every page depends on beside its data: the program's version, the language, the
    report's own templates and code, the words it borrows (the Spanish catalog, the view's
    and the verdict's sentences): a page of another program is made again."""
    from importlib.metadata import version

    h = hashlib.sha256(f"{FORMAT} {version('desmoche-ref')} {lang}".encode())
    here = os.path.dirname(__file__)
    package = os.path.dirname(here)
    files = [os.path.join(folder, name) for folder in (here, pages.TEMPLATES) for name in sorted(os.listdir(folder))
             if name.endswith((".py", ".html", ".js", ".css"))]
    files += [os.path.join(package, *name.split("/")) for name in
              ("view.py", "describe.py", "cli/view.py", "cli/render.py", "locale/es/LC_MESSAGES/desmoche_ref.mo")]
    for path in files:
        try:
            with open(path, "rb") as f:
                h.update(f.read())
        except OSError:  # a file moved by a later version: the version and the rest still say it
            h.update(path.encode())
    return h.hexdigest()


def _key(*parts) -> str:
    return hashlib.sha256(repr(parts).encode("utf-8")).hexdigest()[:32]


class Manifest:
    """The files of a report (path -> SHA-256; the cache's too), the key each hand's and
    night's page was made from (path -> key) and the hands' summaries (hand key -> JSON), read
    from a folder (empty when it holds none, or one of another program)."""

    def __init__(self, stamp_=""):
        self.stamp, self.files, self.keys, self.summaries, self.digest = stamp_, {}, {}, {}, None

    @classmethod
    def read(cls, root, stamp_):
        out = cls(stamp_)
        try:
            with open(os.path.join(root, MARKER), "rb") as f:
                raw = f.read()
            data = json.loads(raw)
        except (OSError, ValueError):
            return out
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            return out
        out.files, out.digest = data.get("files", {}), hashlib.sha256(raw).hexdigest()
        if data.get("stamp") == stamp_:
            out.keys = data.get("keys", {})
            try:
                with open(os.path.join(root, CACHE), encoding="utf-8") as f:
                    for line in f:
                        key, _tab, summary = line.rstrip("\n").partition("\t")
                        out.summaries[key] = summary
            except OSError:
                out.keys = {}
        return out

    def write(self, root, old) -> list:
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
        data = json.dumps({"format": FORMAT, "stamp": self.stamp, "files": self.files, "keys": self.keys},
                          sort_keys=True, indent=0).encode("utf-8")
        if hashlib.sha256(data).hexdigest() != old.digest or not os.path.exists(os.path.join(root, MARKER)):
            _atomic(os.path.join(root, MARKER), data)
            written.append(MARKER)
        return written


def _atomic(path, data: bytes):
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


class Writer:
    """Writes a page only when its bytes differ from the manifest's; counts what it wrote."""

    def __init__(self, root, old: Manifest, new: Manifest):
        self.root, self.old, self.new = root, old, new
        self.figures = {"pages": 0, "bytes": 0, "written": []}

    def put(self, page: str, *parts: str):
        """Write `page`, the strings `parts` one after the other (an iterable among them is
        written as it yields: a player's twenty thousand rows are never one string)."""
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


def _neighbours(season, paths):
    """For each hand of the season (in order): its page, the previous and the next hand's
    page at the same night, and its night's page."""
    out = []
    for night in season.nights:
        keys = [paths.hand(h.table, h.number) for h in night.hands]
        for k, h in enumerate(night.hands):
            out.append((h, keys[k], keys[k - 1] if k else None, keys[k + 1] if k + 1 < len(keys) else None,
                        paths.night(h.table, h.day)))
    return out


def _hand_pages(items, root, base, paths):
    """Write the hand pages of `items` ((index, record, page, previous, next, night, the SHA-256
    of the page there now or None)) into `root` (None: make none, only the summaries); yields
    (index, summary as JSON, page, its bytes' SHA-256, whether it was written) for each."""
    from .. import rulebook

    env = pages.environment(base["lang"])
    gettext = env.globals["_"]
    template = env.get_template("hand.html")
    rules = rulebook.load(base["lang"])
    for index, record, page, before, after, night, there in items:
        hand, text = record.hand, record.text
        judged = judge(text, replay=root is not None)
        out = judged.report.as_json()
        if root is None:
            yield index, json.dumps(pages.summary(judged, out), separators=(",", ":")), page, None, False
            continue
        moves = {s.line: s.move for s in judged.steps}
        html = template.render(base, root="../", inline=False, links=True, hand=hand, steps=judged.steps,
                               replay=pages.replay_html(judged.steps, gettext),
                               record=pages.record_html(text, moves, record.recorders, gettext),
                               recorder=pages.recorded_by(record.recorders),
                               findings=pages.findings(judged.report, rules, moves),
                               previous=before, next=after, night=night, paths=paths, out=out,
                               outcome=pages.outcome(judged.report, out))
        data = html.encode("utf-8")
        digest = hashlib.sha256(data).hexdigest()
        if digest != there:
            _atomic(os.path.join(root, page), data)
        yield index, json.dumps(pages.summary(judged, out), separators=(",", ":")), page, digest, digest != there


def _there(root, old, page):
    """The SHA-256 the manifest holds of a page that is there, else None."""
    if root is None or not os.path.exists(os.path.join(root, page)):
        return None
    return old.files.get(page)


def _judged(items, root, base, paths, forked):
    """The hand pages of `items` made: half in a child forked for it, half here."""
    from itertools import zip_longest

    mine, theirs = items[0::2], items[1::2]
    produced = (_hand_pages(mine, root, base, paths), forked(_hand_pages, theirs, root, base, paths)
                if theirs else iter(()))
    for pair in zip_longest(*produced):
        yield from (got for got in pair if got is not None)


def _make_hands(reader, season, paths, base, root, old, new, writer, progress):
    """Every hand's summary (JSON, in the season's order): a hand page whose key is the one
    the manifest holds is kept, the others made, read from the book a batch at a time."""
    from ..store.forked import forked
    from ..store.season import BATCH

    everything = _key(sorted(paths.players.items()), sorted(paths.tables.items()))
    entries = _neighbours(season, paths)
    summaries, todo = [None] * len(entries), []
    for i, (hand, page, before, after, night) in enumerate(entries):
        key = _key(hand.key, before, after, night, everything)
        new.keys[page] = key
        cached = old.summaries.get(hand.key)
        if cached is not None and old.keys.get(page) == key and (root is None or writer.keep(page)):
            summaries[i] = cached
            if progress:
                progress(1)
        else:
            todo.append(i)
    for start in range(0, len(todo), BATCH):
        part = todo[start:start + BATCH]
        records = reader.records([entries[i][0] for i in part])
        items = [(i, record, *entries[i][1:], _there(root, old, entries[i][1])) for i, record in zip(part, records)]
        for i, summary, page, digest, written in _judged(items, root, base, paths, forked):
            summaries[i] = summary
            if root is not None:
                writer.record(page, digest, written)
            if progress:
                progress(1)
    for (hand, *_rest), summary in zip(entries, summaries):
        new.summaries[hand.key] = summary
    return [Shown.of(hand, s) for (hand, *_rest), s in zip(entries, summaries)]


def build(reader, root: str, lang: str, progress=None, inline_file=None) -> dict:
    """Write the report of `reader.season` into the folder `root` (new, empty or a report made
    before: brought up to date), or, with `inline_file`, the season page alone into that file.
    `progress(n)`: n more hands done. Returns figures: pages and bytes, the files written."""
    season = reader.season
    paths = pages.Paths(season.tables, season.players)
    base = _context(lang)
    env = pages.environment(lang)
    current = stamp(lang)
    old = Manifest.read(root, current) if inline_file is None else Manifest(current)
    new = Manifest(current)
    writer = Writer(root, old, new)
    if inline_file is None:
        for folder in ("hands", "nights", "players", "assets"):
            os.makedirs(os.path.join(root, folder), exist_ok=True)
        for name in pages.ASSETS:
            writer.put(f"assets/{name}", pages.asset(name))
    env.get_template("hand.html")  # compiled here once: the children forked for the hands have it
    shown = _make_hands(reader, season, paths, base, None if inline_file else root, old, new, writer, progress)
    old.summaries = {}  # what is still wanted, new.summaries holds
    made = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    base = dict(base, head=season.head)  # the season page says which book it shows
    values = season_values(season, shown, paths)
    if inline_file is not None:
        html = env.get_template("season.html").render(base, root="", inline=True, css=Markup(pages.asset("report.css")),
                                                      links=False, made=made, **values)
        with open(inline_file, "w", encoding="utf-8") as f:
            f.write(html)
        return {"hands": len(shown), "pages": 1, "bytes": len(html.encode("utf-8")), "written": [inline_file]}
    writer.put("index.html", env.get_template("season.html").render(base, root="", inline=False, links=True,
                                                                    made=made, **values))
    _night_pages(env, base, season, shown, paths, old, new, writer)
    for name in season.players:
        values = player_values(name, season, shown, paths)
        rows, values["hand_rows"] = values["hand_rows"], Markup(ROWS)
        head, tail = env.get_template("player.html").render(base, root="../", inline=False, links=True,
                                                            **values).split(ROWS)
        writer.put(paths.player(name), head, rows(), tail)
    figures = writer.figures
    figures["written"] += new.write(root, old)
    figures["removed"] = prune(root, new)
    figures["hands"] = len(shown)
    return figures


def _night_pages(env, base, season, shown, paths, old, new, writer):
    """A page a night; one whose hands, money and voids are as before is kept."""
    template = env.get_template("night.html")
    by_key = {(s.table, s.number): s for s in shown}
    everything = _key(sorted(paths.players.items()), sorted(paths.tables.items()))
    for night in season.nights:
        page = paths.night(night.table, night.day)
        key = _key([(h.key, sorted(h.money.items())) for h in night.hands], sorted(night.balances.items()),
                   night.voided, everything)
        new.keys[page] = key
        if old.keys.get(page) == key and writer.keep(page):
            continue
        rows = [by_key[(h.table, h.number)].full() for h in night.hands]
        seated = list(dict.fromkeys(name for r in rows for name in r["players"]))
        writer.put(page, template.render(base, root="../", inline=False, links=True, night=night, rows=rows,
                                         seated=seated, paths=paths, party=pages.party))


def prune(root, manifest: Manifest) -> list:
    """Remove every file of the folder that the report now is not (a page of a hand no longer
    picked, a file put there by hand): the folder holds what a report from scratch holds."""
    keep = set(manifest.files) | {MARKER, CACHE}
    removed = []
    for folder, _dirs, names in os.walk(root):
        for name in names:
            path = os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/")
            if path not in keep:
                os.unlink(os.path.join(folder, name))
                removed.append(path)
    return sorted(removed)
