"""The user's reference ships with the project and refers to nothing outside it; the README
is a newcomer's first screen."""

import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).parent.parent


def shipped_text_files():
    yield ROOT / "README.md"
    yield from sorted((ROOT / "docs").rglob("*"))
    yield from sorted((ROOT / "desmoche_ref").rglob("*"))


def test_nothing_in_the_project_refers_outside_the_repository():
    outside = []
    for path in shipped_text_files():
        if path.is_file() and path.suffix in (".md", ".py"):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if "../shared" in line or "seeds/" in line:
                    outside.append(f"{path.relative_to(ROOT)}:{number}")
    assert outside == []


def test_the_docs_link_only_to_files_that_exist():
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for target in re.findall(r"\]\(([^)#:]+)\)", path.read_text(encoding="utf-8")):
            assert (path.parent / target).exists(), (path.name, target)


def test_the_readme_is_a_first_screen():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.split("## Start", 1)[1].split("##", 1)[0]
    commands = re.findall(r"```sh\n(.*?)```", start, re.S)[0].strip().splitlines()
    assert commands == ["python3 -m venv .venv && . .venv/bin/activate && pip install .",
                        "desmoche-ref check sample_logs/club-night.dsm"]
    assert "pip install -e '.[test]'" in text and "python -m pytest -q" in text
    assert "desmoche-ref view FILE --at LINE" in text and "desmoche-ref rules" in text
    assert "desmoche-ref show" not in text
    assert not re.search(r"\bissue\b|this .*machine", text, re.I)
    run = subprocess.run([sys.executable, "-m", "desmoche_ref", *commands[1].split()[1:]], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and "Traceback" not in run.stderr
