"""The product's words in the buyer's language: every user-facing string is an English message id that goes
through :func:`_` (or is marked with :func:`N_` where it is declared and translated where it is shown), and the
catalogs in ``quotetui/locale`` (gettext ``.po`` sources, compiled ``.mo`` beside them; managed with Babel,
see docs/LANGUAGE.md) give its translation.

One language is in use per process at a time (:func:`use`); switching takes effect for every string asked for
afterwards, which is how the TUI switches without restarting. Data is never translated (names as typed), and
neither are JSON keys and enum codes, which scripts read.
"""

from __future__ import annotations

import gettext as _gettext
from pathlib import Path

DOMAIN = "quotetui"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
ENGLISH = "en"
LANGUAGES: dict[str, str] = {"en": "English", "zh-CN": "简体中文"}
"""The languages quotetui speaks, by their BCP 47 tag (what ``--lang`` takes), each named in itself."""

_CATALOG_NAMES = {"zh-CN": "zh_CN"}  # a tag's folder under locale/ (gettext's form)
_ALIASES = {
    "en": "en",
    "c": "en",
    "posix": "en",
    "zh": "zh-CN",
    "zh-cn": "zh-CN",
    "zh-hans": "zh-CN",
    "zh-hans-cn": "zh-CN",
    "zh-sg": "zh-CN",
}
"""Other ways to write a language (lower case, ``-`` for ``_``, no encoding): ``zh_CN.UTF-8`` is zh-CN; a
Chinese locale that is not Simplified (zh_TW, zh_HK) is not, and falls back as any other unknown language."""

_translations: _gettext.NullTranslations = _gettext.NullTranslations()
_current = ENGLISH
_chosen = (ENGLISH, "default")  # what the run was asked to speak, and what asked (``chosen``)


def normalise(name: str) -> str | None:
    """The language tag ``name`` means (``zh_CN.UTF-8``, ``zh-cn``, ``zh`` → ``zh-CN``; ``en_GB``, ``C`` →
    ``en``), or None when quotetui does not speak it."""
    key = name.strip().split(".")[0].split("@")[0].replace("_", "-").lower()
    if key in _ALIASES:
        return _ALIASES[key]
    if key.startswith("en-"):
        return ENGLISH
    return None


def _(message: str) -> str:
    """``message`` in the language in use (itself in English, or when the catalog lacks it)."""
    return _translations.gettext(message)


def N_(message: str) -> str:
    """``message`` unchanged: marks a string declared where no language is known yet (a module constant, a
    field's label) so that extraction finds it; the place that shows it asks :func:`_`."""
    return message


def NP_(context: str, message: str) -> tuple[str, str]:
    """:func:`N_` for a message that needs its context (one English word with two meanings: ``quoted`` as an
    offer's status and as a price): the pair, which the place that shows it gives to :func:`pgettext`.
    Extraction knows it by ``babel.cfg``'s ``keywords = NP_:1c,2``."""
    return context, message


def pgettext(context: str, message: str) -> str:
    """``message`` as ``context`` means it, in the language in use (itself in English)."""
    return _translations.pgettext(context, message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The singular or plural form for ``count``, in the language in use."""
    return _translations.ngettext(singular, plural, count)


def current() -> str:
    """The tag of the language in use (``en``, ``zh-CN``)."""
    return _current


def chosen() -> tuple[str, str]:
    """The language the run was asked to speak and what asked (``--lang``, ``$LANG``, ``the config file``,
    ``default``): what ``quotetui config`` shows, even while ``--json`` speaks English for a script."""
    return _chosen


def catalog(tag: str) -> _gettext.NullTranslations:
    """The translations of ``tag`` (a key of :data:`LANGUAGES`): none for English, else its compiled catalog from
    ``locale/`` (a missing one is a broken install: :class:`FileNotFoundError`)."""
    if tag == ENGLISH:
        return _gettext.NullTranslations()
    with open(LOCALE_DIR / _CATALOG_NAMES[tag] / "LC_MESSAGES" / f"{DOMAIN}.mo", "rb") as handle:
        return _gettext.GNUTranslations(handle)


def use(tag: str, by: str | None = None) -> None:
    """Speak ``tag`` (a key of :data:`LANGUAGES`) from now on; ``by``: what chose it (the run's choice, as
    :func:`chosen` says; None for a switch of the moment, such as ``--json``'s English). English needs no
    catalog; another language's compiled catalog is read from ``locale/`` (a missing one is a broken install:
    :class:`FileNotFoundError`)."""
    global _translations, _current, _chosen
    if tag not in LANGUAGES:
        raise ValueError(f"unknown language {tag!r}")
    _translations = catalog(tag)
    _current = tag
    if by is not None:
        _chosen = (tag, by)


def install(translations: _gettext.NullTranslations, tag: str) -> None:
    """Speak through ``translations`` (the pseudo-locale of the tests, which wraps every message)."""
    global _translations, _current
    _translations, _current = translations, tag
