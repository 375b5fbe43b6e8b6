"""The catalogue of every printed word, looked up by key: one gettext catalogue per language.

A key is a dotted name that says where the words print ("counter.crew.title"); the English
catalogue, locale/en.po beside this file, gives each key its English text (msgid = key,
msgstr = the words).  A second language is a second catalogue beside it.  Placeholders are
str.format fields ("Rule {rule}"), filled by the caller; the words themselves never live in
the code that prints them.  The aid's own text is its template (templates/aid.md.j2); rule
sentences that are data (the interpretation readings) stay in data/.

The locale's rules come from Babel and gettext, never from code here: numbers filled into a
message (decimal comma, grouping), percentages, lists ("a, b or c"), plural forms (the
catalogue's Plural-Forms, read by gettext as GNUTranslations reads a catalogue's header),
French spacing before : ; ! ? and inside guillemets, the Polish and Russian rule that a
one-letter word never ends a line, and no space between Japanese words (typeset below, from the
French, Polish, Russian and Japanese typographic rules).
"""

import importlib.util
import io
import json
import re
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from string import Formatter
from typing import TYPE_CHECKING

from msgspec import Struct, field
from msgspec.structs import replace

from generator.engine.odds import percent as english_percent
from generator.errors import DataError
from generator.text import curly_apostrophes

if TYPE_CHECKING:
    from babel.messages.catalog import Catalog as BabelCatalog

LOCALE = Path(__file__).resolve().parent / "locale"
SOURCE_LANGUAGE = "en"
ENGLISH_PLURALS = "nplurals=2; plural=(n != 1);"


class Words(Struct, frozen=True):
    """One language's catalogue: words(key, **fields) is the text printed for `key`;
    words.count(key, n, **fields) the same for a message with plural forms."""
    lang: str
    messages: Mapping[str, str]
    plurals: Mapping[str, tuple[str, ...]] = field(default_factory=dict)    # msgid: its msgstr[0..]
    plural_forms: str = ENGLISH_PLURALS         # the catalogue's Plural-Forms header

    def __call__(self, key: str, **fields: object) -> str:
        try:
            text = self.messages[key]
        except KeyError:
            raise DataError(_untranslated(self.lang, key)) from None
        return self.typeset(_formatted(self.lang, key, text, fields) if fields else text)

    @property
    def tag(self) -> str:
        """The language as a web page's lang attribute names it (BCP 47: pt-BR for pt_BR)."""
        return self.lang.replace("_", "-")

    def has(self, key: str) -> bool:
        return key in self.messages or key in self.plurals

    def count(self, key: str, n: int, **fields: object) -> str:
        """The message `key` (msgid and msgid_plural alike) for `n` things, `n` filled in as
        {count}: the form the catalogue's Plural-Forms picks ("1 Änderung", "2 Änderungen")."""
        if key not in self.plurals:
            raise DataError(f"{catalogue_file(self.lang)}: {key}: no translation with every plural form its "
                            f"Plural-Forms gives")
        text = self.ngettext(key, key, n)
        return self.typeset(_formatted(self.lang, key, text, {"count": n, **fields}))

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """gettext's ngettext over this catalogue's plural messages: the header's Plural-Forms
        chooses the form; a message it lacks (or a form past its last) is `singular` for 1, else
        `plural`, as GNUTranslations.ngettext falls back."""
        forms = self.plurals.get(singular, ())
        form = _chooser(self.plural_forms)(n)
        return forms[form] if form < len(forms) else singular if n == 1 else plural

    def either(self, names: Iterable[str]) -> str:
        """'SL or ASL', 'a, b or c': the names as this language lists alternatives (CLDR, through Babel)."""
        items = tuple(str(name) for name in names)
        return _listed(items, self._locale()) if items else ""

    def typeset(self, text: str) -> str:
        """`text` with the typography its language asks of spaces (French spacing before
        punctuation, Polish and Russian one-letter words tied to the next, none between Japanese
        words)."""
        rule = _TYPOGRAPHY.get(self.lang.split("_")[0])
        return rule(text) if rule is not None else text

    def apostrophes(self, text: str) -> str:
        """`text` with the apostrophe its edition prints throughout: English sets the typographic
        one, beside the curly quotes of its catalogue and data (its messages keep the straight
        one, as typed); the other editions keep theirs as their catalogues write it."""
        return curly_apostrophes(text) if self.lang == SOURCE_LANGUAGE else text

    def printed(self) -> "Words":
        """This catalogue as a player's page prints it: each message with the edition's
        apostrophe (`apostrophes`), so every page of an edition sets one style."""
        if self.lang != SOURCE_LANGUAGE:
            return self
        plurals = {key: tuple(map(curly_apostrophes, forms)) for key, forms in self.plurals.items()}
        return replace(self, messages={key: curly_apostrophes(text) for key, text in self.messages.items()},
                       plurals=plurals)

    def sentences(self, texts: Iterable[str]) -> str:
        """Sentences set one after another as the language sets them: a space between them, none
        in Japanese."""
        return ("" if self.lang.split("_")[0] == "ja" else " ").join(texts)

    def _locale(self) -> str:
        return self.lang if self.numbers_localised() else SOURCE_LANGUAGE

    def percent(self, p: Fraction | int, figures: int = 2) -> str:
        """A chance as a percentage in this language's convention ('33,3 %' in German): the same
        digits as English (rounded half up on the exact value, at least `figures` significant
        figures: engine/odds.py), other marks."""
        english = english_percent(p, figures=figures)
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
        return localised_number(self.lang, f"{float(value):.{places}f}") if self.numbers_localised() \
            else f"{float(value):.{places}f}"

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
    return fill(f"{catalogue_file(lang)}: {key}", text, fields, lang)


