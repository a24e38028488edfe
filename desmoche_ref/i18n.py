"""The language a person reads: English or Spanish, and the Spanish gettext catalog.

Pure apart from reading the environment it is given and the packaged catalog: `choose`
decides the language from an option and an environment; `translations` loads the
catalog (desmoche_ref/locale/es/LC_MESSAGES/desmoche_ref.mo) only when Spanish is chosen,
so an English run never opens it. `N_` marks a message for the catalog where it is
written and translates nothing: the text is looked up when it is shown.

The catalog's source is desmoche_ref/locale/es/LC_MESSAGES/desmoche_ref.po; refresh it
and the compiled .mo with `python tools/catalog.py` (see that file).
"""

import os
from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import gettext

LANGS = ("en", "es")
DOMAIN = "desmoche_ref"
LOCALE = os.path.join(os.path.dirname(__file__), "locale")
# The environment that chooses, strongest first: the project's own, then the locale's
# (POSIX order: the first of these that is set decides the messages' language).
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")


def N_(message: str, plural: str | None = None) -> str:
    """Mark `message` for the catalog (with its `plural`: a plural message that click's
    ngettext shows); translated where it is shown."""
    return message


def language_of(value: str | None) -> str | None:
    """'es' or 'en' for a language or locale name (es, es_NI.UTF-8, en_US), else None."""
    value = (value or "").strip().lower()
    for lang in LANGS:
        if value == lang or value.startswith((lang + "_", lang + "-", lang + ".")):
            return lang
    return None


def choose(option: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language: `option` (--lang) if given, else DESMOCHE_LANG if it names es or en,
    else the locale (LC_ALL, LC_MESSAGES, LANG: the first set; es… is Spanish), else English."""
    if option:
        return language_of(option) or "en"
    env = os.environ if environ is None else environ
    lang = language_of(env.get("DESMOCHE_LANG"))
    if lang:
        return lang
    for name in LOCALE_VARIABLES:
        value = env.get(name)
        if value:
            return "es" if language_of(value) == "es" else "en"
    return "en"


@lru_cache(maxsize=None)
def translations(lang: str) -> "gettext.NullTranslations":
    """The gettext translations for `lang`: the packaged catalog for Spanish, none (every
    message as written) for English."""
    import gettext  # here: a command that shows no words never loads it

    if lang == "en":
        return gettext.NullTranslations()
    with open(catalog_path(lang), "rb") as f:
        return gettext.GNUTranslations(f)


def catalog_path(lang: str, suffix: str = ".mo") -> str:
    return os.path.join(LOCALE, lang, "LC_MESSAGES", DOMAIN + suffix)
