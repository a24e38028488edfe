"""The table session (`desmoche-ref play`): its logic as pure functions.

`lines` reads what the recorder types (short verb forms, session commands, `new`'s options),
`prompt` says where the hand stands (the prompt line, the full view of the table), `complete`
offers what may be typed next, `script` turns a record into session input. All of it asks
the engine's queries and never touches the book or the terminal: `cli/play.py` does that.
"""
