"""Skill ratings from the hands, in the order they were played (pure: no I/O, no database).

How a hand becomes a ranking is a ruling (docs/rulings.md, R10, R6, R14): the winners
first, tied when they split the pot; the others next, tied; a disqualified player below
them; a hand with no winner tells nothing. Each ranking moves the ratings of the hand's
players by the Weng–Lin Bayesian update with the Plackett–Luce model (Weng and Lin,
JMLR 12, 2011, algorithm 4): openskill's `PlackettLuce` with its defaults, to 1e-12
(tests/test_ratings.py holds the two together on random hands). It is written here, in
twenty lines, because openskill's `rate` deep-copies its arguments and makes a UUID for
every player on every call: about 55 µs a hand on an idle core, 5.5 s for a season of
100,000 hands before the book is even read — over the 5 s a `ratings` of such a book may
take; this is about three times as fast (bench/bench_ratings.py prints both).

A rating is a belief about a player's skill: a mean `mu` and a deviation `sigma`; the
figure shown is the conservative one, mu − 3·sigma (openskill's `ordinal`): a new player
starts at 0, a win raises it, a loss lowers it, and every hand rated makes the belief surer
(sigma shrinks), which raises it too: a player is ranked by what the hands have shown.
"""

from math import exp, sqrt
from typing import NamedTuple

from .engine.state import AUTO_WIN, NO_WINNER, WIN  # noqa: F401 (a hand's outcome, as the book keeps it)

# openskill's PlackettLuce() defaults
MU = 25.0
SIGMA = 25.0 / 3.0
BETA = 25.0 / 6.0
KAPPA = 0.0001
TAU = 25.0 / 300.0
Z = 3.0  # the conservative figure is mu − Z·sigma
TAU2, BETA2 = TAU * TAU, BETA * BETA



class Skill(NamedTuple):
    mu: float = MU
    sigma: float = SIGMA

    @property
    def conservative(self) -> float:
        return self.mu - Z * self.sigma


def hand_ranking(players, outcome, winners, fouled) -> list | None:
    """Each player's place in a complete hand (0 the best; equal places are a tie), or None
    when the hand tells nothing of who played better.

    `players` in seat order; `outcome` win, auto-win or no-winner; `winners` the names who
    took the pot (several when it was split); `fouled` the names with an enforced foul (a
    disqualified player: R14.1). The winners are first, tied (R11.6: a split pot); an
    automatic win (R6) is a win; the players not disqualified come next, tied; the
    disqualified last, tied. A hand without a winner (R2.3, R10.3, R14.4) ranks nobody:
    the cards ran out or everyone left, and no one was shown to play better."""
    if outcome not in (WIN, AUTO_WIN) or not winners:
        return None
    won, out = set(winners), set(fouled)
    ranks = [0 if p in won else 2 if p in out else 1 for p in players]
    return ranks if len(set(ranks)) > 1 else None


def rate(skills, ranks) -> list:
    """The players' skills after a game in which they finished at `ranks` (0 the best,
    equal ranks tied): [Skill], in the order given. openskill's PlackettLuce.rate of
    one-player teams with its defaults (tau added before the game, no sigma limit), its
    sums gathered by place: a place's tied players share one denominator, so a player's
    update sums over the places at or above theirs rather than over every player (equal
    to openskill's within rounding, 1e-12). Written plainly: it runs once a hand."""
    variances = [s.sigma * s.sigma + TAU2 for s in skills]
    c = sqrt(sum(variances) + len(skills) * BETA2)
    c3 = c * c * c
    strength = [exp(s.mu / c) for s in skills]
    if max(ranks) == 1 and ranks.count(0) == 1:  # one winner, the others tied: most hands
        return _one_winner(skills, ranks.index(0), variances, strength, c, c3)
    at: dict[int, float] = {}   # place -> the strengths of the players there
    tied: dict[int, int] = {}   # place -> how many players share it
    for x, r in zip(strength, ranks):
        at[r] = at.get(r, 0.0) + x
        tied[r] = tied.get(r, 0) + 1
    places = sorted(at)
    below, total = [], 0.0  # below[k]: the strengths at places[k] and every worse place
    for place in reversed(places):
        total += at[place]
        below.append(total)
    below.reverse()
    out = []
    for s, v, x, r in zip(skills, variances, strength, ranks):
        omega, delta = 1 / tied[r], 0.0
        for place, under in zip(places, below):
            if place > r:
                break
            share = x / under
            omega -= share
            delta += share * (1 - share)
        out.append(Skill(s.mu + omega * v / c, sqrt(v) * sqrt(max(1 - delta * v * sqrt(v) / c3, KAPPA))))
    return out


