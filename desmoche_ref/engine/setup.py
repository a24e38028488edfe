"""The tags of a hand (N3) turned into the table it is played at: players, dealer, options, money."""

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

from ..findings import Finding, M, Message, error
from ..limits import name_problem
from ..money import amount_problem, fmt, parse_amount
from ..notation.model import HandRecord, Tag
from ..notation.parser import GAMES
from ..options import PRESETS, RuleOptions, parse_options

NAME = re.compile(r"[^\W\d_][\w.-]*")
DEFAULT_OPTIONS = RuleOptions()  # immutable: one for every hand that sets none
SINGLE_TAGS = ("Players", "Dealer", "Rules", "Options", "Bet", "Carry", "Result", "Closed", "Void")


class SideEntry:
    __slots__ = ("game", "stake", "players", "line")

    def __init__(self, game: str, stake: int, players: list, line: int):
        self.game = game
        self.stake = stake      # cents
        self.players = players  # seat indexes
        self.line = line


class SetupError(ValueError):
    """Values a hand's tags would refuse; `finding` says which rule and why."""

    def __init__(self, finding: Finding) -> None:
        super().__init__(f"{finding.code} {finding.message}")
        self.finding = finding


class Setup:
    """The table a hand is played at, from its tags (N3)."""

    __slots__ = ("players", "dealer", "rules", "options", "bet", "carry", "sides", "side_carry",
                 "result", "closed", "void")

    def __init__(self) -> None:
        self.players: list[str] = []
        self.dealer = -1
        self.rules = "desmoche"
        self.options = DEFAULT_OPTIONS
        self.bet = 0          # cents
        self.carry = 0        # cents
        self.sides: list[SideEntry] = []
        self.side_carry: dict[str, int] = {}  # game -> cents
        self.result: list[str] | None = None  # winners' names; [] for `none`
        self.closed = False   # [Closed "yes"]: the table breaks up after this hand (R11.5)
        self.void: str | None = None  # [Void "reason"]: abandoned at the table, settles nothing (N9.6)

    @classmethod
    def from_values(cls, players: Sequence[str], dealer: str, bet: int = 0, carry: int = 0, rules: str = "desmoche",
                    options: str = "", sides: Iterable = (), side_carry: dict[str, int] | None = None,
                    result: Sequence[str] | None = None) -> "Setup":
        """A Setup from plain values (a stored table) rather than tag text: names, the
        dealer's name, amounts in cents, the Options text, sides as (game, stake, names),
        side_carry as {game: cents}, result as the winners' names ([] for none).

        Judged exactly as the same tags would be; raises SetupError on a value they refuse."""
        tags = [("Players", " ".join(players)), ("Dealer", dealer), ("Rules", rules),
                ("Options", options), ("Bet", fmt(bet)), ("Carry", fmt(carry))]
        tags += [("Side", f"{game} {fmt(stake)} {' '.join(names)}") for game, stake, names in sides]
        tags += [("SideCarry", f"{game} {fmt(cents)}") for game, cents in (side_carry or {}).items()]
        if result is not None:
            tags.append(("Result", " ".join(result) or "none"))
        record = HandRecord(1)
        record.tags = [Tag(name, value, n) for n, (name, value) in enumerate(tags, 1)]
        setup, errors = read_setup(record)
        if errors:
            raise SetupError(errors[0])
        return setup

    def tags(self) -> list:
        """(name, value) of the N3 tags that state this setup, in N3's order (defaults left out).
        `Closed` is not among them: it says what the table did after the hand, not how the hand
        was played (a stored hand's table says it; league.export_hands writes it back)."""
        names = self.players
        out = [("Players", " ".join(names)), ("Dealer", names[self.dealer])]
        if self.rules != "desmoche":
            out.append(("Rules", self.rules))
        options = self.options.changes_from(self.rules)
        if options:
            out.append(("Options", options))
        if self.bet:
            out.append(("Bet", fmt(self.bet)))
        if self.carry:
            out.append(("Carry", fmt(self.carry)))
        out += [("Side", f"{e.game} {fmt(e.stake)} {' '.join(names[s] for s in e.players)}")
                for e in self.sides]
        out += [("SideCarry", f"{game} {fmt(cents)}") for game, cents in self.side_carry.items()]
        if self.result is not None:
            out.append(("Result", " ".join(self.result) or "none"))
        if self.void is not None:
            out.append(("Void", self.void))
        return out

    def seat(self, name: str) -> int:
        return self.players.index(name)

    def order_from_dealer(self) -> list:
        """Seat indexes in seat order starting at the dealer's right (R3.3, R11.6)."""
        n = len(self.players)
        return [(self.dealer + k) % n for k in range(1, n + 1)]


