"""How the book is written: a write is a value. The planners (course.py, on a table's state:
tablestate.py, plans.py) return the rows a command appends; one writer (book_writer.py) stores a
list of plans in one transaction. The table service every front end records through
(tablebook.py), the import (importer.py, judging.py, batch.py, forked.py), the board's entry
desk (desk.py), a line sent twice (repeats.py), the live book's own refusals (live.py) and the
laws over a table's stored hands (lawbook.py)."""
