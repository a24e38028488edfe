"""A session of simulated hands at one table (issue 4): the dealer rotates (R3.1), pots carry
(R2.3, R4.6) as `settle` settles each hand, and with `vary` the presets, the options of R15
and the side games vary from hand to hand.

Same seed, same text: all randomness comes from one `random.Random(seed)`.
"""

import random
from collections import Counter
from typing import NamedTuple

from ..engine.setup import Setup
from ..money import fmt
from ..options import parse_options
from ..settle import settle
from .hand import HandSim
from .rates import P_CLOSED, P_COMMENT, P_RESULT
from .table import SimulatorBug, Table

NAMES = ("Ana", "Beto", "Carla", "Dani")
SIDE_GAMES = ("oro", "corazon", "flor", "corazon-negro", "par-rojo", "par-negro",
              "dos-par-rojo", "dos-par-negro", "tres-cuerpos", "escalera")
# how often a table picks each game: the pairs and tres-cuerpos rarely have a winner, so
# their pots would otherwise carry for ever (R4.6)
_GAME_WEIGHTS = (5, 5, 5, 5, 3, 3, 1, 1, 1, 2)
_STAKES = (100, 200, 250, 500)            # cents
_BETS = (500, 1000, 1000, 2000, 250)      # cents


# How `vary` writes the Options tag: for each option, (chance, words to pick from), and
# where a second pair follows, it is tried when the first misses. Over many hands every
# value of every option of R15 comes up.
_OPTION_DRAWS = (
    ((0.3, ("todo", "todo", "todo=on")), (0.05, ("todo=off",))),
    ((0.25, ("strict",)),),
    ((0.25, ("forcing",)),),
    ((0.15, ("color=suit", "color=off", "color=color")),),
    ((0.15, ("hand-melds=off",)), (0.03, ("hand-melds=on",))),
    ((0.12, ("escalera=a23-low", "escalera=a23-low", "escalera=a23-high")),),
    ((0.15, ("side-nowin=refund", "side-nowin=refund", "side-nowin=carry")),),
    ((0.15, ("dq-bonus=exempt", "dq-bonus=exempt", "dq-bonus=pay")),),
)
_AUTO_DRAW = {"conquien": (0.3, ("auto=on",)), "desmoche": (0.1, ("auto=off", "auto=off", "auto=on"))}


def vary_options(rng: random.Random, preset: str) -> str:
    """An `Options` value for one hand (see _OPTION_DRAWS)."""
    words = []
    for draws in _OPTION_DRAWS + ((_AUTO_DRAW[preset],),):
        for chance, choices in draws:
            if rng.random() < chance:
                words.append(rng.choice(choices))
                break
    rng.shuffle(words)
    return " ".join(words)


class Verdict(NamedTuple):
    """A simulated hand's verdict, as the book keeps it (store/read/ratings.py reads the same)."""

    players: tuple
    outcome: str     # win, auto-win, no-winner
    winners: list
    fouled: list     # the players a foul disqualified
    net: dict        # name -> cents