@lru_cache(maxsize=1024)
def read_players(value: str) -> tuple[tuple[str, ...], str | None, Message | None]:
    """(names, code, reason): the seats of a Players tag (N3, N3.1, R1.1); cached per value."""
    names = tuple(value.split())
    bad = [n for n in names if not NAME.fullmatch(n)]
    if bad:
        return names, "N3.1", M("{name!r} is not a player name (a letter, then letters, digits, _ "
                                "- .)", name=bad[0][:24])
    long = next(filter(None, map(name_problem, names)), None)
    if long:
        return names, "N3.1", long
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        return names, "N3.1", M("player {name} is seated twice", name=dup)
    if not 2 <= len(names) <= 4:
        return names, "N3", M("Desmoche is played by 2, 3 or 4 players, not {count} (R1.1)",
                              count=len(names))
    return names, None, None


def read_setup(hand: HandRecord) -> tuple[Setup, list[Finding]]:
    """(Setup, errors) from a hand's tags; errors are Findings, the first by line is reported."""
    s = Setup()
    errors = list(hand.tag_errors)
    first = _first_tags(hand, errors)
    _read_seats(s, hand, first, errors)
    _read_rules(s, first, errors)
    _read_money(s, first, errors)
    if "Side" in first:
        _read_sides(s, hand.tags_named("Side"), errors)
    if "SideCarry" in first:
        _read_side_carry(s, hand.tags_named("SideCarry"), errors)
    _read_result(s, first.get("Result"), errors)
    _read_closed(s, first.get("Closed"), errors)
    _read_void(s, first.get("Void"), errors)
    errors.sort(key=lambda e: e.line)
    return s, errors


def _first_tags(hand: HandRecord, errors: list[Finding]) -> dict:
    """Tag name -> its first Tag; a tag given twice that may be given once is an error (N3)."""
    first: dict = {}
    for tag in hand.tags:
        if tag.name in first:
            if tag.name in SINGLE_TAGS:
                errors.append(error(tag.line, "N3", M("the {name} tag is given twice (first on "
                                                      "line {line})",
                                                      name=tag.name, line=first[tag.name].line)))
        else:
            first[tag.name] = tag
    return first


def _read_seats(s: Setup, hand: HandRecord, first: dict, errors: list[Finding]) -> None:
    players = first.get("Players")
    if players is None:
        errors.append(error(hand.line, "N3", M('the Players tag is missing: [Players "Ana Beto '
                                               'Carla"]')))
    else:
        names, code, why = read_players(players.value)
        if why:
            assert code is not None  # a reason comes with its rule
            errors.append(error(players.line, code, why))
        else:
            s.players = list(names)

    dealer = first.get("Dealer")
    if dealer is None:
        errors.append(error(hand.line, "N3", M('the Dealer tag is missing: [Dealer "Ana"]')))
    elif s.players:
        if dealer.value.strip() in s.players:
            s.dealer = s.players.index(dealer.value.strip())
        else:
            errors.append(error(dealer.line, "N3", M("the dealer {name!r} is not one of the players",
                                                     name=dealer.value.strip()[:24])))


def _read_rules(s: Setup, first: dict, errors: list[Finding]) -> None:
    rules = first.get("Rules")
    if rules is not None:
        s.rules = rules.value.strip().lower()
        if s.rules not in PRESETS:
            errors.append(error(rules.line, "N3", M("unknown rules {word!r}: desmoche or conquien",
                                                    word=rules.value[:24])))
            s.rules = "desmoche"
    options = first.get("Options")
    opts, why = parse_options(s.rules, options.value if options else "")
    if opts is None:
        assert why is not None and options is not None  # an Options tag it could not read, and why
        errors.append(error(options.line, "N3", why))
    else:
        s.options = opts


