"""The book read: standings, the ledger, settle-up and export (league.py), the book-wide
service (scorebook.py), a table's hands as the commands read them (hands.py), the season's
pages (season.py), careers and ratings (career.py, ratings.py), the pots a table holds
(pots.py), and the live board's night (tonight.py, scoreboard.py, changes.py)."""
