"""A hand's outcome in one sentence: the one wording of it that `check` (a record's verdict),
the book's closed hands (`live`), `view`'s turn and the play prompt all print.

Pure: it returns a findings.Message (English, with its template and values), which the shell
shows in the run's language (cli/render.py `say`); no click, no I/O."""

from .cards import names
from .engine.state import AUTO_WIN, WIN
from .findings import COMMAND_LINE, M, MN, Verbatim, listed

# Where the sentence says the hand was decided: a line of the record, a move of the book
# (its number, the seq), or nowhere (at the table, just after the move that decided it)
LINE, MOVE = "line", "move"

# the kinds of automatic win (R6.1), as a person reads them (N8 writes the codes)
AUTO = {"peladilla": M("peladilla"), "cuatro-cuerpos": M("cuatro-cuerpos"), "color": M("color")}


def _where(cite, line):
    if cite == MOVE:
        return M("move {move}", move=line)
    return M("line {line}", line=line) if cite == LINE else None


def outcome_text(outcome, pot=None, cite=LINE, status="complete", error=None, void=None):
    """The hand's outcome in words, e.g. `Carla wins with ten cards down (line 39)`.

    `outcome` is N8's (a hand's `outcome`, or the view's): its kind, its winners by name, the
    automatic win's kind and the line (or move) that decided it. `pot`: the pot as N8 writes
    it, once the settlement knows it; a hand with no winner says then that it carries
    (R2.3). `cite`: LINE or MOVE names where the hand was decided, None nowhere.
    `status` (N8's) and `error` (the first error, a Finding): an invalid hand is said as
    such, at its error; one that is not over (no outcome) as incomplete; a hand tagged Void
    (N9.6) as void, with its reason (`void`)."""
    if status == "void":
        return M("void ({reason}): it settles nothing, its pots pass on to the next hand", reason=void)
    if status == "invalid":
        if cite == MOVE:
            return M("invalid at move {line} ({code})", line=error.line, code=error.code)
        return M("invalid at line {line} ({code})", line=error.line, code=error.code)
    if outcome is None or status == "incomplete":
        return M("incomplete (the record stops before the hand is over)")
    where = _where(cite, outcome["line"])
    winners = outcome["winners"]
    who, n = listed(winners), len(winners)
    if outcome["kind"] == WIN:
        if where is None:
            return MN("{who} wins with ten cards down", "{who} win with ten cards down", n, who=who)
        return MN("{who} wins with ten cards down ({where})", "{who} win with ten cards down ({where})", n,
                  who=who, where=where)
    if outcome["kind"] == AUTO_WIN:
        auto = AUTO.get(outcome["auto"], outcome["auto"])
        if where is None:
            return MN("{who} wins by {auto}", "{who} win by {auto} (split)", n, who=who, auto=auto)
        return MN("{who} wins by {auto} ({where})", "{who} win by {auto} (split) ({where})", n,
                  who=who, auto=auto, where=where)
    if pot is None:
        return M("no winner ({where})", where=where) if where is not None else M("no winner")
    if where is None:
        return M("no winner: the pot of {pot} carries", pot=pot)
    return M("no winner ({where}): the pot of {pot} carries", where=where, pot=pot)


def claims_shown_as(pending, cards_text):
    """The side-game claims still to be shown (R4.5; engine PendingClaim), e.g. `Beto Q♦ (oro)`;
    `cards_text` writes their cards."""
    return listed(M("{player} {cards} ({game})", player=p.player, cards=cards_text(p.cards), game=p.game)
                  for p in pending)


def show_commands(pending):
    """The `show` line each claim still to be shown needs, as typed (`desmoche-ref show Beto
    Qd`; its `{prog}` is reworded by the table session)."""
    return listed(M("`{prog}{command}`", prog=COMMAND_LINE["prog"],
                    command=Verbatim(f"show {p.player} {names(p.cards)}")) for p in pending)
