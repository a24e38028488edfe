"""Open records made closed (N6), for the property tests: `hide_cards(text)` hides the dealt and
cambio cards a recorder who cannot see faces does not see; `is_open(text)` says whether a
record names every card.
"""

from __future__ import annotations

import re

_DEAL_RE = re.compile(r"^(\s*deal\s+\S+)\s+([^#]*?)(\s*(#.*)?)$")
_CAMBIO_RE = re.compile(r"^(\s*cambio\s+\S+)\s+(\S+)(\s*(#.*)?)$")


def is_open(hand_text: str) -> bool:
    return not re.search(r"(^|\s)\?(x\d+)?(\s|$)", hand_text, re.MULTILINE)


def _unknown_count(token: str) -> int:
    if token.startswith("?") and token[1:2] in ("x", "X") and token[2:].isdigit():
        return int(token[2:])
    return 1


def _declared_nine(record, line: int, actor: str, kind: str):
    """The nine cards a declaration at `line` shows: held or as dealt, whichever qualifies
    (the better if both, R6.2); the held nine (else the dealt) if neither does."""
    from desmoche_ref.cards import CARD_NAME
    from desmoche_ref.ranking import auto_strength
    from desmoche_ref.referee import judge_hand

    hand = next((h for h in record.hands if any(ev.line == line for ev in h.events)), None)
    if hand is None:
        return None
    report = judge_hand(hand, until=line)  # the declaration changes no hand; the deal is judged
    if report.replay is None or actor not in report.setup.players:
        return None
    state = report.replay.state
    player = state.players[report.setup.players.index(actor)]
    nines = []
    if state.cambio_complete and player.held9 and not player.held9[1]:
        nines.append(sorted(player.held9[0]))
    if player.dealt9 and not player.dealt9[1]:
        nines.append(sorted(player.dealt9[0]))
    nines = [n for n in nines if len(n) == 9]
    if not nines:
        return None
    colour = report.setup.options.color
    scored = [(auto_strength(kind, n, colour), n) for n in nines]
    good = [(strength, n) for strength, n in scored if strength is not None]
    best = max(good)[1] if good else nines[0]
    return [CARD_NAME[c] for c in best]


def hide_cards(text: str) -> str:
    """An open record made closed (N6): `deal P CARDS` -> `deal P ?xN`, cambio cards -> `?`.

    What a recorder who cannot see faces still sees is kept: a player who showed all nine
    cards in a declaration before passing has a known hand and must name the card passed
    (N6.2), so that cambio line stays; and a declarer lays the hand face up (R6.3), so a
    `declare` line without its cards gets the nine the open record implies (as held or as
    dealt, whichever qualifies).
    """
    from desmoche_ref.notation.parser import parse_text

    lines = text.split("\n")
    record = None
    out = []
    known = set()  # players whose hand the table has seen (a declaration with its cards)
    for number, line in enumerate(lines, 1):
        body, hash_, comment = line.partition("#")
        words = body.split()
        if words[:1] == ["declare"] and len(words) == 3:
            record = record or parse_text(text)
            nine = _declared_nine(record, number, words[1], words[2])
            if nine:
                line = " ".join(words + nine) + (f" {hash_}{comment}" if hash_ else "")
                words += nine
        if words[:1] == ["declare"] and len(words) > 3:
            known.add(words[1])
        elif line.lstrip().startswith("["):
            known = set()
        m = _DEAL_RE.match(line)
        if m:
            n = sum(_unknown_count(t) for t in m.group(2).split())
            chunks = [13] * (n // 13) + ([n % 13] if n % 13 else [])
            hidden = " ".join("?" if k == 1 else f"?x{k}" for k in chunks)
            line = f"{m.group(1)} {hidden}{m.group(3)}"
        else:
            m = _CAMBIO_RE.match(line)
            if m and words[1] not in known:
                line = f"{m.group(1)} ?{m.group(3)}"
        out.append(line)
    return "\n".join(out)
