"""The rulebook in code: every code the program can cite (R…, F…, N…) with its words and a
short title, read from the rulebook text that ships inside the package (data/RULES.md,
data/NOTATION.md; docs/ holds the same files for people to read). In Spanish the rules are
data/es/REGLAS.md (docs/es/REGLAS.md), the same codes; the notation stays English but for
its sections' titles, which the catalog translates (NOTATION_SECTIONS).
Pure: text in, values out (the Spanish titles are read from the packaged catalog).
"""

import os
import re
import unicodedata
from typing import NamedTuple

from .i18n import N_, translations

DATA = os.path.join(os.path.dirname(__file__), "data")
SOURCES = ("RULES.md", "NOTATION.md")
# language -> the file each source is read from, under data/
FILES = {"en": {"RULES.md": "RULES.md", "NOTATION.md": "NOTATION.md"},
         "es": {"RULES.md": "es/REGLAS.md", "NOTATION.md": "NOTATION.md"}}
# The titles of the notation's sections (## N1 Lines …), as NOTATION.md writes them: the
# Spanish rulebook shows them in Spanish (the rules themselves stay as the notation words them)
NOTATION_SECTIONS = (N_("Lines"), N_("Cards"), N_("Tags"), N_("Events"), N_("What the referee reports"),
                     N_("Open and closed records"), N_("Canonical form and round trip"),
                     N_("Machine-readable report"), N_("Sessions (check --session, and import)"))
CODE = re.compile(r"([RNF])(\d+)(?:\.(\d+[a-z]?))?", re.IGNORECASE)

_HEADING = re.compile(r"## (?:(\d+)\.|(N\d+)) (.+)")
_RULE = re.compile(r"- ([RN]\d+\.\d+[a-z]?) (.*)")
_FOUL = re.compile(r"\s+- \*\*(F\d) ([^*]+)\*\* — (.*)")
_SENTENCE_END = re.compile(r"(?<=[a-záéíóúüñ0-9)`])\. +(?=[A-ZÁÉÍÓÚÑ¿¡0-9(`])")


class Rule(NamedTuple):
    code: str      # R9.1, F3, N4.2a; a section's code is R9 or N4
    title: str     # a short title, from the rule's first words
    text: str      # the rule as the rulebook words it (the bullet's lines, without the bullet)
    section: str   # the code of its section (R9, N4)
    source: str    # RULES.md or NOTATION.md


class Rulebook(NamedTuple):
    rules: dict     # code -> Rule, sections (R9, N4) included
    sections: list  # section codes in the rulebook's order

    def get(self, code: str):
        """The Rule for a code (any case: r9.1 is R9.1), or None."""
        return self.rules.get(normal_code(code))

    def titles(self) -> dict:
        return {code: rule.title for code, rule in self.rules.items()}

    def in_section(self, section: str) -> list:
        return [r for r in self.rules.values() if r.section == section and r.code != section]

    def search(self, words: str) -> list:
        """The rules whose words mention `words`, and the sections whose title does (R9
        Forcing), as a whole word, any case, accents or none (corazon finds corazón); in the
        rulebook's order."""
        pattern = re.compile(r"(?<!\w)" + re.escape(_fold(words.strip())) + r"(?!\w)", re.IGNORECASE)
        return [r for r in self.rules.values()
                if pattern.search(_fold((r.title if r.code == r.section else r.text).replace("`", "")))]


def _fold(text: str) -> str:
    """`text` without its accents."""
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))


def normal_code(text: str) -> str:
    m = CODE.fullmatch(text.strip())
    if not m:
        return text
    letter, major, minor = m.groups()
    return f"{letter.upper()}{major}" + (f".{minor.lower()}" if minor else "")


