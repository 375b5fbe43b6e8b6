"""The glossary's terms held against everything an edition prints: one term for one thing.

data/glossary/<lang>.toml's [terms] is the one source of the game's terms in an edition.  For each
term, every message whose English holds the English term (at the start of a word, in any case)
must hold one of the edition's forms of it, and no message may hold a word the glossary lists to
avoid for it.  The messages are every text an edition prints: the renderers' catalogue
(locale/<lang>.po against en.po, key by key), the aid's sentences (locale/<lang>/aid.po against
their English msgid) and the glossary's own [text] sentences against the data's English.  So a
term changed in the glossary fails here wherever a catalogue still says the old one.
"""

import re
from collections.abc import Iterator
from functools import lru_cache

from generator.content.aid_files import aid_catalogue_file, aid_words
from generator.content.words import catalogue_file, load_words
from generator.data.glossary import Glossary, Term, english_text
from generator.data.model import KitData
from generator.text import is_wide

# A tie (~, a counter's no-break space) and the no-break spaces read as spaces; a soft hyphen as nothing.
_SPACES = str.maketrans({"~": " ", "\u00a0": " ", "\u202f": " ", "\u00ad": None})
_LETTER = r"[^\W_]"
_FIELDS = re.compile(r"\{[^{}]*\}|%\(\w+\)s")      # {rule}, %(rule)s: filled in, not the words' own


def _plain(text: str) -> str:
    return " ".join(_FIELDS.sub(" ", text).translate(_SPACES).split()).casefold()


@lru_cache(maxsize=4096)
def _pattern(word: str, before: str, after: str = "") -> re.Pattern[str]:
    return re.compile(before + re.escape(_plain(word)) + after)


# Kana, kanji and full-width forms: a script written without spaces, where any character may
# start a word, and a word in Latin letters starts right after one ("のSMG").
_WIDE = r"[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]"


def _word_start(form: str) -> str:
    """What must not stand before `form` for it to start a word: a letter, unless a Japanese one
    (or nothing, for a form that starts in Japanese)."""
    return "" if form and is_wide(form[0]) else rf"(?:(?<!{_LETTER})|(?<={_WIDE}))"


def _word_end(form: str) -> str:
    return "" if form and is_wide(form[-1]) else rf"(?:(?!{_LETTER})|(?={_WIDE}))"


def holds(text: str, form: str) -> bool:
    """Whether `text` holds `form` at the start of a word, in any case ("Heldenkarten" holds
    "Heldenkarte"; a hyphen starts a word, so "Infanterie-Personenkarte" holds "Personenkarte")."""
    return _pattern(form, _word_start(form)).search(_plain(text)) is not None


def names(text: str, english: str) -> bool:
    """Whether the English `text` uses the English term: at a word start, a hyphen joining it to
    the word before ("Non-open-topped" does not name "open-topped")."""
    return _pattern(english, r"(?<![\w-])").search(_plain(text)) is not None


def says(text: str, word: str) -> bool:
    """Whether `text` holds `word` as a whole word or phrase, in any case."""
    return _says_plain(_plain(text), word)


def _says_plain(plain: str, word: str) -> bool:
    """says() of a text already made plain (_plain)."""
    return _pattern(word, _word_start(word), _word_end(word)).search(plain) is not None


def messages(kit: KitData, glossary: Glossary) -> Iterator[tuple[str, str, str]]:
    """(where, English, translation) for every text the edition prints, `kit` the English data."""
    lang = glossary.lang
    english, words = load_words(), load_words(lang)
    for key, text in english.messages.items():
        if key in words.messages:
            yield f"{catalogue_file(lang)}: {key}", text, words.messages[key]
    for key, forms in english.plurals.items():
        for form in words.plurals.get(key, ()):
            yield f"{catalogue_file(lang)}: {key}", forms[-1], form
    aid = aid_words(lang)
    for msgid, text in aid.messages.items():
        yield f"{aid_catalogue_file(lang)}: {msgid!r}", msgid, text
    for msgid, forms in aid.plurals.items():
        for form in forms:
            yield f"{aid_catalogue_file(lang)}: {msgid!r}", msgid, form
    source = english_text(kit.rules)
    for key, sentence in glossary.text.items():
        for en, ours in zip(_strings(source.get(key, "")), _strings(sentence), strict=False):
            yield f"{kit.directory / glossary.file}: text.{key}", en, ours


def _strings(value: str | tuple[str, ...]) -> tuple[str, ...]:
    return value if isinstance(value, tuple) else (value,)


def term_problems(kit: KitData, glossary: Glossary) -> list[str]:
    """One line per message that misses its glossary term or says a word the glossary avoids."""
    problems = []
    checks = [_TermCheck(term) for term in glossary.terms]      # compiled once, not once a message
    for where, english, text in messages(kit, glossary):
        plain_english, plain = _plain(english), _plain(text)
        for check in checks:
            problems += check.problems(where, (english, plain_english), (text, plain))
    return problems


class _TermCheck:
    """One term's patterns: its English, any of its forms, any word it avoids (one pattern for
    all of them, however many: each word is looked for alone only in a message that says one)."""

    def __init__(self, term: Term) -> None:
        self.term = term
        self.english_plain = _plain(term.english)     # a message without it cannot name the term: no search
        self.english = _pattern(term.english, r"(?<![\w-])")
        self.forms = re.compile(_union(term.forms, whole=False))
        self.avoid = re.compile(_union(term.avoid, whole=True)) if term.avoid else None
        self.avoided = [(word, _plain(word)) for word in term.avoid]      # each made plain once, not once a message

    def problems(self, where: str, english: tuple[str, str], text: tuple[str, str]) -> list[str]:
        """The message's problems with the term; each text given as (as printed, _plain of it)."""
        term, said, out = self.term, text[1], []
        if self.english_plain in english[1] and self.english.search(english[1]) and not self.forms.search(said):
            out.append(f"{where}: the English says {term.english!r}; the glossary's term is {term.term!r} "
                       f"(or {', '.join(repr(f) for f in term.forms[1:]) or 'no other form'}), not found in "
                       f"{text[0]!r}")
        if self.avoid is not None and self.avoid.search(said):
            # a word is looked for as a whole word only where the message holds it at all
            out += [f"{where}: says {word!r}, which the glossary avoids for {term.english!r} (its term: {term.term!r})"
                    for word, plain in self.avoided if plain in said and _says_plain(said, word)]
        return out


def _union(words: tuple[str, ...], *, whole: bool) -> str:
    """The words as one pattern of alternatives, longest first (so none hides a longer one), each
    at the start of a word (and, if `whole`, at its end too).  Words whose edges are alike share
    one test of them, made once a place in the text, not once a word (a glossary may avoid
    thousands)."""
    groups: dict[tuple[str, str], list[str]] = {}
    for w in sorted({_plain(word) for word in words}, key=lambda w: (-len(w), w)):
        groups.setdefault((_word_start(w), _word_end(w) if whole else ""), []).append(re.escape(w))
    return "|".join(f"{start}(?:{'|'.join(alternatives)}){end}" for (start, end), alternatives in groups.items())
