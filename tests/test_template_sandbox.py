"""A data folder's template is text from anyone: it renders in an immutable sandbox, within a
time and size limit, read as a regular file inside its folder and without control characters.
Each refusal is one line naming the template, exit status 2, in build, check and diff."""

import os
import time

import pytest

from conftest import DATA, ROOT, one_line, run_cli
from generator.content import aid_text, template_sandbox
from generator.content.words import load_words


def _with(folder, line):
    """An aid template of `line` alone: refused as the kit's own would be with the line in it, and
    compiled in a moment."""
    (folder / "aid.md.j2").write_text(line + "\n", encoding="utf-8")


def _build(templates, tmp_path):
    return run_cli("build", "--only", "aid", "--paper", "a4", "--templates", templates, "--out", tmp_path / "out",
                   "--quiet")


@pytest.mark.parametrize("line", [
    '{{ words.messages.update({"counter.crew.front.title": "HACKED"}) }}',
    '{{ odds.man.clear() }}',
    '{{ notes.pop("hero_card") }}',
    '{{ crew_sizes.append(9) }}',
    '{{ words.__class__ }}',
])
def test_a_template_cannot_change_what_the_next_render_prints(line, templates, tmp_path):
    before = dict(load_words().messages)
    _with(templates, line)
    status, _, err = _build(templates, tmp_path)
    one_line(status, err, str(templates / "aid.md.j2"))
    assert "unsafe" in err or "has no attribute" in err
    assert dict(load_words().messages) == before and not (tmp_path / "out").exists()


@pytest.mark.parametrize("line", [
    '{{ "{0.__class__}".format(1) }}',
    '{{ ("{0.__class__}"|attr("format"))(1) }}',         # Jinja before 3.1.6 let |attr reach str.format
    '{% set f = "{0.__class__.__mro__}"|attr("format") %}{{ f(1) }}',
    '{% for f in ["{0.__class__}"]|map("attr", "format") %}{{ f(1) }}{% endfor %}',
])
def test_a_format_string_reaches_no_attribute_however_the_format_is_found(line, templates, tmp_path):
    _with(templates, line)
    status, _, err = _build(templates, tmp_path)
    one_line(status, err, str(templates / "aid.md.j2"), "unsafe")


# Seconds: each template a test renders under this limit never ends, so the limit is always
# reached, and a short one is soonest waited out.  The kit's own aid renders under its own.
QUICK = 0.1
SHIPPED_LIMIT = template_sandbox.TIME_LIMIT


@pytest.fixture
def quick(monkeypatch):
    """A time limit a test can wait for."""
    monkeypatch.setattr(template_sandbox, "TIME_LIMIT", QUICK)


LOOPS = "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}"
NO_CALLS = "{% set xs = range(100000)|list %}{% for i in xs %}{% for j in xs %}{% endfor %}{% endfor %}"
# Includes itself twice, 30 deep: 2**30 renders of the aid (deeper would end at Python's recursion limit).
SELF = '{% set d = (d|default(0)) + 1 %}{% if d < 30 %}{% include "aid.md.j2" %}{% include "aid.md.j2" %}{% endif %}'
# A macro that calls itself twice a level, 60 deep: 2**60 calls, each subtracting with no step the
# sandbox checks for size.
MACRO = "{% macro m(n) %}{% if n > 0 %}{{ m(n - 1) }}{{ m(n - 1) }}{% endif %}{% endmacro %}{{ m(60) }}"
# A recursive loop, 1,000 items a level, 5 levels deep.
RECURSIVE = "{% for i in range(1000) recursive %}{% if loop.depth < 5 %}{{ loop(range(1000)) }}{% endif %}{% endfor %}"


@pytest.mark.parametrize(("line", "command"), [(LOOPS, "build"), (NO_CALLS, "build"), (SELF, "build"),
                                                (MACRO, "build"), (RECURSIVE, "build"), (LOOPS, "check"),
                                                (NO_CALLS, "diff")])
def test_a_template_that_never_ends_is_one_line_in_every_command(line, command, quick, templates, tmp_path):
    _with(templates, line)
    started = time.monotonic()
    if command == "build":
        status, _, err = _build(templates, tmp_path)
    elif command == "check":
        status, _, err = run_cli("check", "--templates", templates)
    else:
        status, _, err = run_cli("diff", DATA, "--templates", templates)
    assert time.monotonic() - started < 10
    one_line(status, err, str(templates / "aid.md.j2"), f"did not finish within {QUICK:g} s")


def test_a_template_out_of_time_is_named_by_the_line_it_was_at(quick, templates, tmp_path):
    _with(templates, "# Rules\n\nSome text.\n" + NO_CALLS)
    started = time.monotonic()
    status, _, err = _build(templates, tmp_path)
    assert time.monotonic() - started < 5
    one_line(status, err, f"{templates / 'aid.md.j2'}:4: the template did not finish within {QUICK:g} s")


def test_the_time_limit_needs_no_thread_and_leaves_none(quick, templates, tmp_path, monkeypatch):
    import threading
    _with(templates, NO_CALLS)
    before = threading.active_count()
    status, _, err = _build(templates, tmp_path)
    assert status == 2 and threading.active_count() == before, err
    # The next render of this thread has its full time again, and nothing of the last one's limit.
    monkeypatch.setattr(template_sandbox, "TIME_LIMIT", SHIPPED_LIMIT)
    aid_text._environment.cache_clear()
    status, _, err = _build(ROOT / "templates", tmp_path)
    assert status == 0, err


