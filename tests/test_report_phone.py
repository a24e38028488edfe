"""The report's pages as issue 25 asks them (the layout at 390 px itself is checked in the
real browser, tests/test_report_browser.py): markdown rendered, the recorder said once, a
finding at its move and its line, a void hand said on its night, a chart for the phone, lines
at the same value told apart."""

import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).parent.parent
FRIDAY = (ROOT / "tests" / "conformance" / "friday.dsm").read_text()


def test_rule_text_and_the_pages_words_render_their_markdown():
    from desmoche_ref.report.pages import rule_html, text_html

    assert rule_html("must **announce** it, e.g. `end`, the *next* <b>") == (
        "must <strong>announce</strong> it, e.g. <code>end</code>, the <em>next</em> &lt;b&gt;")
    assert rule_html("2 * 3 is not *emphasis* here: a*b") == "2 * 3 is not <em>emphasis</em> here: a*b"
    assert text_html("write `end` (7d)") == "write <code>end</code> (7d)"


def test_the_recorder_is_said_once_and_where_it_changes():
    from desmoche_ref.report.judge import judge
    from desmoche_ref.report.pages import recorded_by
    from desmoche_ref.report.handtext import replay_html

    text = "[Players \"Ana Beto\"]\n[Dealer \"Ana\"]\n\ndeal Beto ?x9\ndeal Ana ?x9\nend\n"
    steps = judge(text).steps
    html = replay_html(1, text, steps, ("ana", "beto", "beto"))
    assert recorded_by(("ana", "beto", "beto")) == "ana"
    assert html.count("<span class=by>") == 1 and "5 deal Ana ?x9 <span class=by>entered by beto</span>\n" in html
    assert "<span class=by>" not in replay_html(1, text, steps, ("ana", "ana", "ana"))
    assert recorded_by((None, None)) is None


def test_lines_at_the_same_value_are_drawn_apart_each_with_its_marker():
    from desmoche_ref.report import svg
    from desmoche_ref.report.pages import chart

    series = [("Ana", [100, 200]), ("Carla", [-500, -500]), ("Dani", [-500, -500])]
    assert svg._offsets(series) == [[0.0, 0.0], [-1.5, -1.5], [1.5, 1.5]]
    drawn = svg.line_chart("nets", series, "hands")
    ys = [[float(p.split(",")[1]) for p in points.split()] for points in re.findall(r'points="([^"]+)"', drawn)
          if "," in points and len(points.split()) == 2]
    assert ys[1][0] != ys[2][0] and abs(ys[1][0] - ys[2][0]) == 3.0  # Carla and Dani: both visible
    assert [svg.MARKERS[i] for i in range(3)] == ["circle", "square", "triangle"]
    assert drawn.count('class="mark"') == 3 and "<title>Dani: -5.00</title>" in drawn
    both = chart("nets", series, "hands")
    assert both.count("<svg") == 2 and 'class="chart narrow" viewBox="0 0 360 250"' in both
    narrow = both[both.index('class="chart narrow"'):]
    assert len(re.findall(r'<text class="tick"[^>]*text-anchor="end">', narrow)) <= 6  # fewer figures
    assert 'viewBox="0 0 14 14"' in svg.legend_marker(1)


@pytest.mark.slow
def test_a_report_renders_the_rule_says_the_recorder_once_and_a_void_hand(tmp_path):
    """The R4.5 finding of friday without its `show`: the rule's **announce** rendered, the
    finding at its move and its line; a live hand voided is said on its night with its reason."""
    from conftest import invoke

    db = tmp_path / "book.db"
    record = tmp_path / "friday.dsm"
    record.write_text(FRIDAY.replace("show Beto Qd\n", ""))
    assert invoke("--db", db, "import", record).returncode == 0
    invoke("--db", db, "table", "new", "live", "--players", "Ana Beto", "--bet", "1")
    invoke("--db", db, "hand", "new", "--dealer", "Ana")
    invoke("--db", db, "deal", "Beto", "?x9")
    assert invoke("--db", db, "hand", "void", "--reason", "the deck was short a card").returncode == 0
    assert invoke("--db", db, "report", "-o", tmp_path / "site").returncode == 0
    page = next((tmp_path / "site" / "nights").glob("friday-*.html")).read_text(encoding="utf-8")
    assert "<strong>announce</strong>" in page and "**" not in page
    assert '<a href="#h1-m4">move 4</a>, line 12: <strong>R4.5</strong>' in page
    assert "<code>desmoche-ref view --at LINE</code>" in page and "`" not in re.sub(r"<[^>]+>", "", page)
    nights = list((tmp_path / "site" / "nights").glob("live-*.html"))
    assert len(nights) == 1 and "hand 1 is void: the deck was short a card" in nights[0].read_text(encoding="utf-8")
    assert 'id="h1"' not in nights[0].read_text(encoding="utf-8")  # export leaves it out
