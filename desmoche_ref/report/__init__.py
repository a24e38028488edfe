"""`desmoche-ref report`: the book as pages that open from disk (issue 18).

collect.py reads the book (through store/league.py's read functions only), judge.py judges
each hand again and replays it move by move (view.table_steps), pages.py and the templates
under templates/ make the HTML (Jinja2, autoescaped), svg.py the charts, site.py writes
them. Imported by cli/report.py only: no other command loads Jinja2.
"""