class SimulatedTable:
    """The table between hands: who deals, the bet, and what the pots carry."""

    def __init__(self, rng, players: int, options, vary: bool, skill=None):
        self.rng = rng
        self.names = NAMES[:players]
        # seat -> level, for the bots below level 1 (HandSim.misjudges)
        self.skill = {self.names.index(name): level for name, level in (skill or {}).items() if level < 1}
        self.verdicts: list[Verdict] = []  # Verdict of each hand played
        self.texts: list[str] = []  # the text of each hand played (`played`)
        self.options = options
        self.vary = vary
        self.bet = 1000
        self.carry = 0
        self.side_carry: dict[str, tuple[int, int]] = {}  # game -> (stake, cents carried)
        self.notes: Counter[str] = Counter()

    def pick_sides(self):
        """(game, stake, entrant seats, carried in): a carried pot keeps its game (R4.6)."""
        rng, n = self.rng, len(self.names)
        games = list(self.side_carry)
        k = rng.choices((0, 1, 2), (50, 35, 15))[0]
        for game in rng.choices(SIDE_GAMES, _GAME_WEIGHTS, k=k):
            if game not in games:
                games.append(game)
        sides = []
        for game in games:
            stake, amount = self.side_carry.get(game, (rng.choice(_STAKES), 0))
            entrants = [i for i in range(n) if rng.random() < 0.8] or [rng.randrange(n)]
            sides.append((game, stake, entrants, amount))
        return sides

    def tags(self, number, preset, opt_text, sides):
        rng, names = self.rng, self.names
        tags = [("Players", " ".join(names)), ("Dealer", names[(number - 1) % len(names)])]
        if preset == "conquien" or (self.vary and rng.random() < 0.1):
            tags.append(("Rules", preset))
        if opt_text:
            tags.append(("Options", opt_text))
        tags.append(("Bet", fmt(self.bet)))
        if self.carry:
            tags.append(("Carry", fmt(self.carry)))
        for game, stake, entrants, _ in sides:
            shown = "rombo" if game == "oro" and rng.random() < 0.2 else game
            tags.append(("Side", " ".join([shown, fmt(stake)] + [names[i] for i in entrants])))
        tags += [("SideCarry", f"{game} {fmt(amount)}") for game, _, _, amount in sides if amount]
        return tags

    def hand(self, number: int):
        """The text of one hand; the pots it carries out are kept for the next."""
        rng, vary, names = self.rng, self.vary, self.names
        preset = "conquien" if vary and rng.random() < 0.2 else "desmoche"
        opt_text = self.options if self.options is not None else (
            vary_options(rng, preset) if vary else "")
        if vary and self.carry == 0 and rng.random() < 0.05:
            self.bet = rng.choice(_BETS)
        sides = self.pick_sides()
        closed = vary and rng.random() < P_CLOSED
        tags = self.tags(number, preset, opt_text, sides)
        setup = Setup.from_values(
            names, names[(number - 1) % len(names)], bet=self.bet, carry=self.carry,
            rules=preset, options=opt_text,
            sides=[(g, stake, [names[i] for i in e]) for g, stake, e, _ in sides],
            side_carry={g: amount for g, _, _, amount in sides if amount})
        table = Table(setup, rng, vary, closed, P_COMMENT, self.skill)
        sim = HandSim(table, [(g, e) for g, _, e, _ in sides])
        sim.run()
        outcome = table.record.outcome
        if outcome is None:  # HandSim.run plays to the end of the hand
            raise SimulatorBug("the simulated hand stopped before it was over")
        if rng.random() < P_RESULT and len(outcome.winners) <= 1:
            tags.append(("Result", names[outcome.winners[0]] if outcome.winners else "none"))
        tags.append(("Hand", str(number)))
        settled = self.carry_on(setup, table.record.report)
        report = table.record.report
        self.verdicts.append(Verdict(names, outcome.kind, [names[i] for i in outcome.winners],
                                     list(dict.fromkeys(f.player for f in report.fouls if f.enforced)),
                                     settled.net))
        self.notes.update(sim.notes)
        self.notes["closed record"] += closed
        lines = [f'[{name} "{value}"]' for name, value in tags]
        return "\n".join(lines + [""] + table.lines) + "\n"

    def carry_on(self, setup, report):
        """What the next hand carries in (R2.3, R4.6): the settlement's carries."""
        settled = settle(setup, report)
        self.carry = settled.carry_out
        stakes = {e.game: e.stake for e in setup.sides}
        self.side_carry = {p.game: (stakes[p.game], p.carry_out)
                           for p in settled.side_games if p.carry_out}
        return settled


def check_arguments(hands: int, players: int, options, skill=None) -> None:
    if not 2 <= players <= 4:
        raise ValueError(f"a table has 2, 3 or 4 players, not {players}")
    if hands < 0:
        raise ValueError(f"the number of hands cannot be negative ({hands})")
    if options is not None:
        for name in ("desmoche", "conquien"):
            _, reason = parse_options(name, options)
            if reason:
                raise ValueError(reason)
    for name, level in (skill or {}).items():
        if name not in NAMES[:players]:
            raise ValueError(f"{name} does not play at a table of {players} ({', '.join(NAMES[:players])})")
        if not 0 <= level <= 1:
            raise ValueError(f"a bot's level is from 0 to 1, not {level}")


def played(hands, players, seed, options, vary, progress, skill=None) -> SimulatedTable:
    """The session after `hands` hands: its texts' makers' record (notes, verdicts)."""
    check_arguments(hands, players, options, skill)
    table = SimulatedTable(random.Random(seed), players, options, vary, skill)
    for number in range(1, hands + 1):
        table.texts.append(table.hand(number))
        if progress is not None:
            progress(1)
    return table


def session(hands, players, seed, options, vary, progress, skill=None):
    """The hands' texts and a Counter of the situations they went through."""
    table = played(hands, players, seed, options, vary, progress, skill)
    return table.texts, table.notes


def simulate_session(hands: int, players: int = 3, seed: int = 0, options: str | None = None,
                     vary: bool = True, progress=None, skill=None) -> str:
    """The `.dsm` text of a session of `hands` consecutive bot-played hands of one table.

    `players` 2-4 (named Ana Beto Carla Dani); `seed` makes it repeatable; `options` fixes
    the `Options` tag of every hand; `vary` varies preset, options, fouls, claims and closed
    records across hands; `progress(1)` is called after each hand; `skill` {name: level}
    makes some bots weaker (0: a random legal move each time, 1: the bots at their best, the
    default): a weaker bot misjudges takes, pays, the cambio and side-game claims that much
    more often.
    """
    return "\n".join(session(hands, players, seed, options, vary, progress, skill)[0])