def fill(where: str, text: str, fields: Mapping[str, object], lang: str = SOURCE_LANGUAGE) -> str:
    """The one formatter of catalogue text: `text` with its {fields} filled from `fields`, each
    number in `lang`'s convention.  A field the caller does not give, an attribute, index,
    conversion or width, or a stray brace is a DataError, one line starting with `where` (the
    catalogue file and key)."""
    why = field_problem(text, fields)
    if why:
        raise DataError(f"{where}: {why}")
    out = []
    for literal, name, spec, _ in Formatter().parse(text):
        out.append(literal)
        if name is not None:
            try:
                formatted = format(fields[name], spec or "")
            except (ValueError, TypeError) as error:
                raise DataError(f"{where}: field {{{name}:{spec}}}: {error}") from None
            out.append(_number_text(lang, fields[name], formatted))
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


_NUMBER = re.compile(r"-?\d{1,3}(?:,\d{3})*(?:\.\d+)?|-?\d+(?:\.\d+)?")


def _number_text(lang: str, value: object, text: str) -> str:
    """A number filled into a message, as Python formatted it ("1,234.5"), in `lang`'s
    convention ("1.234,5"); any other value, and every value in English, as it is."""
    if lang == SOURCE_LANGUAGE or isinstance(value, bool) or not isinstance(value, (int, float, Decimal, Fraction)):
        return text
    if not _NUMBER.fullmatch(text) or not Words(lang, {}).numbers_localised():
        return text
    return localised_number(lang, text)


def localised_number(lang: str, text: str) -> str:
    """The number `text` ("1,234.5": Python's digits, grouped or not) in `lang`'s convention, with
    the same digits (no second rounding): its decimal sign and group separator (CLDR, by Babel)."""
    from babel.numbers import format_decimal
    whole, _, places = text.partition(".")
    pattern = ("#,##0" if "," in whole else "0") + ("." + "0" * len(places) if places else "")
    return format_decimal(Decimal(text.replace(",", "")), format=pattern, locale=lang)


