"""The bot simulator (issue 4): a session of bot-played hands as `.dsm` text.

Pure: no I/O, no click. `simulate_session` plays N consecutive hands of one table with bots
that choose among the moves the referee allows (desmoche_ref/sim/), and writes them in the
canonical form of NOTATION.md (N7). With `vary` on it also varies the preset and every
option of R15 across hands, adds fouls (F1-F5, some forgiven), contested claims and knocks,
and writes a few hands as closed records (N6).
"""

from .sim.night import NAMES, SIDE_GAMES, session as _session, simulate_session

__all__ = ["NAMES", "SIDE_GAMES", "simulate_session", "_session"]
