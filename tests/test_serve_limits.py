"""`bailout serve` within bounds, whatever the project folder holds: a part that cannot be made
at start (a weapon's name too long for a counter, a full disk under --out) is a problem shown on
the pages, not a traceback; a FIFO or a large stray file in templates/ is never read (serve
keeps a copy of the templates its aid read, and only those); and it watches at most
MAX_WATCHED files and folders, saying so in one line past that, rather than spend a core
looking at stray files while nothing changes.
"""

import os
import signal
import threading

import pytest
from msgspec.structs import replace

from conftest import DATA, ROOT, edit, one_line, run_cli, small_disk
from generator.data import load
from generator.make.pipeline import context
from generator.make.preview import MAX_WATCHED, Preview, Sources, change_lines, scan
from generator.options import BuildOptions
from serving import wait_for

A4 = BuildOptions(papers=("a4",))
LONG = "Kar98k " * 12       # too long for a counter's line at any size the counters print


def _every_file(preview):
    """What serve does at start: every file made once (none may raise)."""
    preview.reload()
    return {name: preview.get(name) for name in list(preview.files)}


def test_a_part_that_cannot_be_made_at_start_is_a_problem_not_a_traceback(data_copy):
    edit(data_copy / "nationalities" / "german.toml", 'model = "Kar98k"', f'model = "{LONG.strip()}"')
    kit = load(data_copy)
    preview = Preview(Sources((), lambda: context(kit, A4, ROOT / "templates")))
    try:
        made = _every_file(preview)
    finally:
        preview.close()
    assert made["player-aid.html"] and made["prerolled-a4.pdf"]        # the parts that can be made are served
    assert made["counters-a4.pdf"] is None and made["kit-a4.pdf"] is None
    assert len(preview.problems) == 1 and "cannot fit" in preview.problems[0]


def test_a_full_disk_under_out_at_start_is_a_problem_not_a_traceback(tmp_path):
    kit = load(DATA)
    with small_disk(tmp_path / "disk", "200k") as disk:
        (disk / "out").mkdir()          # as serve makes it, before it takes the folder's lock
        # the printed parts: a file that fits (the web aid) and one that does not (the kit)
        printed = replace(A4, parts=("aid", "prerolled", "counters"))
        preview = Preview(Sources((), lambda: context(kit, printed, ROOT / "templates")), disk / "out")
        try:
            made = _every_file(preview)
        finally:
            preview.close()
        assert made["player-aid.html"] and made["kit-a4.pdf"] is None       # the aid fits, the kit does not
        assert preview.problems and all("No space left on device" in p for p in preview.problems)
        assert not list((disk / "out").glob(".bailout-staging-*"))


@pytest.fixture
def cluttered(templates):
    """The templates folder with a FIFO and a large stray file beside the aid's template."""
    os.mkfifo(templates / "a-fifo")
    with open(templates / "stray.bin", "wb") as handle:
        handle.truncate(300 << 20)        # sparse: 300 MB to anyone who reads it
    return templates


def test_serve_copies_only_the_templates_its_aid_read_never_a_fifo(cluttered):
    kit = load(DATA)
    preview = Preview(Sources((), lambda: context(kit, replace(A4, parts=("aid",)), cluttered)))
    try:
        preview.reload()
        copy = preview.first_templates
        assert copy is not None and sorted(p.name for p in copy.iterdir()) == ["aid.md.j2"]
        assert (copy / "aid.md.j2").read_bytes() == (cluttered / "aid.md.j2").read_bytes()
        edit(cluttered / "aid.md.j2", "Every man who gets out", "Every man who bails out")
        preview.reload()
        assert any("bails out" in line for line in change_lines(preview))     # the copy is the base
    finally:
        preview.close()
    assert not copy.exists()


def test_serve_with_a_fifo_in_its_templates_and_a_part_it_cannot_make_starts_and_stops_cleanly(cluttered,
                                                                                              data_copy):
    edit(data_copy / "nationalities" / "german.toml", 'model = "Kar98k"', f'model = "{LONG.strip()}"')

    def stop_once_serving():
        import sys
        wait_for(lambda: "serving http" in getattr(sys.stdout, "getvalue", str)(), timeout=120)
        os.kill(os.getpid(), signal.SIGTERM)
    threading.Thread(target=stop_once_serving, daemon=True).start()
    status, out, err = run_cli("serve", "--data", data_copy, "--templates", cluttered, "--paper", "a4")
    assert status == 0 and "serving http" in out and "Traceback" not in err, err


def test_serve_watches_at_most_max_watched_files_and_says_so(data_copy):
    stray = data_copy / "stray"
    stray.mkdir()
    for i in range(MAX_WATCHED):
        (stray / f"{i}.txt").touch()
    status, out, err = run_cli("serve", "--data", data_copy, "--only", "aid", "--paper", "a4")
    one_line(status, err, f"serve: {data_copy} holds more than {MAX_WATCHED:,} files and folders")
    assert "serving http" not in out


def test_the_kits_own_folders_are_far_within_the_watch_limit():
    from generator.content.words import LOCALE
    places, found = scan((DATA, ROOT / "templates", LOCALE))
    assert len(places) + len(found) < MAX_WATCHED // 10
