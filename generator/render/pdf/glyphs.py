"""Data text the kit's font cannot draw: caught before any PDF, named by file and key.

IBM Plex Sans and its condensed face cover Latin with Latin Extended, Greek and Cyrillic, IBM Plex
Sans JP Japanese; a character outside an edition's faces (canvas.edition_faces) would print as an
empty box, so every data string any output prints is checked first, and every word of the
edition's catalogues (its plural forms and the aid's sentences too), against the letters every
face of the edition holds.
"""

import functools
import unicodedata
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import MappingProxyType

from msgspec import Struct
from msgspec.structs import fields
from reportlab.pdfbase import pdfmetrics

from generator.content.marks import CHANGED
from generator.content.words import Words, catalogue_file
from generator.data.glossary import Glossary, data_source
from generator.data.model import KitData, Nationality
from generator.errors import RenderError
from generator.layout import pictograms
from generator.render.pdf.canvas import LATIN, FaceSet, edition_faces, register_fonts


def check_printable(kit: KitData, words: Words | None = None, glossary: Glossary | None = None,
                    face_set: FaceSet | None = None) -> None:
    """Raise RenderError listing every data string (of `kit`, the data as its edition prints it,
    `glossary`'s names and sentences in place), and every word of the edition's catalogues
    (`words`, and the aid's sentences in its language), with a character the edition's faces
    lack (`face_set`, else `words`' edition's, else LATIN)."""
    if face_set is None:
        face_set = edition_faces(words.lang) if words is not None else LATIN
    problems = list(undrawable_text(kit, glossary, face_set)) + undrawable_credits(face_set)
    if words is not None:
        problems += undrawable_edition(words.lang, words)
    if problems:
        raise RenderError(problems)


def check_template_text(text: str, folder: Path, face_set: FaceSet = LATIN) -> None:
    """Raise RenderError naming each line of a template in `folder` that holds a character of the
    aid's rendered `text` the font cannot draw.  The data's and the catalogues' words are checked
    before (check_printable), so what the font lacks here is the template's own."""
    allowed = "\n\r\t\u00ad" + CHANGED       # Markdown's whitespace, a soft hyphen, the kit's change mark
    cmap = letters(face_set)
    shown = unprintable(text, cmap, allowed=allowed)
    if not shown:
        return
    from generator.content.template_sandbox import MAX_TEMPLATE_BYTES
    from generator.data.toml_file import Unreadable, read_limited
    lacking = {ch for ch in text if unprintable(ch, cmap, allowed=allowed)}
    problems = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and not p.is_symlink()):
        try:
            source = read_limited(path, MAX_TEMPLATE_BYTES).decode("utf-8")
        except (Unreadable, UnicodeDecodeError):      # no template: a stray file of any size
            continue
        problems += [f"{path}:{number}: the kit's font ({face_set.name}) cannot print {unprintable(line, cmap)}"
                     for number, line in enumerate(source.split("\n"), 1) if lacking & set(line)]
    raise RenderError(problems or [f"{folder}: the aid's text holds what the kit's font ({face_set.name}) "
                                   f"cannot print: {shown}"])


def undrawable_credits(face_set: FaceSet = LATIN) -> list[str]:
    """One problem line per icon author (layout/pictograms.toml) the kit's font cannot print: the
    colophon credits each by name, as the icons' licence asks.  The icons' path data is read
    where an icon is drawn (the counters, the web aid), not for this check."""
    cmap = letters(face_set)
    out = []
    for key, author in pictograms.part_authors():
        shown = unprintable(author, cmap)
        if shown:
            out.append(f"{pictograms.SOURCE}: {key}.author: the kit's font ({face_set.name}) cannot print {shown}")
    return out


