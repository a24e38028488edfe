"""`desmoche-ref board` on the command line: where it says to look (this computer only, or the
club's network with a QR code and a warning), one line for a port it cannot have, and Ctrl-C
stopping it cleanly with a page's stream open."""

import http.client
import os
import re
import signal
import socket
import subprocess
import sys

import pytest

from conftest import invoke

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_on_this_computer_only_by_default(capsys):
    from desmoche_ref.cli.board import _say_where
    from desmoche_ref.cli.lang import ngettext

    _say_where("127.0.0.1", 8000, "http://127.0.0.1:8000/", False, ngettext)
    assert capsys.readouterr().out == (
        "board: http://127.0.0.1:8000/ (the room's screen: http://127.0.0.1:8000/tv); this computer only "
        "(--host 0.0.0.0 shows it on the club's network); Ctrl-C stops it\n")


def test_on_every_network_the_address_a_qr_code_and_who_can_watch(capsys):
    from desmoche_ref.cli.board import _say_where
    from desmoche_ref.cli.lang import ngettext

    _say_where("0.0.0.0", 8000, "http://192.0.2.7:8000/", True, ngettext)
    out = capsys.readouterr().out.splitlines()
    assert out[0] == ("board: http://192.0.2.7:8000/ on a phone (or scan the code below), "
                      "http://192.0.2.7:8000/tv on the room's screen")
    code = out[1:-1]
    assert len(code) > 10 and len({len(line) for line in code}) == 1 and set("".join(code)) <= set("█▀▄ ")
    assert out[-1] == ("warning: anyone on this network can watch the board (it shows no hidden card and "
                       "changes nothing in the book); Ctrl-C stops it")


def test_where_to_open_a_board_on_every_network():
    from desmoche_ref.board import serve

    assert serve.where_to_open("127.0.0.1", 8000) == ("http://127.0.0.1:8000/", False)
    assert serve.where_to_open("192.0.2.7", 80) == ("http://192.0.2.7:80/", True)
    address, everyone = serve.where_to_open("0.0.0.0", 8000)
    assert everyone and (address is None or re.fullmatch(r"http://\d+\.\d+\.\d+\.\d+:8000/", address))
    assert all(not a.startswith("127.") for a in serve.own_addresses())
    svg = serve.qr_svg("http://192.0.2.7:8000/")
    assert svg.startswith("<svg") and "style" not in svg and "script" not in svg


def test_a_port_it_cannot_have_is_one_line(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        ran = invoke("board", "--port", port, "--db", tmp_path / "book.db")
    assert ran.returncode == 2
    assert ran.stderr == (f"error: cannot serve the board on 127.0.0.1:{port}: Address already in use "
                          f"(--port picks another port, --host another address)\n")
    assert not (tmp_path / "book.db").exists()


@pytest.mark.slow
def test_ctrl_c_stops_it_cleanly_with_a_page_open(tmp_path):
    import shutil

    from conftest import template_book

    shutil.copy(template_book("sqlite"), tmp_path / "book.db")
    board = subprocess.Popen([sys.executable, "-m", "desmoche_ref", "board", "--port", "0", "--db",
                              str(tmp_path / "book.db")], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, env=dict(os.environ, PYTHONPATH=ROOT))
    try:
        first = board.stdout.readline()
        port = int(re.match(r"board: http://127\.0\.0\.1:(\d+)/ ", first).group(1))
        stream = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
        stream.request("GET", "/events")
        response = stream.getresponse()
        assert response.status == 200 and response.readline().startswith(b"id: ")
        board.send_signal(signal.SIGINT)
        out, err = board.communicate(timeout=20)
    finally:
        if board.poll() is None:
            board.kill()
    assert board.returncode == 0, err
    assert err == "board: stopped\n"
    assert "No table is in play tonight" in response.read().decode()  # the stream closed, not cut
