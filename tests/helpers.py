"""Building small hand records for the rule tests, and reading the referee's verdict.

A record is built from tags and event lines.  `deal` lines come from a dict of each
player's nine cards (dealt in seat order from the dealer's right, R3.3), and the
cambio from a dict of the card each player passes, so an open record is always
consistent: every card is in one place and the stock is the rest of the deck.

    text = hand(["draw Beto 2d", "meld Beto 2s 2d 2c", "pay Beto 7c"])
    j = verdict(text)
    assert j["status"] == "incomplete"
    line_of(text, "pay Beto 7c")  # -> the line number of that event
"""

from desmoche_ref.cards import CARD_NAME, parse_card
from desmoche_ref.referee import judge_text

PLAYERS = ("Ana", "Beto", "Carla")

# The deal of NOTATION.md's open example (dealer Ana): Beto, Carla, Ana in that order.
DEAL = {
    "Beto": "2s 3s 4h 7c 8d Th Jc Qd Ks",
    "Carla": "As 2h 3h 9s 9c 5d 6d Kc Qh",
    "Ana": "4s 5s 6s 8h 8c Jd Jh 2c Ac",
}
CAMBIO = {"Beto": "Ks", "Carla": "Qh", "Ana": "2c"}
# After that cambio:
#   Beto : 2s 3s 4h 7c 8d Th Jc Qd 2c
#   Carla: As 2h 3h 9s 9c 5d 6d Kc Ks
#   Ana  : 4s 5s 6s 8h 8c Jd Jh Ac Qh

# The whole of NOTATION.md's open example, line by line (after the tags).
FRIDAY_PLAY = """\
announce Beto oro Qd
cambio Beto Ks
cambio Carla Qh
cambio Ana 2c
draw Beto 2d
meld Beto 2s 2d 2c
pay Beto 7c
draw Carla 4d
meld Carla 4d 5d 6d
pay Carla Kc
draw Ana 7s
meld Ana 4s 5s 6s 7s
pay Ana Qh
draw Beto 9d
meld Carla 9s 9d 9c
pay Carla Ks
draw Ana Ah
meld Carla Ah 2h 3h
pay Carla As
draw Ana 8s
meld Ana 8s 8h 8c
pay Ana Ac
draw Beto Td
draw Carla 7d
add Carla 7d
show Beto Qd""".splitlines()


def order_from_dealer(players, dealer):
    i = list(players).index(dealer)
    n = len(players)
    return [players[(i + k) % n] for k in range(1, n + 1)]


def tags_text(players=PLAYERS, dealer="Ana", rules=None, options=None, bet="10", carry=None,
              side=(), sidecarry=(), result=None, extra=()):
    out = [f'[Players "{" ".join(players)}"]', f'[Dealer "{dealer}"]']
    if rules is not None:
        out.append(f'[Rules "{rules}"]')
    if options is not None:
        out.append(f'[Options "{options}"]')
    if bet is not None:
        out.append(f'[Bet "{bet}"]')
    if carry is not None:
        out.append(f'[Carry "{carry}"]')
    out += [f'[Side "{s}"]' for s in side]
    out += [f'[SideCarry "{s}"]' for s in sidecarry]
    if result is not None:
        out.append(f'[Result "{result}"]')
    out += list(extra)
    return out


def deal_lines(deal, players, dealer):
    return [f"deal {p} {deal[p]}" for p in order_from_dealer(players, dealer) if p in deal]


def cambio_lines(cambio, players, dealer):
    return [f"cambio {p} {cambio[p]}" for p in order_from_dealer(players, dealer) if p in cambio]


def hand(events=(), *, players=PLAYERS, dealer="Ana", deal=None, cambio=None, pre=(),
         **tags) -> str:
    """A record: tags, a blank line, the deal, `pre` lines (announcements…), the cambio, events.

    deal=None uses DEAL (only for the default players and dealer); cambio=None uses CAMBIO
    with the default deal, and no cambio lines with a custom deal unless given; cambio={}
    writes no cambio.
    """
    if isinstance(events, str):
        events = events.splitlines()
    if deal is None:
        deal = DEAL
        if cambio is None:
            cambio = CAMBIO
    if cambio is None:
        cambio = {}
    lines = tags_text(players, dealer, **tags) + [""]
    lines += deal_lines(deal, players, dealer)
    lines += list(pre)
    lines += cambio_lines(cambio, players, dealer)
    lines += list(events)
    return "\n".join(lines) + "\n"


def raw(tag_lines, events) -> str:
    """A record from explicit tag lines and event lines."""
    if isinstance(events, str):
        events = events.splitlines()
    return "\n".join(list(tag_lines) + [""] + list(events)) + "\n"


def friday(**tags) -> str:
    """NOTATION.md's open example (tags may be changed)."""
    tags.setdefault("options", "todo")
    tags.setdefault("side", ("oro 5 Ana Beto Carla",))
    return hand(FRIDAY_PLAY[4:], pre=FRIDAY_PLAY[:1], **tags)


