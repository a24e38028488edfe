"""The board's entry sessions and its sign-in limits (issue 36). In memory only: a board
restarted signs every phone out.

- A **session** is a signed-in recorder (store/trust/signin.py) behind a random token, the one
  thing its cookie holds (HttpOnly, SameSite=Strict: board/entry.py); with it a CSRF token
  every form carries, and the one answer the next page shows. It ends on signing out, after
  HOURS (the night), or when its recorder may no longer record (a PIN or a role revoked: the
  desk says so before every read and write).
- **Sign-in limits**: a name, and an address, may fail to sign in only a few times a minute
  (TRIES_PER_NAME, TRIES_PER_ADDRESS); past that every try is refused without being checked
  until the oldest failure is a minute old — the refusal says how long to wait.
"""

import hmac
import secrets
import threading
import time
from collections import OrderedDict, deque

HOURS = 12                 # a session lasts the night
WINDOW = 60.0              # seconds over which failed sign-ins are counted
TRIES_PER_NAME = 5         # failures a name may have in WINDOW
TRIES_PER_ADDRESS = 10     # failures an address may have in WINDOW (several phones behind one)
MOST_SESSIONS = 500        # sessions kept at once: past it the oldest ends
PER_RECORDER = 4           # sessions of one recorder at once (each may hold a server connection): past it
                           # their oldest ends
MOST_COUNTED = 10_000      # names and addresses whose failures are counted at once


class Session:
    __slots__ = ("token", "recorder", "csrf", "started", "said")

    def __init__(self, recorder, now: float):
        self.token = secrets.token_urlsafe(32)
        self.csrf = secrets.token_urlsafe(32)
        self.recorder, self.started = recorder, now
        self.said = None   # the answer to the last form, shown once by the next page

    def form_ok(self, token: str | None) -> bool:
        return token is not None and hmac.compare_digest(token.encode(), self.csrf.encode())


class Sessions:
    def __init__(self, hours: float = HOURS, clock=time.monotonic):
        self.lifetime, self.clock = hours * 3600, clock
        self._by_token: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def start(self, recorder) -> Session:
        session = Session(recorder, self.clock())
        with self._lock:
            ended = [s for s in self._by_token.values() if s.recorder.name == recorder.name]
            ended = ended[:max(0, len(ended) - PER_RECORDER + 1)]
            for old in ended:
                del self._by_token[old.token]
            self._by_token[session.token] = session
            while len(self._by_token) > MOST_SESSIONS:
                ended.append(self._by_token.popitem(last=False)[1])
        for old in ended:
            old.recorder.close()
        return session

    def get(self, token: str | None):
        """The live session of `token`, or None (an unknown token, one that ended or expired)."""
        if not token:
            return None
        with self._lock:
            session = self._by_token.get(token)
            if session is None:
                return None
            if self.clock() - session.started > self.lifetime or session.recorder.closed:
                del self._by_token[token]
            else:
                return session
        session.recorder.close()
        return None

    def end(self, session) -> None:
        with self._lock:
            self._by_token.pop(session.token, None)
        session.recorder.close()

    def end_all(self) -> None:
        with self._lock:
            ended, self._by_token = list(self._by_token.values()), OrderedDict()
        for session in ended:
            session.recorder.close()


class Throttle:
    """Failed sign-ins counted per name and per address over the last WINDOW seconds."""

    def __init__(self, per_name: int = TRIES_PER_NAME, per_address: int = TRIES_PER_ADDRESS,
                 window: float = WINDOW, clock=time.monotonic):
        self.limits = {"name": per_name, "address": per_address}
        self.window, self.clock = window, clock
        self._failed: OrderedDict = OrderedDict()   # (kind, key) -> deque of times
        self._lock = threading.Lock()

    def wait(self, name: str, address: str) -> int:
        """Seconds before `name` may try again from `address` (0: now)."""
        now = self.clock()
        longest = 0.0
        with self._lock:
            for kind, key in (("name", name), ("address", address)):
                times = self._recent((kind, key), now)
                if times is not None and len(times) >= self.limits[kind]:
                    longest = max(longest, times[0] + self.window - now)
        return int(longest) + 1 if longest > 0 else 0

    def failed(self, name: str, address: str) -> None:
        now = self.clock()
        with self._lock:
            for kind, key in (("name", name), ("address", address)):
                times = self._recent((kind, key), now)
                if times is None:
                    times = self._failed[kind, key] = deque()
                times.append(now)
                self._failed.move_to_end((kind, key))
            while len(self._failed) > MOST_COUNTED:
                self._failed.popitem(last=False)

    def _recent(self, key, now: float):
        times = self._failed.get(key)
        if times is None:
            return None
        while times and times[0] <= now - self.window:
            times.popleft()
        if not times:
            del self._failed[key]
            return None
        return times
