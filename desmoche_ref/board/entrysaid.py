"""What the entry page says of a form it was sent (issue 36): stored — worded as `play` and the
verbs say it (words.py) — or refused, with the rule and "(nothing stored)" exactly as `play`
says it; a form sent twice, what it did the first time; a hand that moved since the page
showed it, the moves stored since."""

from typing import NamedTuple

from .. import choices
from ..describe import MOVE, outcome_text
from ..findings import M
from ..words import (already_message, echo_text, foul_text, opened_message, table_closed_messages,
                     undone_message, voided_message)


class Said(NamedTuple):
    """The answer to a form, shown once on the next page: `kind` stored, again or refused."""

    kind: str
    lines: list


def said_of(words, done) -> Said:
    """The Said of a store/desk.Done."""
    say, spanish = words.say, words.lang == "es"
    result = done.result
    if done.what == "line":
        if result.unchanged:
            lines = [say(already_message(result._replace(line=choices.spoken(result.line, spanish))))]
        elif done.again:
            lines = [say(M("already recorded (move {seq}): {line} — the form was sent again, and stored once",
                           seq=result.seq, line=choices.spoken(result.line, spanish)))]
        else:
            lines = [say(echo_text(result.seq, choices.spoken(result.line, spanish), done.after,
                                   result.closing is not None))]
            lines += [words._("foul {code} {foul}").format(code=f.code, foul=say(foul_text(f))) for f in result.fouls]
            lines += [words._("warning {code} {message}").format(code=w.code, message=say(w.message))
                      for w in result.warnings]
            lines += closing_lines(words, result.number, result.closing)
        return _said(done, lines)
    if done.what == "undo":
        lines = [say(undone_message(result))]
    elif done.what == "void":
        lines = [say(voided_message(result, done.table, words._("new hand")))]
    elif done.what == "new":
        lines = closing_lines(words, result.closed_number, result.closed) + [say(opened_message(done.table, result))]
        lines += [words._("warning {code} {message}").format(code=w.code, message=say(w.message))
                  for w in result.warnings]
    else:
        lines = closing_lines(words, result.closed_number, result.closed)
        lines += [say(m) for m in table_closed_messages(done.table, result)]
    if done.again:
        lines = [say(M("already done: the form was sent again, and nothing was done twice"))] + lines
    return _said(done, lines)


def _said(done, lines) -> Said:
    return Said("again" if done.again else "stored", lines)


def closing_lines(words, number, report) -> list:
    """A hand closed and posted: its outcome as `check` says it, and each player's net."""
    if report is None:
        return []
    verdict = report.as_json()
    nets = ", ".join(f"{player} {net}" for player, net in verdict["net"].items())
    return [words._("hand {number} closed and posted:").format(number=number),
            words.say(outcome_text(verdict["outcome"], None, MOVE, verdict["status"],
                                   report.errors[0] if report.errors else None)),
            words.say(M("nets: {nets}", nets=nets))]


def refusal_lines(words, exc):
    """What a refused form says: None for a failure that is not a refusal (said elsewhere)."""
    from ..store.write.desk import Moved
    from ..store.schema.terms import HandChanged, Refused

    if isinstance(exc, Refused):
        return [words._("refused: {code} {message} (nothing stored)").format(
            code=exc.finding.code, message=words.say(exc.finding.message))]
    if isinstance(exc, HandChanged):
        lines = [words._("{message} (nothing stored)").format(message=words.say(exc.args[0]))]
        if isinstance(exc, Moved) and exc.since:
            lines.append(words.say(M("stored since this page showed the hand:")))
            lines += [words.say(M("move {seq}: {line} — {recorder}", seq=r.seq,
                                  line=choices.spoken(r.line, words.lang == "es"), recorder=r.recorder or "?"))
                      for r in exc.since[-6:]]
        return lines
    return None