def load(lang: str = "en") -> Rulebook:
    """The packaged rulebook in `lang` (en, es), read afresh on each call: nothing is kept
    between calls. A rule's `source` names the book (RULES.md) whatever the language."""
    rules: dict[str, Rule] = {}   # code -> rule
    sections: list[str] = []      # the sections' codes, in the books' order
    for source in SOURCES:
        with open(os.path.join(DATA, FILES[lang][source]), encoding="utf-8") as f:
            parse(f.read(), source, rules, sections)
    if lang != "en":
        say = translations(lang).gettext
        for code in sections:
            if rules[code].source == "NOTATION.md":
                rules[code] = rules[code]._replace(title=say(rules[code].title))
    return Rulebook(rules, sections)


def parse(text: str, source: str, rules: dict, sections: list) -> None:
    """Add the sections and numbered rules of one rulebook file to `rules` and `sections`."""
    prefix = "R" if source == "RULES.md" else "N"
    lines = text.split("\n")
    section = None
    i = 0
    while i < len(lines):
        line = lines[i]
        heading = _HEADING.fullmatch(line)
        if heading:
            number, ncode, title = heading.groups()
            section = f"{prefix}{number}" if number else ncode
            body, i = _block(lines, i + 1, section_intro=True)
            rules[section] = Rule(section, _plain(title), "\n".join(body).strip(), section, source)
            sections.append(section)
            continue
        if line.startswith("## "):  # an unnumbered part (the examples): no code
            section = None
        rule = _RULE.fullmatch(line)
        if rule and section:
            code, first = rule.groups()
            body, i = _block(lines, i + 1)
            words = "\n".join([first] + [b[2:] for b in body])
            rules[code] = Rule(code, title_of(words), words.strip(), section, source)
            for foul in _fouls(body):
                rules[foul.code] = foul._replace(section=section, source=source)
            continue
        i += 1


def _block(lines, i, section_intro=False):
    """The lines from `i` that belong to the item above: indented ones (blank lines between
    them included); for a section's introduction, everything up to its first rule."""
    body = []
    while i < len(lines):
        line = lines[i]
        if line.startswith("## "):
            break
        if section_intro:
            if _RULE.fullmatch(line):
                break
        elif line.strip() and not line.startswith(" "):
            break
        elif not line.strip():  # a blank line ends the rule unless indented lines follow
            rest = next((l for l in lines[i + 1:] if l.strip()), "")
            if not rest.startswith(" "):
                break
        body.append(line)
        i += 1
    while body and not body[-1].strip():
        body.pop()
    return body, i


def _fouls(body) -> list:
    """The fouls F1-F5 listed inside a rule (R14.2), each a Rule of its own."""
    found = []
    for k, line in enumerate(body):
        m = _FOUL.fullmatch(line)
        if not m:
            continue
        code, name, first = m.groups()
        indent = len(line) - len(line.lstrip())
        more = []
        for nxt in body[k + 1:]:
            if len(nxt) - len(nxt.lstrip()) <= indent:
                break
            more.append(nxt.strip())
        words = " ".join([first] + more)
        found.append(Rule(code, f"{name}: {title_of(words)}", f"{name} — {words}", "", ""))
    return found


def title_of(words: str, width: int = 72) -> str:
    """A short title: a rule's bold lead-in if it has one, else its first sentence, cut at a
    word to about `width` characters."""
    lead = []
    for line in words.split("\n"):  # its first paragraph: no table, no list below it
        if not line.strip() or line.lstrip().startswith(("|", "- ")):
            break
        lead.append(line)
    text = " ".join(" ".join(lead).split())
    text = re.sub(r"^\(((?:RULING|DECISIÓN)[^)]*)\) ", "", text)
    bold = re.match(r"\*\*(.+?)\.?\*\*", text)
    if bold:
        return _plain(bold.group(1))
    end = _SENTENCE_END.search(text)
    first = _plain(text[:end.start()] if end else text).rstrip(".:")
    if len(first) <= width:
        return first
    return first[:width].rsplit(" ", 1)[0].rstrip(",;:— ") + "…"


def _plain(text: str) -> str:
    return text.replace("**", "").replace("`", "").strip()
