"""The referee's verdict on a record: parse, set up, replay, settle, report (N5, N8). Pure."""

from itertools import islice

from .engine.replay import COMPLETE, INCOMPLETE, INVALID, Replay, replay
from .engine.setup import Setup, read_setup
from .findings import M, error, warning
from .limits import unknown
from .money import fmt
from .notation.parser import NO_HAND, iter_hands
from .settle import Settlement, settle

VOID = "void"  # the status of a hand tagged Void (N8, N9.6)


class HandReport:
    """The verdict on one hand: its record, setup, replay and (when complete) settlement."""

    __slots__ = ("record", "setup", "replay", "settlement", "warnings", "setup_error")

    def __init__(self, record, setup: Setup, replay: Replay | None, warnings=None, setup_error=None):
        self.record = record
        self.setup = setup
        self.replay = replay
        self.settlement: Settlement | None = None  # once complete
        self.warnings = warnings if warnings is not None else []
        self.setup_error = setup_error

    @property
    def status(self) -> str:
        if self.setup_error is not None:
            return INVALID
        if self.replay is None:  # a hand tagged Void: read, not judged (N9.6)
            return VOID
        return self.replay.status

    @property
    def void(self) -> str | None:
        """The reason a hand tagged Void was abandoned (N9.6), else None."""
        return self.setup.void if self.status == VOID else None

    @property
    def errors(self) -> list:
        if self.setup_error is not None:
            return [self.setup_error]
        return self.replay.errors if self.replay else []

    @property
    def fouls(self) -> list:
        return self.replay.fouls if self.replay else []

    @property
    def outcome(self):
        if self.status != COMPLETE:
            return None
        return self.replay.state.outcome

    def winners(self) -> list:
        outcome = self.outcome
        return [self.setup.players[s] for s in outcome.winners] if outcome else []

    def result_claimed(self):
        tag = self.record.tag("Result")
        return tag.value.strip() if tag is not None else None

    def result_agrees(self):
        if self.setup.result is None or self.status != COMPLETE:
            return None
        return sorted(self.setup.result) == sorted(self.winners())

    def findings(self) -> list:
        """Errors, fouls and warnings in line order: (line, code, message)."""
        rows = [(e.line, e.code, e.message) for e in self.errors]
        rows += [(f.line, f.code, M("{player}: {message} — enforced, disqualified", player=f.player,
                                    message=f.message) if f.enforced
                  else M("{player}: {message} — forgiven", player=f.player, message=f.message))
                 for f in self.fouls]
        rows += [(w.line, w.code, w.message) for w in self.warnings]
        return sorted(rows, key=lambda r: r[0])

    def as_json(self) -> dict:
        s = self.setup
        complete = self.status == COMPLETE
        st = self.settlement if complete else None
        outcome = self.outcome
        out = {
            "line": self.record.line,
            "players": list(s.players),
            "dealer": s.players[s.dealer] if s.players and s.dealer >= 0 else None,
            "rules": s.rules,
            "options": s.options.as_json(),
            "status": self.status,
            "outcome": {"kind": outcome.kind, "winners": self.winners(), "auto": outcome.auto,
                        "line": outcome.line} if outcome else None,
            "bet": fmt(s.bet),
            "carry_in": fmt(s.carry),
            "pot": fmt(st.pot) if st else None,
            "carry_out": fmt(st.carry_out) if st else None,
            "bonuses": [{"kind": k, "from": a, "to": b, "amount": fmt(c)} for k, a, b, c in st.bonuses]
            if st else None,
            "side_games": [{"game": p.game, "stake": fmt(p.stake), "players": p.players,
                            "carry_in": fmt(p.carry_in), "pot": fmt(p.pot), "winners": p.winners,
                            "cards": p.cards, "carry_out": fmt(p.carry_out)} for p in st.side_games]
            if st else None,
            "net": {name: fmt(c) for name, c in st.net.items()} if st else None,
            "fouls": [f.as_json() for f in self.fouls],
            "errors": [e.as_json() for e in self.errors],
            "warnings": [w.as_json() for w in self.warnings],
            "result_claimed": self.result_claimed(),
            "result_agrees": self.result_agrees(),
        }
        if self.status == VOID:  # N8, N9.6: its reason, no nets (it moves no money)
            out["net"], out["void_reason"] = {}, s.void
        return out


