"""Why the book can be trusted: the journal every write appends to (journal.py), `verify`
(verify.py) replaying the course from it (course_replay.py, book_replay.py) and reading it
(pinned.py), who wrote each row (identity.py), what each role may do (roles.py) and how a
recorder signs in to the board (signin.py, pins.py)."""