# French spacing (the Imprimerie nationale's rule): a no-break space before the colon, a narrow
# one before ; ! ? and inside guillemets, so no line starts with the mark or ends with «.  A space
# the writer typed there becomes the no-break one; a missing one is added.  An HTML entity's
# semicolon ("&amp;") and a mark with no space after it ("12:30", "http://") are left alone.
_FRENCH = re.compile(r"(&#?\w+;)|[ \u00a0\u202f]*(\\?[;!?]|:(?=[\s*_)]|$))|(«)[ \u00a0\u202f]*|[ \u00a0\u202f]*(»)")
_NO_SPACE_BEFORE = set(" \u00a0\u202f\n([«/:;!?|-")


def french_spacing(text: str) -> str:
    """`text` with French spacing before : ; ! ? and inside « »."""
    def space(match: re.Match[str]) -> str:
        entity, mark, opening, closing = match.groups()
        if entity:
            return entity
        if opening:
            return "\u00ab\u202f"
        if closing:
            return "\u202f\u00bb"
        start = match.start()
        if start == 0 or text[start - 1] in _NO_SPACE_BEFORE:
            return match.group(0)
        return ("\u00a0" if mark == ":" else "\u202f") + mark
    return _FRENCH.sub(space, text)


# Polish and Russian typesetting: a one-letter word (Polish: the conjunctions a, i, o, u and the
# prepositions w, z; Russian: the prepositions в, к, о, с, у, the conjunctions а, и and the
# pronoun я; capitals too) never ends a line; a no-break space ties it to the word after it.  A
# letter that is part of a longer token ("871.1.a", "\\a") is no word of its own and stays as it is.
def _one_letter_words(letters: str) -> "re.Pattern[str]":
    return re.compile(rf"(?<![\w.\\-])([{letters}{letters.upper()}]) (?=[\w\u201e\u201c(«\"*_])")


_POLISH_ONE_LETTER = _one_letter_words("aiouwz")
_RUSSIAN_ONE_LETTER = _one_letter_words("вкосуаия")


def polish_spacing(text: str) -> str:
    """`text` with a no-break space after each Polish one-letter word."""
    return _POLISH_ONE_LETTER.sub("\\1\u00a0", text)


def russian_spacing(text: str) -> str:
    """`text` with a no-break space after each Russian one-letter word."""
    return _RUSSIAN_ONE_LETTER.sub("\\1\u00a0", text)


# A space where Japanese sets none: after a full-width mark, or between two Japanese characters
# (the template and the data join sentences with a space, as the Latin editions write them).
# A Markdown emphasis closing after the mark ("**ルールそのもの：** 871.1") keeps its place.  Nor is
# a space set before a full-width opening bracket, which holds its own ("**1/3** （33.3%）"), but
# where Markdown needs it: after a heading's #, a list's marker or a table's bar.  Nor between a
# particle and the Latin word after it ("代わりにSMLE No. 1 Mk III"), as "としてTEM" is set.
_JAPANESE_SPACE = re.compile(r"(?<=[\u3000-\u303f\uff01-\uff0f\uff1a-\uff1f\uff3b-\uff40\uff5b-\uff65])"
                             r"(\**) +|(?<=[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]) +"
                             r"(?=[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef])"
                             r"|(?:(?<=[^\s#|>*+.)-])|(?<=\S\*)) +(?=[（「『【〔])"
                             r"|(?<=[\u3040-\u309f]) +(?=[A-Za-z])")


_JAPANESE_CHARACTER = r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]"
# A Latin mark the template or the data sets after Japanese words: a full stop that ends a sentence
# (not a rule number's point), and the semicolon between items of a list.
_JAPANESE_STOP = re.compile(rf"(?<={_JAPANESE_CHARACTER})\.(?=\s|\*|$)", re.MULTILINE)
_JAPANESE_LIST = re.compile(rf"(?<={_JAPANESE_CHARACTER[:-1]}）」』]); (?={_JAPANESE_CHARACTER})")


def japanese_spacing(text: str) -> str:
    """`text` with Japanese punctuation and spacing (JIS X 4051): a sentence after Japanese words
    ends with 。 and a list's items are parted by 、, and no space is set after a full-width mark
    (。、：（）「」) or between two Japanese characters."""
    text = _JAPANESE_LIST.sub("、", _JAPANESE_STOP.sub("。", text))
    return _JAPANESE_SPACE.sub(lambda match: match.group(1) or "", text)


