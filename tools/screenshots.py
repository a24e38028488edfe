"""The README's screenshots of `desmoche-ref report`, taken from its real output.

    python tools/screenshots.py            # writes docs/report-season.png, docs/report-replay.png

A simulated club season (240 hands, four players, 20 a night: twelve nights) is imported
into a new book and published with `desmoche-ref report -o season/`, exactly the two
commands the README shows; headless Chromium (Debian's /usr/bin/chromium, driven by
Playwright: pip install -e '.[test]') opens the pages from disk: the season page at 1280
pixels wide, and a hand's replay on its night's page, opened at the hand (#h7) and stepped
to a move with the arrow keys.
"""

import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import benchkit  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
HAND, MOVES = 7, 24  # the hand shown, and how many times → is pressed on its page


def command(*args, cwd):
    done = subprocess.run([sys.executable, "-m", "desmoche_ref", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"desmoche-ref {' '.join(map(str, args))}: {done.stderr or done.stdout}")
    return done.stdout


def main() -> int:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        folder = pathlib.Path(folder)
        text = command("simulate", "--hands", 240, "--players", 4, "--seed", 7, cwd=folder)
        (folder / "club.dsm").write_text(benchkit.dated(text, 20), encoding="utf-8")
        book = folder / "season.db"
        command("import", "club.dsm", "--db", book, cwd=folder)
        command("report", "-o", "season/", "--db", book, cwd=folder)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
            page = browser.new_page(viewport={"width": 1280, "height": 1100})
            page.goto((folder / "season" / "index.html").as_uri())
            page.screenshot(path=str(ROOT / "docs" / "report-season.png"))
            page.set_viewport_size({"width": 1100, "height": 900})
            night = next(p for p in sorted((folder / "season" / "nights").glob("club-*.html"))
                         if f'id="h{HAND}"' in p.read_text(encoding="utf-8"))
            page.goto(night.as_uri() + f"#h{HAND}")
            for _ in range(MOVES):
                page.keyboard.press("ArrowRight")
            hand = page.locator(f"#h{HAND}")
            hand.locator("pre.head").evaluate("e => e.hidden = true")  # the replay, not the tags above it
            hand.screenshot(path=str(ROOT / "docs" / "report-replay.png"))
            browser.close()
    for name in ("report-season.png", "report-replay.png"):
        print(f"docs/{name}: {(ROOT / 'docs' / name).stat().st_size // 1000} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
