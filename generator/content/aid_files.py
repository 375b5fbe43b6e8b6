"""Where the aid's text comes from, without the template engine: the template's file name, its
sentences' catalogues (locale/<lang>/aid.po) read, and the flowchart's settings as the
template writes them.  What checks the catalogues and what draws the flowchart read them here.
"""

from collections.abc import Mapping
from pathlib import Path

from generator.content.words import LOCALE, SOURCE_LANGUAGE, Words, po_catalogue
from generator.errors import RenderError

TEMPLATE = "aid.md.j2"
AID_DOMAIN = "aid"      # the template's sentences: locale/<lang>/aid.po (msgid = the English sentence)


def aid_catalogue_file(lang: str) -> Path:
    return LOCALE / lang / f"{AID_DOMAIN}.po"


_AID_READ: dict[tuple[str, int, int], Words] = {}     # (file, size, mtime): read again once edited (serve)


def aid_words(lang: str) -> Words:
    """The aid's sentences in `lang`, with their plural forms (English, or a language without the
    file: none; as gettext does, an untranslated sentence prints in English;
    tests/test_aid_catalogues.py checks each edition's file has them all).  Read once a process,
    and again when the file changes (a translator's save under `bailout serve`)."""
    path = aid_catalogue_file(lang)
    if lang == SOURCE_LANGUAGE or not path.is_file():
        return Words(lang, {})
    info = path.stat()
    key = (str(path), info.st_size, info.st_mtime_ns)
    if key not in _AID_READ:
        catalogue = po_catalogue(path, lang, AID_DOMAIN)
        _AID_READ[key] = Words(lang, catalogue.messages, catalogue.plurals, catalogue.plural_forms)
    return _AID_READ[key]


def flowchart_settings(attributes: Mapping[str, str], source: Path) -> tuple[int, list[tuple[int, int]], list[str]]:
    """(boxes per row, [(from, to) box indices], [label per bypass]) from the flowchart div's
    attributes: data-per-row="4", data-bypass="1-3, 3-5", data-bypass-label="one | two".
    Both renderers of the aid read the chart's shape here."""
    bypasses: list[tuple[int, int]] = []
    for pair in (attributes.get("data-bypass") or "").split(","):
        if not pair.strip():
            continue
        try:
            a, b = (int(n) - 1 for n in pair.split("-"))
        except ValueError:
            raise RenderError(f"{source}: data-bypass must read like 1-3 or 1-3, 3-5; got {pair.strip()!r}") from None
        bypasses.append((a, b))
    labels = [label.strip() for label in (attributes.get("data-bypass-label") or "").split("|")] if bypasses else []
    if len(labels) != len(bypasses) and any(labels):
        raise RenderError(f"{source}: data-bypass-label gives {len(labels)} labels (split by '|') for "
                          f"{len(bypasses)} bypasses")
    labels = labels if len(labels) == len(bypasses) else [""] * len(bypasses)
    try:
        per_row = int(attributes.get("data-per-row", "4"))
    except ValueError:
        raise RenderError(f"{source}: data-per-row must be a whole number") from None
    return per_row, bypasses, labels