def _one_winner(skills, w, variances, strength, c, c3) -> list:
    """rate's update when player `w` won and the others tied below: the same sums, written
    out for the two places (the winner's share of everyone, a loser's of everyone and of
    the losers)."""
    total = sum(strength)
    losers = total - strength[w]
    tied = 1 / (len(skills) - 1)
    out = []
    for i, (s, v, x) in enumerate(zip(skills, variances, strength)):
        share = x / total
        if i == w:
            omega, delta = 1 - share, share * (1 - share)
        else:
            among = x / losers
            omega, delta = tied - share - among, share * (1 - share) + among * (1 - among)
        out.append(Skill(s.mu + omega * v / c, sqrt(v) * sqrt(max(1 - delta * v * sqrt(v) / c3, KAPPA))))
    return out


def figure(value: float) -> str:
    """A rating's figure as every front end shows it: two decimals (never -0.00)."""
    text = f"{value:.2f}"
    return "0.00" if text == "-0.00" else text


NEW = Skill()  # a player's skill before their first rated hand


def middling() -> float:
    """Where a player of middling skill settles: the rating of three players who take turns
    winning, after 600 hands (about 20, short of the mean: the deviation stops shrinking near
    1.5, as the model lets a skill change)."""
    skills = [NEW] * 3
    for k in range(600):
        skills = rate(skills, [0 if seat == k % 3 else 1 for seat in range(3)])
    return sum(s.conservative for s in skills) / 3


class Ratings:
    """Every player's skill and hands rated, fed one ranked hand after another."""

    def __init__(self):
        self.skills = {}   # name -> Skill
        self.hands = {}    # name -> hands rated

    def play(self, players, ranks) -> list:
        """Rate one hand (hand_ranking's places); the players' new skills, in order."""
        skills, hands = self.skills, self.hands
        after = rate([skills.get(p, NEW) for p in players], ranks)
        for p, skill in zip(players, after):
            skills[p] = skill
            hands[p] = hands.get(p, 0) + 1
        return after

    def table(self, min_hands: int = 0) -> tuple:
        """([Standing] of the players with at least `min_hands` rated hands, best first;
        [Standing] of the others, by hands then figure): ties by name."""
        rows = [Standing(p, s.mu, s.sigma, s.conservative, self.hands[p]) for p, s in self.skills.items()]
        rows.sort(key=lambda r: (-r.conservative, r.player))
        return ([r for r in rows if r.hands >= min_hands],
                sorted((r for r in rows if r.hands < min_hands), key=lambda r: (-r.hands, -r.conservative, r.player)))


class Standing(NamedTuple):
    player: str
    mu: float
    sigma: float
    conservative: float
    hands: int

    def as_json(self) -> dict:
        return {"player": self.player, "rating": round(self.conservative, 2), "mu": round(self.mu, 2),
                "sigma": round(self.sigma, 2), "hands": self.hands}


def rank_hands(hands, ratings: Ratings | None = None, follow=None):
    """Rate `hands` (an iterable of (players, outcome, winners, fouled), in the order played)
    into `ratings` (a new Ratings if None). `follow`: a name whose conservative figure after
    each of their rated hands is collected. Returns (ratings, hands rated, that curve)."""
    ratings = ratings if ratings is not None else Ratings()
    curve, rated = [], 0
    for players, outcome, winners, fouled in hands:
        ranks = hand_ranking(players, outcome, winners, fouled)
        if ranks is None:
            continue
        rated += 1
        after = ratings.play(players, ranks)
        if follow is not None and follow in players:
            curve.append(after[players.index(follow)].conservative)
    return ratings, rated, curve
