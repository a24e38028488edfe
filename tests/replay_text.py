"""The replay's text read back as replay.js reads it (report/templates/replay.js, the same
rules, in Python): the tests hold what it draws at each step to what `view --at` shows.

`read(html)` takes a night page (or one hand's part of it) and gives, for each hand, its
steps: (move, line, the record's line, the table after it: seats, labelled parts, turn).
"""

import re
from html import unescape
from html.parser import HTMLParser

SEP, MORE = " · ", "… "
CARD = re.compile(r"(?<![\w])(10|[2-9JQKA])([♠♥♦♣])")


class _Steps(HTMLParser):
    """Each <li id=hN-mK> of each <ol class=replay>: its own text (not a note's span)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.steps, self.current, self.depth = [], None, 0
        self.attrs = {}

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "div" and "replays" in (attrs.get("class") or "").split():
            self.attrs = attrs
        if tag == "li" and re.match(r"h\d+-m\d+$", attrs.get("id") or ""):
            self.current = [attrs["id"], ""]
            self.steps.append(self.current)
            self.depth = 0
        elif self.current is not None and tag == "span":
            self.depth += 1
        elif tag in ("ol", "section"):
            self.current = None

    def handle_endtag(self, tag):
        if self.current is not None and tag == "span":
            self.depth -= 1
        if tag == "ol":
            self.current = None

    def handle_data(self, data):
        if self.current is not None and self.depth == 0:
            self.current[1] += data


def seat(part: str, active: str):
    m = re.match(r"^(\S+) (?:\(([^)]*)\) )?(.*)$", part)
    rest = m.group(3)
    held = rest.split("[")[0].strip()
    unknown = re.search(r"\+(\d+)\?", held)
    return m.group(1), {"status": m.group(2) or active, "hand": [c.group(0) for c in CARD.finditer(held)],
                        "unknown": int(unknown.group(1)) if unknown else 0,
                        "melds": [[c.group(0) for c in CARD.finditer(meld)]
                                  for meld in re.findall(r"\[[^\]]*\]", rest)]}


def read(html: str) -> dict:
    """{hand number: [(move, line, the line as written, {"seats", "labels", "turn"})]}."""
    parser = _Steps()
    parser.feed(html)
    turn_key, active = unescape(parser.attrs.get("data-turn", "turn")), unescape(parser.attrs.get("data-in", "in"))
    out, state = {}, None
    for ident, text in parser.steps:
        hand, move = (int(x) for x in re.match(r"h(\d+)-m(\d+)", ident).groups())
        if move == 1:
            state = {"seats": {}, "labels": {}, "turn": None}
        first, _nl, changed = text.partition("\n")
        state = {"seats": dict(state["seats"]), "labels": dict(state["labels"]), "turn": None}
        for part in changed.split(SEP) if changed else []:
            if ": " not in part:
                name, s = seat(part, active)
                state["seats"][name] = s
                continue
            label, words = part.split(": ", 1)
            if label == turn_key:
                state["turn"] = words
            elif words.startswith(MORE) and label in state["labels"]:
                state["labels"][label] += " " + words[len(MORE):]
            else:
                state["labels"][label] = words
        line, _sp, written = first.partition(" ")
        out.setdefault(hand, []).append((move, int(line), written.rstrip(), state))
    return out
