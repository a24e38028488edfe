"""The live board (issue 28): the night on the club's TV and the players' phones.

A front end like cli/, play/ and report/: it reads the book through a store service
(store/read/scoreboard.py: a Snapshot, whose hands are public views, public.py), renders it
(render.py, sentences.py, templates/), and serves it over HTTP with server-sent events (app.py,
served by serve.py), redrawn when the book changes (hub.py, store/read/changes.py). It never
writes to the book and holds no SQL. Loaded by `desmoche-ref board` only.
"""
