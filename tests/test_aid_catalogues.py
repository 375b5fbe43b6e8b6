"""The aid's sentences in every edition: the template's {% trans %} blocks and _() calls,
as Babel extracts them (babel.cfg), each have a translation in locale/<lang>/aid.po."""

import functools
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po

from generator.content.aid_files import TEMPLATE, aid_catalogue_file
from generator.content.words import available_languages
from generator.data.sources import shipped

ROOT = Path(__file__).resolve().parent.parent
EDITIONS = [lang for lang in available_languages() if lang != "en"]
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def babel_options():
    """The jinja2 extractor's options, read from babel.cfg (the mapping pybabel uses)."""
    text = (ROOT / "babel.cfg").read_text()
    section = text.split("[jinja2: templates/**.j2]", 1)[1]
    return dict(line.split("=", 1) for line in (ln.replace(" ", "") for ln in section.splitlines()) if "=" in line)


@functools.cache
def extracted():
    """The template's messages as Babel extracts them, extracted once: every edition's test reads
    the same template (a tenth of a second an extraction)."""
    found = extract_from_file("jinja2", str(shipped("templates") / TEMPLATE), options=babel_options())
    return frozenset(message for _, message, _, _ in found)


def catalogue(lang):
    with open(aid_catalogue_file(lang), "rb") as handle:
        return read_po(handle, locale=lang, domain="aid")


def test_babel_finds_the_templates_sentences():
    messages = extracted()
    assert len(messages) > 50 and "The procedure" in messages


def forms(string):
    """A message's translations: one, or one per plural form."""
    return tuple(string) if isinstance(string, tuple) else (string,)


@pytest.mark.parametrize("lang", EDITIONS)
def test_every_sentence_of_the_aid_has_a_translation(lang):
    po = catalogue(lang)
    translated = {m.id: forms(m.string) for m in po if m.id and all(forms(m.string)) and not m.fuzzy}
    messages = extracted()
    missing = sorted(map(str, messages - set(translated)))
    assert missing == [], (lang, missing[:5])
    for msgid in messages:
        # Same placeholders: a translation can neither drop a number nor name one the template lacks.
        english = set(PLACEHOLDER.findall(" ".join(forms(msgid))))
        for text in translated[msgid]:
            assert set(PLACEHOLDER.findall(text)) == english, (lang, msgid, text)
        if isinstance(msgid, tuple):        # as many forms as the header's Plural-Forms gives
            assert len(translated[msgid]) == po.num_plurals, (lang, msgid)


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="msgfmt (GNU gettext) not installed")
@pytest.mark.parametrize("lang", EDITIONS)
def test_msgfmt_checks_the_aid_catalogue(lang):
    done = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(aid_catalogue_file(lang))],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