def stock_of(deal, cambio=None) -> list:
    """The cards not dealt (the stock), in a fixed order."""
    dealt = {parse_card(c) for cards in deal.values() for c in cards.split()}
    return [CARD_NAME[c] for c in range(52) if c not in dealt]


def line_of(text: str, event: str, nth: int = 1) -> int:
    """The line number of the nth line whose text (comment removed) is exactly `event`."""
    seen = 0
    for number, line in enumerate(text.split("\n"), 1):
        if line.split("#")[0].strip() == event:
            seen += 1
            if seen == nth:
                return number
    raise AssertionError(f"no line {event!r} in the record")


def last_line(text: str) -> int:
    return len(text.rstrip("\n").split("\n"))


def verdict(text: str, index: int = 0) -> dict:
    """The N8 JSON of hand `index` of the record."""
    report = judge_text(text)
    assert report.error is None, report.error
    return report.hands[index].as_json()


def verdicts(text: str) -> list:
    report = judge_text(text)
    assert report.error is None, report.error
    return [h.as_json() for h in report.hands]


def error_of(j: dict):
    """(code, line) of the hand's one error, or None."""
    assert len(j["errors"]) <= 1
    return (j["errors"][0]["code"], j["errors"][0]["line"]) if j["errors"] else None


def fouls_of(j: dict) -> list:
    return [(f["player"], f["code"], f["enforced"]) for f in j["fouls"]]


def foul_lines(j: dict) -> list:
    return [(f["line"], f["player"], f["code"], f["enforced"]) for f in j["fouls"]]


def warnings_of(j: dict) -> list:
    return [(w["code"], w["line"]) for w in j["warnings"]]


def warning_codes(j: dict) -> list:
    return [w["code"] for w in j["warnings"]]


def bonuses_of(j: dict) -> list:
    return [(b["kind"], b["from"], b["to"], b["amount"]) for b in j["bonuses"]]


def assert_error(text: str, code: str, line, index: int = 0) -> dict:
    """The record is invalid with exactly this first error (line may be an event string)."""
    j = verdict(text, index)
    if isinstance(line, str):
        line = line_of(text, line)
    assert j["status"] == "invalid", (j["status"], j["errors"])
    assert error_of(j) == (code, line), j["errors"]
    return j


def assert_ok(text: str, status: str = "incomplete", index: int = 0) -> dict:
    j = verdict(text, index)
    assert j["errors"] == [], j["errors"]
    assert j["status"] == status, j["status"]
    return j


def balance(j: dict) -> int:
    """N8 conservation: sum of nets + carry_out - carry_in of every pot, in cents (0 if balanced)."""
    def cents(s):
        return int(round(float(s) * 100))

    total = sum(cents(v) for v in j["net"].values())
    total += cents(j["carry_out"]) - cents(j["carry_in"])
    for g in j["side_games"]:
        total += cents(g["carry_out"]) - cents(g["carry_in"])
    return total


# NOTATION.md's open-record example (its four free tags included): N8 gives its report exactly.
EXAMPLE_REPORT = {
    "line": 1,
    "players": ["Ana", "Beto", "Carla"],
    "dealer": "Ana",
    "rules": "desmoche",
    "options": {"todo": True, "strict": False, "forcing": False, "auto": True,
                "hand-melds": True, "color": "color", "escalera": "a23-high",
                "side-nowin": "carry", "dq-bonus": "pay"},
    "status": "complete",
    "outcome": {"kind": "win", "winners": ["Carla"], "auto": None, "line": 39},
    "bet": "10.00",
    "carry_in": "0.00",
    "pot": "30.00",
    "carry_out": "0.00",
    "bonuses": [{"kind": "mico", "from": "Beto", "to": "Carla", "amount": "10.00"},
                {"kind": "mico", "from": "Ana", "to": "Carla", "amount": "10.00"}],
    "side_games": [{"game": "oro", "stake": "5.00", "players": ["Ana", "Beto", "Carla"],
                    "carry_in": "0.00", "pot": "15.00", "winners": ["Beto"],
                    "cards": ["Qd"], "carry_out": "0.00"}],
    "net": {"Ana": "-25.00", "Beto": "-10.00", "Carla": "35.00"},
    "fouls": [],
    "errors": [],
    "warnings": [],
    "result_claimed": "Carla",
    "result_agrees": True,
}


# A four-player hand that follows conformance/no-winner.dsm at the same table (dealer Ana,
# the 40.00 pot carried in): Beto wins it at once with a peladilla.
def peladilla_hand(dealer="Ana", carry="40", bet="5", extra=""):
    return f"""
[Players "Ana Beto Carla Dani"]
[Dealer "{dealer}"]
[Bet "{bet}"]
[Carry "{carry}"]
{extra}
deal Beto As 3c 4d 7h 8s Td Js Qh Kd
deal Carla 5s 5h 5d 2c 9d Jh Ks Qc 6h
deal Dani 2s 6s 9c Tc 3h 4c 8d 6d Ac
deal Ana 2h 3s 4s 7c 8c 9h Th Jc Qs
declare Beto peladilla
end
"""