_TYPOGRAPHY: dict[str, Callable[[str], str]] = {"fr": french_spacing, "pl": polish_spacing,
                                              "ru": russian_spacing, "ja": japanese_spacing}


def english_names(names: Sequence[str]) -> str:
    """'Lorc and Skoll', 'A, B and C': names joined by the English catalogue's colophon.and, for
    a credit every edition quotes in English as its licence asks ("Icons made by ...")."""
    items = [str(name) for name in names]
    if len(items) < 2:
        return "".join(items)
    return load_words(SOURCE_LANGUAGE)("colophon.and", a=", ".join(items[:-1]), b=items[-1])


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
    catalogue = po_catalogue(catalogue_file(lang), lang)
    return Words(lang, catalogue.messages, catalogue.plurals, catalogue.plural_forms)


class Catalogue(Struct, frozen=True):
    """A .po file's translated messages: the plain ones, those with plural forms, and its header's
    Plural-Forms (Babel's locale default where the header gives none)."""
    messages: dict[str, str]
    plurals: dict[str, tuple[str, ...]]
    plural_forms: str


def po_messages(path: Path, lang: str, domain: str | None = None) -> dict[str, str]:
    """Every translated plain message of the .po file `path` (msgid: msgstr)."""
    return po_catalogue(path, lang, domain).messages


def po_catalogue(path: Path, lang: str, domain: str | None = None) -> Catalogue:
    """Every translated message of the .po file `path` (fuzzy ones left out), read by Babel, or
    from the kit's cache (generator/cache.py) when this file was read before by this Babel:
    parsing a catalogue (and importing Babel's reader) is most of what a first build does besides
    a warm one."""
    from generator import cache
    content = _po_bytes(path)
    for kept in _kept_tables(content, lang, domain):
        try:
            # Its Plural-Forms passed the check when the table was made from these bytes for
            # this language by this Babel and Python: checking again imports Babel's tables.
            return _catalogue_of(kept)
        except (ValueError, UnicodeError, TypeError, AttributeError):      # a damaged entry: read the file again
            pass
    table = _read_po(path, content, lang, domain)
    cache.write("catalogues", _cache_key(content, lang, domain),
                json.dumps(table, ensure_ascii=False, sort_keys=True).encode("utf-8"))
    return _catalogue_of(table)


def _kept_tables(content: bytes, lang: str, domain: str | None) -> Iterable[object]:
    """The table already made from `content`: the cache's entry, if there is one."""
    from generator import cache
    kept = cache.read("catalogues", _cache_key(content, lang, domain))
    if kept is not None:
        try:
            yield json.loads(kept)
        except (ValueError, UnicodeError):      # a damaged entry: read the file again
            return


def _cache_key(content: bytes, lang: str, domain: str | None) -> str:
    from generator import cache
    # Python's version too: gettext's plural grammar is the interpreter's
    return cache.digest(content, lang, domain or "", _babel_reader(), sys.version, "plurals")


def _read_po(path: Path, content: bytes, lang: str, domain: str | None) -> dict[str, object]:
    catalog = _parsed_po(path, content, lang, domain)
    messages, plurals = {}, {}
    for m in catalog:
        if not m.id or m.fuzzy:
            continue
        if isinstance(m.id, tuple) and isinstance(m.string, tuple) and all(m.string):
            plurals[str(m.id[0])] = [str(form) for form in m.string]
        elif isinstance(m.id, str) and isinstance(m.string, str) and m.string:
            messages[m.id] = m.string
    return {"messages": messages, "plurals": plurals, "plural_forms": catalog.plural_forms}


MAX_CATALOGUE_BYTES = 8 * 1024 * 1024     # a data file's limit; the largest catalogue holds about 80 KB
MAX_PLURALS = 6         # CLDR's most, Arabic's: zero, one, two, few, many, other
# The counts a Plural-Forms expression is tried on: every ending a rule reads (n % 10, n % 100)
# and the millions Spanish, French and Italian name apart.
_PLURAL_SAMPLE = (*range(1000), 10 ** 6, 2 * 10 ** 6, 10 ** 9)