def undrawable_edition(lang: str, words: Words | None = None) -> list[str]:
    """One problem line per message of the `lang` edition's catalogues (its words, `words` when
    given, and the aid's sentences) that a face of the kit cannot print."""
    from generator.content.aid_files import aid_catalogue_file, aid_words
    from generator.content.words import load_words
    face_set = edition_faces(lang)
    return undrawable_words(words if words is not None else load_words(lang), face_set=face_set) + \
        undrawable_words(aid_words(lang), aid_catalogue_file(lang), face_set)


def printable(text: str, cmap: Mapping[int, int], allowed: str = "") -> bool:
    """Whether the kit's font draws every character of `text` (as unprintable() judges): a whole
    catalogue or data set at once, since nearly every build's words all print; only one that
    does not is walked string by string to name its file and key."""
    return not any(ord(ch) not in cmap or unicodedata.category(ch) in _NOT_TEXT
                   for ch in set(text).difference(allowed))


def unprintable(text: str, cmap: Mapping[int, int] | None = None, allowed: str = "") -> str:
    """The characters of `text` the kit's font cannot draw, as "'\\u202e' (U+202E), ..." (the first
    five); empty when it can draw them all.  Controls and format characters (a bidi override, a
    zero-width joiner, a line separator) count as undrawable whatever the font holds: they would
    reorder or break the web aid's text, print as nothing in the PDF, and hide a word from the
    glossary's check; so do combining marks, which print beside their letter.  `allowed`:
    characters the caller treats itself (a catalogue's line break)."""
    if cmap is None:
        cmap = letters()
    # whitespace too: a tab or U+2028 is no glyph
    lacking = sorted(ch for ch in set(text).difference(allowed)      # each character once
                     if ord(ch) not in cmap or unicodedata.category(ch) in _NOT_TEXT)
    if not lacking:         # every string of a build is checked, and nearly all print
        return ""
    shown = ", ".join(f"{_shown(ch)} (U+{ord(ch):04X})" for ch in lacking[:5])
    whole = unicodedata.normalize("NFC", text)
    if any(unicodedata.category(ch) in ("Mn", "Me") for ch in lacking) and whole != text and \
            not any(unicodedata.category(ch) in ("Mn", "Me") for ch in whole):
        shown += f" (a combining accent: write {whole[:40]!r}, each letter whole)"
    return shown


# Controls, format (bidi) characters, line and paragraph separators; and combining marks, which
# the faces map but reportlab sets at their own advance, with no mark positioning ('a' + U+0301
# prints its acute beside the a, not over it: the letter whole, 'á', prints right).
_NOT_TEXT = {"Cc", "Cf", "Zl", "Zp", "Mn", "Me"}


def _shown(ch: str) -> str:
    """A character as a problem quotes it: a combining mark escaped, or it would sit on the quote."""
    return f"'\\u{ord(ch):04x}'" if unicodedata.category(ch) in ("Mn", "Me") else repr(ch)


@functools.cache
def letters(face_set: FaceSet = LATIN) -> Mapping[int, int]:
    """{code point: glyph} of the characters every face of `face_set` can draw: the body and the
    condensed face, each regular and bold.  Made once a process a face set (the faces are the
    kit's own files): each check of a build asks for it."""
    register_fonts(face_set)
    roles = (face_set.body, face_set.bold, face_set.condensed, face_set.condensed_bold)
    body, *others = (pdfmetrics.getFont(face).face.charToGlyph for face in dict.fromkeys(roles))
    return MappingProxyType({code: glyph for code, glyph in body.items() if all(code in other for other in others)})


# Rules fields whose TOML key differs (the rest match: crew.takeover is [crew] takeover).
_TOML_KEYS = {"number": "variant.number", "title": "variant.title", "game": "variant.game",
              "credit": "variant.credit", "trigger_rule": "triggers.rule", "exact_kill": "triggers.exact_kill",
              "voluntary": "triggers.voluntary", "closed": "bail_out.closed", "open": "bail_out.open",
              "deck_file": "deck.file"}


