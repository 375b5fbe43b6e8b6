"""The catalogue of every printed word, looked up by key: one gettext catalogue per language.

A key is a dotted name that says where the words print ("counter.crew.title"); the English
catalogue, locale/en.po beside this file, gives each key its English text (msgid = key,
msgstr = the words).  A second language is a second catalogue beside it.  Placeholders are
str.format fields ("Rule {rule}"), filled by the caller; the words themselves never live in
the code that prints them.  The aid's own text is its template (templates/aid.md.j2); rule
sentences that are data (the interpretation readings) stay in data/.
"""

import importlib.util
import io
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from string import Formatter

from generator.engine.odds import percent as english_percent
from generator.errors import DataError

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
        return _formatted(self.lang, key, text, fields) if fields else text

    def has(self, key: str) -> bool:
        return key in self.messages

    def percent(self, p: Fraction | int) -> str:
        """A chance as a percentage in this language's convention ('33,3 %' in German): the same
        digits as English (rounded half up on the exact value, engine/odds.py), other marks."""
        english = english_percent(p)
        if not self.numbers_localised():
            return english
        digits = english.rstrip("%")
        places = len(digits.partition(".")[2])
        # The locale's percent pattern with exactly the English number of decimals: no second rounding.
        pattern = "#,##0" + ("." + "0" * places if places else "") + "%"
        from babel.numbers import format_percent  # Babel's numbers and CLDR data: only where numbers are localised
        text = format_percent(Decimal(digits) / 100, format=pattern, locale=self.lang)
        return text.replace("%", self.percent_sign())

    def percent_sign(self) -> str:
        """The percent sign with the space the language sets before it (CLDR, through Babel)."""
        from babel.numbers import format_percent
        sample = format_percent(Decimal("0.5"), locale=self.lang)
        return sample[sample.index("0") + 1:] if "0" in sample else "%"

    def decimal(self, value: Fraction | float, places: int) -> str:
        """`value` with `places` decimals in this language's convention ('2,50' in German)."""
        text = f"{float(value):.{places}f}"
        if not self.numbers_localised():
            return text
        from babel.numbers import format_decimal
        return format_decimal(Decimal(text), format="0." + "0" * places if places else "0", locale=self.lang)

    def numbers_localised(self) -> bool:
        """Whether numbers follow this language's convention: not for English (the kit's own
        figures, as they always were) nor a catalogue whose name Babel knows no locale for."""
        if self.lang == SOURCE_LANGUAGE:
            return False
        from babel import Locale, UnknownLocaleError
        try:
            Locale.parse(self.lang)
        except (UnknownLocaleError, ValueError):
            return False
        return True


# A field's format spec as the catalogues use it ("{size:,.1f}"): no width, no nested field, so
# a catalogue entry can neither reach an attribute ("{n.__class__}") nor ask for a gigabyte.
_SPEC = re.compile(r"[,_]?(?:\.\d)?[df%]?")


def _formatted(lang: str, key: str, text: str, fields: Mapping[str, object]) -> str:
    return fill(f"{catalogue_file(lang)}: {key}", text, fields)


def fill(where: str, text: str, fields: Mapping[str, object]) -> str:
    """The one formatter of catalogue text: `text` with its {fields} filled from `fields`.  A
    field the caller does not give, an attribute, index, conversion or width, or a stray brace
    is a DataError, one line starting with `where` (the catalogue file and key)."""
    why = field_problem(text, fields)
    if why:
        raise DataError(f"{where}: {why}")
    out = []
    for literal, name, spec, _ in Formatter().parse(text):
        out.append(literal)
        if name is not None:
            try:
                out.append(format(fields[name], spec or ""))
            except (ValueError, TypeError) as error:
                raise DataError(f"{where}: field {{{name}:{spec}}}: {error}") from None
    return "".join(out)


def field_problem(text: str, fields: Mapping[str, object] | None = None) -> str:
    """Why `fill` would refuse `text` ('' when it would not): a stray brace, or a field that is
    not a plain name of `fields` (any plain name when None) with at most the catalogues' spec."""
    try:
        parsed = list(Formatter().parse(text))
    except ValueError as error:
        return f"not a message with {{fields}} ({error})"
    for _, name, spec, conversion in parsed:
        if name is None:
            continue
        given = name.isidentifier() and (fields is None or name in fields)
        if not given or conversion is not None or not _SPEC.fullmatch(spec or ""):
            shown = f"{{{name}{'!' + conversion if conversion else ''}{':' + spec if spec else ''}}}"
            accepted = f"one of {sorted(fields)}" if fields is not None else "a plain {name} or {name:,.1f}"
            return f"field {shown[:60]} is not {accepted}"
    return ""


