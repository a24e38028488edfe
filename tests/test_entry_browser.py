"""The board's entry in a real browser (issue 36): Debian's Chromium through Playwright at
390 px, as a screen reader finds the controls — by their role and accessible name only (the
verb, the player, the card as `2♦`; the fields by their labels). A check that does not see
the page signs in with the PIN `db grant` printed (on PostgreSQL with a league login and its
password), enters friday's hand by taps, then by the text field (in Spanish), and ends with
`check`'s verdict and nets; another phone's move appears on an open entry page without a
reload; no error, nothing fetched off the board, nothing wider than the phone."""

import json
import re

import pytest

from board_server import BoardServer
from test_board_browser import Tab
from conftest import friday_sqlite, with_friday, FRIDAY_LINES, Live
from desmoche_ref.cards import parse_card, pretty
from desmoche_ref.choices import SPANISH_OF
from test_store_roles import as_role, granted_book, owner_url, roles  # noqa: F401 (fixtures)

pytestmark = pytest.mark.slow
PHONE = {"width": 390, "height": 844}
FRIDAY_VERDICT = None


def verdict():
    """`check --json` of friday.dsm: its outcome and nets (what the entered hand must end with)."""
    global FRIDAY_VERDICT
    if FRIDAY_VERDICT is None:
        checked = json.loads(Live("sqlite://")("check", "--json", "tests/conformance/friday.dsm").stdout)
        FRIDAY_VERDICT = checked["files"][0]["hands"][0]
    return FRIDAY_VERDICT


class Phone(Tab):
    """A phone's page at the entry (test_board_browser.Tab: its console errors and any request
    off the board kept), 390 px wide."""

    def __init__(self, browser, board, lang="en"):
        super().__init__(browser, board, "/entry", PHONE["width"], PHONE["height"], lang=lang)

    def button(self, name):
        return self.page.get_by_role("button", name=name, exact=True)

    def sign_in(self, name, secret, labels=("name", "PIN"), button="sign in"):
        self.page.get_by_label(labels[0], exact=True).fill(name)
        self.page.get_by_label(labels[1], exact=True).fill(secret)
        self.button(button).click()
        self.page.get_by_role("link", name="friday", exact=True).click()
        self.page.wait_for_selector("#entry-part")

    def tap(self, name, line):
        """The button named `name`, then the page showing the line it builds."""
        self.button(name).click()
        self.page.wait_for_function("(line) => document.getElementById('entry-part').dataset.line === line",
                                    arg=line)

    def said(self):
        return self.page.locator("#said span").all_inner_texts()

    def fits(self):
        return self.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    def close(self):
        assert self.errors == [] and self.outside == [], (self.errors, self.outside)
        super().close()


def enter_by_taps(phone, line, spanish=False):
    """A line entered as a thumb does: its verb, its player, each of its words, then send."""
    words = line.split()
    built = []
    for i, word in enumerate(words):
        if i == 0:
            name = SPANISH_OF.get(word, word) if spanish else word
        elif parse_card(word) is not None:
            name = pretty(parse_card(word))
        else:
            name = "a" if spanish and word == "to" else word
        built.append(word)
        phone.tap(name, " ".join(built))
    assert phone.page.locator("output#preview").inner_text() == line
    with phone.page.expect_navigation():
        phone.button("enviar" if spanish else "send").click()


@pytest.fixture
def sqlite_friday(tmp_path):
    return friday_sqlite(tmp_path)


def printed_pin(url, name="Beto"):
    """What the owner reads on the last line of `db grant NAME --recorder --pin`."""
    last = Live(url)("db", "grant", name, "--recorder", "--pin").stdout.rstrip("\n").rsplit("\n", 1)[1]
    assert re.fullmatch(r"PIN: \d{10}", last)
    return last[len("PIN: "):]


def test_a_whole_friday_hand_by_taps_at_390_px_on_sqlite(sqlite_friday, chromium):
    url = sqlite_friday
    pin = printed_pin(url)
    board = BoardServer(url, entry=True)
    try:
        phone = Phone(chromium, board)
        phone.sign_in("Beto", pin)
        assert phone.fits()
        for n, line in enumerate(FRIDAY_LINES + ["end"], 1):
            enter_by_taps(phone, line)
            assert phone.said()[0].startswith(f"move {n}: {line}"), (line, phone.said())
        assert_closed_as_check_says(phone.said(), url, "Beto")
        assert phone.fits()
        phone.close()
    finally:
        board.stop()


def test_a_whole_friday_hand_by_taps_at_390_px_on_postgresql(owner_url, roles, chromium):
    owner, (viewer,) = granted_book(owner_url, roles, "--reader")
    owner("db", "grant", "desmoche_pw", "--recorder")  # the test server's one role with a password
    with_friday(owner_url)
    board = BoardServer(as_role(owner_url, viewer), entry=True)
    try:
        phone = Phone(chromium, board)
        phone.sign_in("desmoche_pw", "right", labels=("login", "password"))
        for n, line in enumerate(FRIDAY_LINES + ["end"], 1):
            enter_by_taps(phone, line)
            assert phone.said()[0].startswith(f"move {n}: {line}"), (line, phone.said())
        assert_closed_as_check_says(phone.said(), owner_url, "desmoche_pw")
        phone.close()
    finally:
        board.stop()


def test_a_whole_friday_hand_by_the_text_field_in_spanish_and_another_phone_sees_each_move(sqlite_friday,
                                                                                        chromium):
    url = sqlite_friday
    pin = printed_pin(url, "Ana")
    board = BoardServer(url, entry=True, lang="es")
    try:
        typing = Phone(chromium, board, "es")
        typing.sign_in("Ana", pin, labels=("nombre", "PIN"), button="entrar")
        watching = Phone(chromium, board, "es")
        watching.sign_in("Ana", pin, labels=("nombre", "PIN"), button="entrar")
        watching.page.evaluate("window.notReloaded = true")
        field = typing.page.get_by_label("jugada", exact=True)
        for n, line in enumerate(FRIDAY_LINES + ["end"], 1):
            field = typing.page.get_by_label("jugada", exact=True)
            field.fill(line)
            with typing.page.expect_navigation():
                typing.button("enviar jugada").click()
            assert typing.said()[0].startswith(f"jugada {n}: "), (line, typing.said())
            watching.page.wait_for_function("(n) => document.getElementById('entry-part').dataset.seen === '1-' + n",
                                            arg=n, timeout=5000)
        assert watching.page.evaluate("window.notReloaded") is True
        said = typing.said()
        assert "mano 1 cerrada y asentada:" in said and "netos: Ana -25.00, Beto -10.00, Carla 35.00" in said, said
        assert {m["recorder"] for m in Live(url).json("hand", "log", "--json")} == {"Ana"}
        typing.close()
        watching.close()
    finally:
        board.stop()


def assert_closed_as_check_says(said, url, recorder):
    """The page's answer to `end`: the hand closed with check's outcome and nets; the book agrees."""
    checked = verdict()
    nets = checked["net"]
    assert (checked["status"], checked["outcome"]["winners"]) == ("complete", ["Carla"])
    assert said[1:] == ["hand 1 closed and posted:", "Carla wins with ten cards down (move 28)",
                        "nets: " + ", ".join(f"{p} {v}" for p, v in nets.items())], said
    live = Live(url)
    shown = live.json("hand", "show", "--json")
    assert (shown["status"], shown["outcome"]["winners"], shown["net"]) == ("complete", ["Carla"], nets)
    assert {m["recorder"] for m in live.json("hand", "log", "--json")} == {recorder}
