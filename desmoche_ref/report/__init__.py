"""`desmoche-ref report`: the book as pages that open from disk (issues 18, 27 and 35).

The data comes from the store (store/read/season.py, through the scorebook service: the season's
hands, money, nights and standings, then the hands' records a batch at a time); judge.py
judges each hand again and replays it move by move (view.table_steps), handtext.py writes a
hand's record and replay as one text, nights.py the night pages that hold the hands (a page
a night, or a page each hundred hands of a longer one), pages.py and the templates under
templates/ the HTML (Jinja2, autoescaped), values.py what the season and player pages show,
svg.py the charts, site.py writes them and manifest.py brings a folder made before up to
date. Imported by cli/report.py only: no other command loads Jinja2.
"""