def _read_money(s: Setup, first: dict, errors: list[Finding]) -> None:
    for name in ("Bet", "Carry"):
        tag = first.get(name)
        if tag is not None:
            cents = parse_amount(tag.value)
            if cents is None:
                errors.append(error(tag.line, "N3.2", amount_problem(tag.value)))
            elif name == "Bet":
                s.bet = cents
            else:
                s.carry = cents


def _read_sides(s: Setup, tags: list[Tag], errors: list[Finding]) -> None:
    """The side games entered before the deal (R4.1): GAME STAKE PLAYER PLAYER …"""
    for tag in tags:
        parts = tag.value.split()
        if len(parts) < 3:
            errors.append(error(tag.line, "N3", M("a Side tag is GAME STAKE PLAYER PLAYER …")))
            continue
        game = GAMES.get(parts[0].lower())
        if game is None:
            errors.append(error(tag.line, "N3", M("unknown side game {word!r} (R4.2)",
                                                  word=parts[0][:24])))
            continue
        stake = parse_amount(parts[1])
        if stake is None:
            errors.append(error(tag.line, "N3.2", amount_problem(parts[1])))
            continue
        if any(e.game == game for e in s.sides):
            errors.append(error(tag.line, "N3", M("the side game {game} is entered twice",
                                                  game=game)))
            continue
        if s.players:
            unknown = [p for p in parts[2:] if p not in s.players]
            if unknown:
                errors.append(error(tag.line, "N3.1", M("{name!r} is not seated at this table "
                                                        "(R4.1)", name=unknown[0][:24])))
                continue
            if len(set(parts[2:])) != len(parts[2:]):
                errors.append(error(tag.line, "N3.1", M("a player enters a side game once")))
                continue
            s.sides.append(SideEntry(game, stake, sorted(s.players.index(p) for p in parts[2:]), tag.line))


def _read_side_carry(s: Setup, tags: list[Tag], errors: list[Finding]) -> None:
    for tag in tags:
        parts = tag.value.split()
        game = GAMES.get(parts[0].lower()) if len(parts) == 2 else None
        if len(parts) != 2 or game is None:
            errors.append(error(tag.line, "N3", M('a SideCarry tag is GAME AMOUNT, e.g. [SideCarry '
                                                  '"oro 15"]')))
            continue
        cents = parse_amount(parts[1])
        if cents is None:
            errors.append(error(tag.line, "N3.2", amount_problem(parts[1])))
            continue
        s.side_carry[game] = s.side_carry.get(game, 0) + cents


def _read_result(s: Setup, result: Tag | None, errors: list[Finding]) -> None:
    if result is None:
        return
    names = result.value.split()
    if [n.lower() for n in names] == ["none"]:
        s.result = []
    elif not names:
        errors.append(error(result.line, "N3", M("the Result tag names the winner, the winners, or "
                                                 "none")))
    elif s.players and any(n not in s.players for n in names):
        bad = next(n for n in names if n not in s.players)
        errors.append(error(result.line, "N3.1", M("Result names {name!r}, who is not a player",
                                                   name=bad[:24])))
    else:
        s.result = names


def _read_closed(s: Setup, closed: Tag | None, errors: list[Finding]) -> None:
    if closed is None:
        return
    if closed.value.strip().lower() == "yes":
        s.closed = True
    else:
        errors.append(error(closed.line, "N3", M('the Closed tag says the table broke up after this hand: '
                                                 '[Closed "yes"], or no Closed tag')))


def _read_void(s: Setup, void: Tag | None, errors: list[Finding]) -> None:
    """N9.6: the reason the hand was abandoned at the table (one line, not empty)."""
    if void is None:
        return
    reason = " ".join(void.value.split())
    if reason:
        s.void = reason
    else:
        errors.append(error(void.line, "N3", M('the Void tag says why the hand was abandoned: [Void "the deck '
                                               'was short a card"]')))