def undrawable_text(kit: KitData, glossary: Glossary | None = None, face_set: FaceSet = LATIN) -> Iterator[str]:
    """One problem line per data string the aid prints that holds a character the font cannot
    draw: named by its data file and key, or by `glossary`'s file and key where the edition
    prints the glossary's words in its place (`kit` is then the translated data)."""
    cmap = letters(face_set)
    rules = kit.rules
    strings = [("rules.toml", key, text) for key, text in _data_strings(rules, "")]
    strings += [("rules.toml", f"interpretation.{i.name}.readings.{i.reading}", i.sentence)
                for i in rules.interpretations]
    for n in kit.nationalities:
        strings += [(f"nationalities/{n.key}.toml", key, text) for key, text in _nationality_strings(n)]
    if printable("".join(str(text) for _, _, text in strings), cmap):
        return
    for file, key, text in strings:
        shown = unprintable(str(text), cmap)
        if shown:
            where, name = _source(kit, file, key, glossary)
            yield f"{kit.directory / where}: {name}: the kit's font ({face_set.name}) cannot print {shown}"


def _source(kit: KitData, file: str, key: str, glossary: Glossary | None) -> tuple[str, str]:
    """Where a data string the edition prints comes from: the glossary's [text], [nationalities.KEY]
    or [models] when it gives it, else the data file and key."""
    if glossary is None:
        return file, key
    if file == "rules.toml":
        return (glossary.file, f"text.{key}") if key.partition("[")[0] in glossary.text else (file, key)
    return data_source(kit, file, key)


def _data_strings(value: object, key: str) -> Iterator[tuple[str, str]]:
    """(TOML key, text) of every string in a rules record, its fields and tuples walked in order;
    the interpretations' readings are left to the caller, which checks only the chosen one."""
    if isinstance(value, str):
        yield key, value
    elif isinstance(value, Struct):
        for field in fields(value):
            if field.name not in ("readings", "results", "interpretations"):
                name = field.name if key else _TOML_KEYS.get(field.name, field.name)
                yield from _data_strings(getattr(value, field.name), f"{key}.{name}".lstrip("."))
    elif isinstance(value, tuple):
        for i, item in enumerate(value):
            yield from _data_strings(item, f"{key}[{i}]")


def _nationality_strings(n: Nationality) -> list[tuple[str, str]]:
    """(TOML key, text) of what the aid prints from one nationality file: its names, the army
    its weapons follow and its weapon models."""
    models = [(f"{kind}[{i}].{key}", text)
              for kind, spans in (("rifle", n.rifles), ("smg", n.smgs)) for i, span in enumerate(spans)
              for key, text in (("model", span.model), ("short", span.short)) if text]
    return [("name", n.name), ("adjective", n.adjective), *((("army", n.army),) if n.army else ()), *models]


def undrawable_words(words: Words, file: Path | None = None, face_set: FaceSet | None = None) -> list[str]:
    """One problem line per message of an edition's catalogue (`file`, its key catalogue unless
    given), plural forms included, that a face of the kit cannot print, naming the edition, the
    file, the key and the characters (in `face_set`, else the edition's faces)."""
    face_set = face_set if face_set is not None else edition_faces(words.lang)
    cmap = letters(face_set)
    texts = [*words.messages.items(), *((key, form) for key, forms in words.plurals.items() for form in forms)]
    if printable("".join(text for _, text in texts), cmap, allowed="\n\u00ad"):
        return []
    out = []
    for key, text in sorted(texts):
        # A message's own line break; a soft hyphen is never drawn: a line breaks there and prints
        # "-", or it is dropped.
        shown = unprintable(text, cmap, allowed="\n\u00ad")
        if shown:
            out.append(f"{file or catalogue_file(words.lang)}: {key}: the {words.lang} edition's text {text[:40]!r}: "
                       f"the kit's font ({face_set.name}) cannot print {shown}")
    return out