_PLURAL_FORMS = re.compile(r"nplurals=(-?\d+); plural=(.*);", re.S)     # as Babel writes a header's
_NPLURALS = re.compile(r'^"Plural-Forms:.*?nplurals\s*=\s*([^;\\"]*)', re.M)


def _po_bytes(path: Path) -> bytes:
    """The bytes of the catalogue `path`: a regular file (never a FIFO to wait on) of at most
    MAX_CATALOGUE_BYTES, or a DataError naming it."""
    from generator.data.toml_file import Unreadable, read_limited
    try:
        return read_limited(path, MAX_CATALOGUE_BYTES)
    except Unreadable as error:
        raise DataError(f"{path}: {error}") from None


def _parsed_po(path: Path, content: bytes, lang: str, domain: str | None = None) -> "BabelCatalog":
    """The catalogue `content` (of the file `path`) as Babel reads it, its Plural-Forms checked;
    a DataError naming the file when it is not one."""
    from babel.messages.pofile import read_po
    try:
        catalog = read_po(io.BytesIO(content), locale=lang, domain=domain)
    except (ValueError, LookupError) as error:      # bytes not its charset, no such charset, a bad header
        count = _NPLURALS.search(content.decode("utf-8", "replace"))
        if count is not None and not count.group(1).strip().isdigit():
            raise DataError(f"{path}: Plural-Forms: nplurals={count.group(1).strip()[:20]} is not a whole number") \
                from None
        raise DataError(f"{path}: not a catalogue Babel can read ({error})") from None
    _check_plural_forms(path, catalog.plural_forms, lang)
    return catalog


def _check_plural_forms(path: Path, plural_forms: str, lang: str) -> None:
    why = plural_forms_problem(plural_forms, lang)
    if why:
        raise DataError(f"{path}: Plural-Forms: {why}")


def plural_forms_problem(plural_forms: str, lang: str) -> str:
    """Why gettext could not pick a form by `plural_forms` ("nplurals=N; plural=EXPR;", as Babel
    writes a header's) for every count, or why it is not `lang`'s ('' when it is fine): a count
    of forms outside 1..MAX_PLURALS or other than Babel's table gives the language, an expression
    gettext does not read, one that fails or picks a form past the last."""
    import gettext
    match = _PLURAL_FORMS.fullmatch(plural_forms.strip())
    if match is None:
        return f"{plural_forms[:60]!r} is not nplurals=N; plural=EXPRESSION;"
    count, expression = int(match.group(1)), match.group(2)
    if not 1 <= count <= MAX_PLURALS:
        return f"nplurals={count}; a language has 1 to {MAX_PLURALS} plural forms"
    shown = expression if len(expression) <= 60 else expression[:57] + "..."
    try:
        choose = gettext.c2py(expression)
    except (ValueError, RecursionError) as error:
        return f"plural={shown} is not a gettext plural expression ({error})"
    for n in _PLURAL_SAMPLE:
        try:
            form = choose(n)
        except ArithmeticError as error:
            return f"plural={shown} fails for n={n} ({error})"
        if not 0 <= form < count:
            return f"plural={shown} picks form {form} for n={n}, past the last of nplurals={count}"
    usual = _babel_plurals(lang)
    if usual is not None and usual != count:
        return f"nplurals={count}, but the {lang} language has {usual} plural forms (Babel's plural table)"
    return ""


def _babel_plurals(lang: str) -> int | None:
    """How many plural forms Babel's table gives `lang`'s language; None when it has none for it."""
    from babel import Locale, UnknownLocaleError
    from babel.messages.plurals import PLURALS
    try:
        locale = Locale.parse(lang)
    except (UnknownLocaleError, ValueError):
        return None
    for name in (str(locale), locale.language):
        if name in PLURALS:
            return int(PLURALS[name][0])
    return None