def catalogue_file(lang: str) -> Path:
    return LOCALE / f"{lang}.po"


# (file, size, mtime): each catalogue is read once a process; serve reads an edited one afresh.
_READ: dict[tuple[str, int, int], Words] = {}


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
    return Words(lang, po_messages(catalogue_file(lang), lang))


def po_messages(path: Path, lang: str, domain: str | None = None) -> dict[str, str]:
    """Every translated message of the .po file `path` (msgid: msgstr; fuzzy ones left out), read
    by Babel, or from the kit's cache (generator/cache.py) when this file was read before by
    this Babel: parsing the catalogues (and importing Babel's reader) was a tenth of a cold build."""
    from generator import cache
    content = path.read_bytes()
    key = cache.digest(content, lang, domain or "", _babel_reader())
    kept = cache.read("catalogues", key)
    if kept is not None:
        try:
            messages = json.loads(kept)
            if isinstance(messages, dict) and all(isinstance(v, str) for v in messages.values()):
                return messages
        except (ValueError, UnicodeError):      # a damaged entry: read the file again
            pass
    from babel.messages.pofile import read_po
    catalog = read_po(io.BytesIO(content), locale=lang, domain=domain)
    messages = {str(m.id): str(m.string) for m in catalog if m.id and m.string and not m.fuzzy}
    cache.write("catalogues", key, json.dumps(messages, ensure_ascii=False, sort_keys=True).encode("utf-8"))
    return messages


def _babel_reader() -> str:
    """Which Babel reads the catalogues (its reader's file: path, size, time), found without
    importing it: another Babel, another cache entry."""
    spec = importlib.util.find_spec("babel")
    if spec is None or spec.origin is None:
        return "no babel"
    reader = Path(spec.origin).parent / "messages" / "pofile.py"
    try:
        info = reader.stat()
    except OSError:
        return str(reader)
    return f"{reader} {info.st_size} {info.st_mtime_ns}"


def available_languages() -> tuple[str, ...]:
    """Every language with a catalogue beside this file, English first."""
    others = sorted(path.stem for path in LOCALE.glob("*.po") if path.stem != SOURCE_LANGUAGE)
    return (SOURCE_LANGUAGE, *others)


def _fields(text: str) -> set[str]:
    """The str.format fields of a message ("{rule}" -> {"rule"}); none when it does not parse
    (field_problem names that)."""
    try:
        return {name for _, name, _, _ in Formatter().parse(text) if name is not None}
    except ValueError:
        return set()


def missing_translations(lang: str) -> list[str]:
    """One line per key of the English catalogue that `lang`'s lacks, leaves empty or fuzzy, or
    translates with other {fields} or a field the formatter refuses: what `bailout check` names
    and a test refuses."""
    path = catalogue_file(lang)
    from babel.messages.pofile import read_po
    with open(catalogue_file(SOURCE_LANGUAGE), "rb") as handle:
        english = {str(m.id): str(m.string) for m in read_po(handle) if m.id}
    with open(path, "rb") as handle:
        catalog = read_po(handle, locale=lang)
    found = {str(m.id): m for m in catalog if m.id}
    problems = []
    for key, text in english.items():
        message = found.get(key)
        why = field_problem(str(message.string)) if message is not None else ""
        if why:
            problems.append(f"{path}: {key}: {why}")
        elif message is None or not message.string:
            problems.append(f"{path}: {key}: no translation (English: {text!r})")
        elif message.fuzzy:
            problems.append(f"{path}: {key}: marked fuzzy")
        elif _fields(str(message.string)) != _fields(text):
            problems.append(f"{path}: {key}: fields {sorted(_fields(str(message.string)))}, "
                            f"English has {sorted(_fields(text))}")
    problems += [f"{path}: {key}: not a key of the English catalogue" for key in found if key not in english]
    return problems
