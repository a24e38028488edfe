"""The bot simulator: sessions of bot-played hands, every line judged by the referee as it is
written. `night.py` the table between hands, `hand.py` and `play.py` one hand, `bots.py`
what the bots want, `table.py` the referee they ask."""