class FileReport:
    """The verdict on one file: its hands in order, and why it could not be read or holds none.

    `hands` is a list, or an iterator judged as it is read (`check`, hand by hand): then
    iterate the report itself, once; it counts as it goes, sets `error` to NO_HAND at the
    end if it saw no hand, and feeds `session` (a `session.SessionNight`) if one is given."""

    __slots__ = ("path", "hands", "error", "session", "seen", "any_invalid")

    def __init__(self, path: str, hands, error: str | None = None, session=None):
        self.path = path
        self.hands = hands
        self.error = error  # the file could not be read or holds no hand
        self.session = session
        self.seen = 0
        self.any_invalid = False

    def __iter__(self):
        for hand in self.hands:
            self.seen += 1
            self.any_invalid |= hand.status == INVALID
            if self.session is not None:
                self.session.add(hand)
            yield hand
        if not self.seen and not self.error:
            self.error = NO_HAND

    def as_json(self) -> dict:
        import json  # here: `check` without --json never needs it

        chunks = n8_chunks([FileReport(self.path, self.hands, self.error)], json.dumps)
        return json.loads("".join(chunks))["files"][0]

    @property
    def invalid(self) -> bool:
        return bool(self.error) or self.any_invalid or any(h.status == INVALID for h in self.hands)


def n8_chunks(files, encode):
    """N8's JSON document as text chunks, built as the files' hands are judged: one hand's
    report at a time is in memory, never the document. `files` are FileReports (iterated,
    hence counted); `encode` turns a value into JSON text (json's encoder of the caller's
    choice). A file's `error` and `session` come after its hands: they are known then."""
    yield '{"files": ['
    for number, report in enumerate(files):
        yield ("," if number else "") + '{"path": ' + encode(report.path) + ', "hands": ['
        for count, hand in enumerate(report):
            yield ("," if count else "") + encode(hand.as_json())
        tail = "]"
        if report.error:
            tail += ', "error": ' + encode(report.error)
        if report.session is not None:
            tail += ', "session": ' + encode(report.session.as_json())
        yield tail + "}"
    yield "]}\n"


def judge_hand(record, until=None) -> HandReport:
    """The verdict on one hand record (replayed up to line `until`, if given)."""
    setup, setup_errors = read_setup(record)
    if setup_errors:
        return HandReport(record, setup, None, setup_error=setup_errors[0])
    if setup.void is not None:
        return void_report(record, setup)
    return hand_report(record, setup, replay(record, setup, until))


def void_report(record, setup: Setup) -> HandReport:
    """N9.6: a hand tagged Void was abandoned at the table. Its lines are read (N1–N4: each
    line as written, and the player it names seated at the table); its moves are not judged
    as a hand to settle: no rule of play, no foul, no money. A line that cannot be read makes
    it invalid there, as any hand (N5.1); else its status is `void` (docs/rulings.md)."""
    for ev in record.events:
        if ev.error is not None:
            return HandReport(record, setup, None, setup_error=ev.error)
        if ev.actor is not None and ev.actor not in setup.players:
            message = unknown(M("{actor!r} is not a player at this table ({items}); names are matched exactly",
                                actor=ev.actor[:24], items=" ".join(setup.players)), ev.actor, setup.players)
            return HandReport(record, setup, None, setup_error=error(ev.line, "N3.1", message))
    return HandReport(record, setup, None)


def hand_report(record, setup: Setup, played: Replay) -> HandReport:
    """The verdict on a hand from its replay (a whole-record `replay`, or a `Referee` fed line
    by line: `Referee.report`), settled when complete."""
    report = HandReport(record, setup, played, warnings=list(played.warnings))
    if played.status == COMPLETE:
        settlement = report.settlement = settle(setup, played)
        report.warnings += settlement.warnings
        if setup.result is not None and report.result_agrees() is False:  # (a Result tag: else None)
            claimed = " ".join(setup.result) or "none"
            computed = " ".join(report.winners()) or "none"
            tag = record.tag("Result")
            report.warnings.append(warning(tag.line, "R11.7", M("the table's result ({claimed}) "
                                                                "disagrees with the referee's "
                                                                "({computed})",
                                                                claimed=claimed, computed=computed)))
    report.warnings.sort(key=lambda w: w.line)
    return report


def judge_stream(source, encoding=None, chunk: int = 256):
    """The verdict on each hand of a file, in order, judged as it is read: `source` is the
    file's bytes, an iterable of blocks of bytes (an open file) or `notation.parser.Lines`.

    Hands are read `chunk` at a time and then judged: reading and judging in runs is some
    7% faster than alternating hand by hand (bench/), and memory stays bounded by a chunk."""
    hands = iter_hands(source, encoding)
    while True:
        batch = [judge_hand(record) for record in list(islice(hands, chunk))]
        if not batch:
            return
        yield from batch


def judge_bytes(data: bytes, path: str = "-", encoding=None) -> FileReport:
    hands = list(judge_stream(data, encoding))
    return FileReport(path, hands, None if hands else NO_HAND)


def judge_text(text: str, path: str = "-") -> FileReport:
    return judge_bytes(text.encode("utf-8"), path)


__all__ = ["COMPLETE", "INCOMPLETE", "INVALID", "VOID", "HandReport", "void_report", "FileReport", "judge_hand",
           "judge_bytes", "judge_text", "judge_stream", "hand_report", "n8_chunks"]