def _catalogue_of(table: object) -> Catalogue:
    """A Catalogue from its cached JSON; ValueError if the entry is not one."""
    if not isinstance(table, dict) or set(table) != {"messages", "plurals", "plural_forms"}:
        raise ValueError("not a catalogue")
    messages, plurals, forms = table["messages"], table["plurals"], table["plural_forms"]
    if not (isinstance(messages, dict) and all(isinstance(v, str) for v in messages.values())
            and isinstance(plurals, dict) and isinstance(forms, str)
            and all(isinstance(v, list) and all(isinstance(f, str) for f in v) for v in plurals.values())):
        raise ValueError("not a catalogue")
    return Catalogue(messages, {k: tuple(v) for k, v in plurals.items()}, forms)


@lru_cache(maxsize=32)
def _chooser(plural_forms: str) -> Callable[[int], int]:
    """The form index for a count, by the Plural-Forms header `plural_forms` (checked by
    plural_forms_problem when the catalogue was read): gettext's own c2py, as GNUTranslations
    reads the header of a catalogue it opens."""
    import gettext
    match = _PLURAL_FORMS.fullmatch(plural_forms.strip())
    assert match is not None, "a catalogue's Plural-Forms is checked when it is read"
    return gettext.c2py(match.group(2))


@lru_cache(maxsize=256)
def _listed(items: tuple[str, ...], locale: str) -> str:
    """Babel's format_list of `items` (style "or") in `locale`, or the same text kept in the
    kit's cache (generator/cache.py) by this Babel: Babel reads its whole CLDR file of the locale
    for the list's pattern (what it costs: docs/speed.md)."""
    from generator import cache
    key = cache.digest("or", _babel_file("lists.py"), locale, *items)
    kept = cache.read("lists", key)     # sealed: only what write() below kept, UTF-8
    if kept is not None:
        return kept.decode("utf-8")
    from babel.lists import format_list
    text = format_list(list(items), style="or", locale=locale)
    cache.write("lists", key, text.encode("utf-8"))
    return text


def _babel_reader() -> str:
    """Which Babel reads the catalogues: another Babel, another cache entry."""
    return _babel_file("messages/pofile.py")


def _babel_file(name: str) -> str:
    """Which Babel is installed, by its file `name` (path, size, time), found without importing it:
    a new Babel (and its CLDR data) is new files."""
    spec = importlib.util.find_spec("babel")
    if spec is None or spec.origin is None:
        return "no babel"
    file = Path(spec.origin).parent / name
    try:
        info = file.stat()
    except OSError:
        return str(file)
    return f"{file} {info.st_size} {info.st_mtime_ns}"


def untranslated_keys(words: Words) -> list[str]:
    """One line per key of the English catalogue the edition's catalogue `words` lacks (a plural
    message with every form): what a build of the edition refuses, before it prints a page."""
    if words.lang == SOURCE_LANGUAGE:
        return []
    english = load_words()
    lacking = sorted({*(k for k in english.messages if k not in words.messages),
                      *(k for k in english.plurals if k not in words.plurals)})
    return [_untranslated(words.lang, key) for key in lacking]


def _untranslated(lang: str, key: str) -> str:
    """The problem of a key the `lang` catalogue lacks."""
    return (f"{catalogue_file(lang)}: {key}: no translation; the {lang} edition prints every key of the English "
            f"catalogue")


def available_languages() -> tuple[str, ...]:
    """Every language with a catalogue beside this file, English first."""
    others = sorted(path.stem for path in LOCALE.glob("*.po") if path.stem != SOURCE_LANGUAGE)
    return (SOURCE_LANGUAGE, *others)


def language_names(code: str) -> tuple[str, ...]:
    """What people call language `code`: its name in itself and in every language the kit has a
    catalogue for, as Babel's CLDR data spells it ('de': Deutsch, German, allemand, ...); none
    for a code Babel does not know."""
    from babel import Locale, UnknownLocaleError
    names = []
    for lang in (code, *available_languages()):
        try:
            names.append(Locale.parse(code).get_display_name(Locale.parse(lang)) or "")
        except (UnknownLocaleError, ValueError):
            continue
    return tuple(dict.fromkeys(name for name in names if name))