@pytest.mark.parametrize("line", [
    '{{ "x" * 100000000 }}',
    '{% set a = "x" * 4000000 %}{{ a + a }}',
    '{{ "x"|center(100000000) }}',
    '{{ "x".center(100000000) }}',
    '{{ "x".ljust(100000000) }}',
    '{{ "%0100000000d"|format(1) }}',
    '{{ "%0100000000d" % 1 }}',
    '{{ "{:>100000000}".format(1) }}',
    '{{ "{:>{w}}".format(1, w=100000000) }}',
    '{{ 10 ** 100000000 }}',
    '{% set ns = namespace(a="xxxxxxxxxx") %}{% for i in range(40) %}{% set ns.a = ns.a ~ ns.a %}{% endfor %}',
    '{% set a %}{% for i in range(100000) %}{{ "y" * 1000 }}{% endfor %}{% endset %}',
    '{{ (["x" * 1000000] * 100)|join }}',
    '{% for i in range(100000) %}{{ "z" * 100 }}{% endfor %}',
])
def test_a_template_that_asks_for_gigabytes_is_refused_first(line, templates, tmp_path, monkeypatch):
    monkeypatch.setattr(template_sandbox, "MAX_TEXT", 1 << 20)      # reached sooner, refused alike
    _with(templates, line)
    status, _, err = _build(templates, tmp_path)
    one_line(status, err, str(templates / "aid.md.j2"))
    assert "Refused" in err or "more than" in err, err       # refused before the value was made


@pytest.mark.parametrize("ch", ["\x1b", "\u202e", "\u2066", "\x00", "\x07"])
def test_a_control_character_in_template_text_is_one_line_naming_its_line(ch, templates, tmp_path):
    _with(templates, f"Rules {ch}[31m here")
    status, _, err = _build(templates, tmp_path)
    one_line(status, err, f"{templates / 'aid.md.j2'}:1:", f"U+{ord(ch):04X}")


def test_the_first_control_character_is_named_by_its_own_line(templates, tmp_path):
    _with(templates, "# Rules\n\nfine \u00e9t\u00e9 text\nthen \x07 a bell\nand \x1b later")
    status, _, err = _build(templates, tmp_path)
    one_line(status, err, f"{templates / 'aid.md.j2'}:4:", "U+0007")


def test_a_template_that_is_a_fifo_or_links_out_is_refused_at_once(templates, tmp_path):
    fifo = templates / "part.md.j2"
    os.mkfifo(fifo)         # nobody writes to it: a blocking read would wait for ever
    _with(templates, '{% include "part.md.j2" %}')
    started = time.monotonic()
    status, _, err = _build(templates, tmp_path)
    assert time.monotonic() - started < 10
    one_line(status, err, str(fifo), "not a regular file")
    fifo.unlink()
    secret = tmp_path / "secret.txt"
    secret.write_text("someone else's file")
    fifo.symlink_to(secret)
    aid_text._environment.cache_clear()
    status, _, err = _build(templates, tmp_path)
    one_line(status, err, str(fifo), "leads out of the templates folder")


def test_the_sandbox_leaves_the_kit_s_own_template_as_it_was(kit_files, templates, tmp_path):
    status, _, err = _build(templates, tmp_path)
    assert status == 0, err
    assert (tmp_path / "out" / "player-aid-a4.pdf").read_bytes() == kit_files["player-aid-a4.pdf"]


# -- what a render makes in all: lazy chains of filters, lipsum --------------------------------

@pytest.mark.parametrize("line", [
    "{{ range(100000)|map('string')|map('center', 100000)|list }}",       # each item within the limit
    "{{ range(100000)|map('string')|map('center', 100000)|join }}",
    "{% for s in range(100000)|map('string')|map('center', 100000) %}{% endfor %}{{ 1 }}",
    "{% for i in range(100000) %}{% set x = 'x'.ljust(100000) %}{% endfor %}",
    "".join(f"{{% set a{i} = range(100000)|list %}}" for i in range(60)),    # lists of numbers, kept
])
def test_a_chain_of_steps_each_within_the_limit_is_refused_once_it_has_made_too_much(line, templates, tmp_path):
    _with(templates, line)
    status, _, err = _build(templates, tmp_path)
    one_line(status, err, str(templates / "aid.md.j2"), f"more than {template_sandbox.MAX_MADE:,} characters in all")


@pytest.mark.parametrize("call", ["lipsum(100000)", "lipsum(3, max=10000000)", "lipsum(-1)"])
def test_lipsum_is_refused_before_it_writes_a_word_past_the_limit(call, templates, tmp_path):
    _with(templates, "{{ " + call + " }}")
    status, _, err = _build(templates, tmp_path)
    one_line(status, err, str(templates / "aid.md.j2"), "lipsum(")


def test_what_a_render_makes_is_counted_afresh_for_each_render():
    from generator.content.template_sandbox import made, render_limits
    with render_limits(5):
        made("x" * (template_sandbox.MAX_MADE // 2))
    with render_limits(5):      # a render of its own: the last one's count is not carried over
        made("x" * (template_sandbox.MAX_MADE // 2))
        with pytest.raises(template_sandbox.Refused):
            made("y" * (template_sandbox.MAX_MADE // 2 + 1))
