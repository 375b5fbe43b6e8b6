"""The catalogue of every printed word, looked up by key: one gettext catalogue per language.

A key is a dotted name that says where the words print ("counter.crew.title"); the English
catalogue, locale/en.po beside this file, gives each key its English text (msgid = key,
msgstr = the words).  A second language is a second catalogue beside it.  Placeholders are
str.format fields ("Rule {rule}"), filled by the caller; the words themselves never live in
the code that prints them.  The aid's own text is its template (templates/aid.md.j2); rule
sentences that are data (the interpretation readings) stay in data/.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from babel.messages.pofile import read_po

LOCALE = Path(__file__).resolve().parent / "locale"
SOURCE_LANGUAGE = "en"


@dataclass(frozen=True)
class Words:
    """One language's catalogue: words(key, **fields) is the text printed for `key`."""
    lang: str
    messages: Mapping[str, str]

    def __call__(self, key: str, **fields: object) -> str:
        try:
            text = self.messages[key]
        except KeyError:
            raise KeyError(f"{LOCALE / (self.lang + '.po')}: no message {key!r}") from None
        return text.format(**fields) if fields else text

    def has(self, key: str) -> bool:
        return key in self.messages


def catalogue_file(lang: str) -> Path:
    return LOCALE / f"{lang}.po"


_READ: dict[tuple[str, int, int], Words] = {}     # (file, size, mtime): a catalogue read once (issue 20)


def load_words(lang: str = SOURCE_LANGUAGE) -> Words:
    """The catalogue of `lang`, read from its .po file (every message with a translation); read
    again only when the file changed (a warm `bailout serve` makes a context on every save)."""
    try:
        path = catalogue_file(lang)
        info = path.stat()
        key = (str(path), info.st_size, info.st_mtime_ns)
    except OSError:
        key = None
    if key is not None and key in _READ:
        return _READ[key]
    words = _read_words(lang)
    if key is not None:
        _READ[key] = words
    return words


def _read_words(lang: str) -> Words:
    with open(catalogue_file(lang), "rb") as handle:
        catalog = read_po(handle, locale=lang)
    messages = {str(m.id): str(m.string) for m in catalog if m.id and m.string and not m.fuzzy}
    return Words(lang, messages)