def _fields(text: str) -> set[str]:
    """The str.format fields of a message ("{rule}" -> {"rule"}); none when it does not parse
    (field_problem names that)."""
    try:
        return {name for _, name, _, _ in Formatter().parse(text) if name is not None}
    except ValueError:
        return set()


def missing_translations(lang: str) -> list[str]:
    """One line per key of the English catalogue that `lang`'s lacks, leaves empty or fuzzy, or
    translates with other {fields}, a field the formatter refuses, or another number of plural
    forms than its Plural-Forms header gives: what `bailout check` names and a test refuses."""
    path = catalogue_file(lang)
    source = catalogue_file(SOURCE_LANGUAGE)
    english, offered = _english_keys(source, _po_bytes(source))
    catalog = _parsed_po(path, _po_bytes(path), lang)
    found = {_msgid(m.id): m for m in catalog if m.id}
    problems = []
    for key, texts in english.items():
        message = found.get(key)
        forms = _forms(message.string) if message is not None else ()
        why = next((w for w in (field_problem(text) for text in forms) if w), "")
        if why:
            problems.append(f"{path}: {key}: {why}")
        elif message is None or not all(forms):
            problems.append(f"{path}: {key}: no translation (English: {texts[0]!r})")
        elif message.fuzzy:
            problems.append(f"{path}: {key}: marked fuzzy")
        elif len(texts) > 1 and len(forms) != catalog.num_plurals:
            problems.append(f"{path}: {key}: {len(forms)} plural forms, the header's Plural-Forms gives "
                            f"{catalog.num_plurals}")
        elif not _same_fields(forms, texts, offered[key]):
            problems.append(f"{path}: {key}: fields {sorted(_fields(' '.join(forms)))}, "
                            f"English has {sorted(_fields(' '.join(texts)))}" +
                            (f" (any of {sorted(offered[key])})" if offered[key] else ""))
    problems += [f"{path}: {key}: not a key of the English catalogue" for key in found if key not in english]
    return problems


# `bailout check` holds every edition's catalogue to the English one: English is read once for
# all of them (and again only when its bytes change).
@lru_cache(maxsize=2)
def _english_keys(source: Path, content: bytes) -> tuple[dict[str, tuple[str, ...]], dict[str, set[str]]]:
    """({key: its English forms}, {key: the fields its translations may choose from}) of the
    English catalogue `content` (the file `source`)."""
    parsed = [m for m in _parsed_po(source, content, SOURCE_LANGUAGE) if m.id]
    return ({_msgid(m.id): _forms(m.string) for m in parsed},
            {_msgid(m.id): _offered(m.auto_comments) for m in parsed})


def _offered(comments: Iterable[str]) -> set[str]:
    """The fields an English message offers its translations to choose from, as its "#. fields:
    NAME, ..." line lists them (a counter's years: the whole year or its last two digits, as the
    language writes years); none for a message whose translations keep its own fields."""
    return {name.strip() for c in comments if c.startswith("fields:")
            for name in c.removeprefix("fields:").split("(")[0].split(",") if name.strip()}


def _same_fields(forms: Sequence[str], texts: Sequence[str], offered: set[str]) -> bool:
    """Whether a translation's fields are the English message's own, or, where the message offers
    a choice, some of the fields offered."""
    used = {f for text in forms for f in _fields(text)}
    return used <= offered if offered else used == {f for text in texts for f in _fields(text)}


def _msgid(msgid: object) -> str:
    """A message's key: its msgid (the singular, for a message with plural forms)."""
    return str(msgid[0] if isinstance(msgid, tuple) else msgid)


def _forms(string: object) -> tuple[str, ...]:
    """A message's translation: one text, or one per plural form."""
    return tuple(str(s) for s in string) if isinstance(string, tuple) else (str(string or ""),)
