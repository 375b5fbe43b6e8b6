"""The cache folder is another place anyone might write (BAILOUT_CACHE may name a shared folder):
it is used only when it is its user's own and nobody else can write it, each entry is a regular
file of bounded size opened without following a link or waiting on a FIFO, nothing kept there is
unpickled, and a catalogue's entry is used only once its digest is checked, so no entry another
user planted runs code or changes a printed word (tests/test_template_bytecode.py: through build
and check)."""

import os
import pickle
import threading
import time
from pathlib import Path

import jinja2
import pytest

from conftest import ROOT, run_cli
from generator import cache
from generator.content import aid_text
from generator.content.words import po_messages

PO = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "a.key"\nmsgstr "{text}"\n'
NOBODY = 65534


@pytest.fixture
def catalogue(tmp_path):
    po = tmp_path / "xx.po"
    po.write_text(PO.format(text="Echt"), encoding="utf-8")
    return po


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv(cache.CACHE, str(folder))
    monkeypatch.setattr(cache, "_said", set())
    monkeypatch.setattr(cache, "quiet", False)     # whatever an earlier command of this process set
    return folder


def _only_entry(folder: Path) -> Path:
    (entry,) = [p for p in folder.rglob("*") if p.is_file()]
    return entry


class _Ran:
    """A pickle that, once unpickled, leaves a mark: what a planted bytecode entry would run."""

    def __init__(self, mark: Path) -> None:
        self.mark = mark

    def __reduce__(self):
        return (Path.write_text, (self.mark, "ran"))


def _fresh_template() -> jinja2.Template:
    aid_text._environment.cache_clear()
    try:
        return aid_text.compiled_template(ROOT / "templates")
    finally:
        aid_text._environment.cache_clear()


def test_a_planted_bytecode_entry_in_a_folder_others_can_write_never_runs(cache_dir, tmp_path, capsys):
    _fresh_template()           # the kit's own entry, made in a private folder
    entry = _only_entry(cache_dir)
    mark = tmp_path / "ran"
    entry.write_bytes(jinja2.bccache.bc_magic + pickle.dumps(_Ran(mark)) + b"rest")
    for folder in (cache_dir, entry.parent):
        os.chmod(folder, 0o1777)        # a shared folder: anyone can plant what the kit would read
    _fresh_template()
    assert not mark.exists()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{cache_dir}" in err and "writable by group or others" in err
    _fresh_template()
    assert capsys.readouterr().err == ""        # said once a process


def test_a_planted_entry_in_the_private_folder_is_checked_before_use(cache_dir, tmp_path):
    _fresh_template()
    entry = _only_entry(cache_dir)
    mark = tmp_path / "ran"
    entry.write_bytes(jinja2.bccache.bc_magic + pickle.dumps(_Ran(mark)) + b"rest")    # not the template's checksum
    assert _fresh_template().render is not None and not mark.exists()


def test_a_folder_owned_by_another_user_is_not_used(cache_dir, catalogue, capsys):
    if os.geteuid() != 0:
        pytest.skip("making a folder another user's needs root")
    cache_dir.mkdir(mode=0o700)
    os.chown(cache_dir, NOBODY, NOBODY)
    assert po_messages(catalogue, "de") == {"a.key": "Echt"}
    assert not any(cache_dir.iterdir())
    assert "owned by another user" in capsys.readouterr().err


def test_a_planted_catalogue_entry_changes_no_word(cache_dir, catalogue):
    po_messages(catalogue, "de")
    entry = _only_entry(cache_dir)
    entry.write_bytes(b'{"a.key": "HACKED"}')        # named as the kit names it: anyone can compute that
    assert po_messages(catalogue, "de") == {"a.key": "Echt"}
    entry.write_bytes(entry.read_bytes().replace(b"Echt", b"Fake"))
    assert po_messages(catalogue, "de") == {"a.key": "Echt"}


def test_the_cache_note_is_one_line_and_quiet_says_nothing(cache_dir, tmp_path, monkeypatch):
    from conftest import DATA
    from generator.content import aid_files, items, words
    cache_dir.mkdir()
    os.chmod(cache_dir, 0o777)
    # What this process read before (an earlier test's build) is not read again: each command
    # here reads its catalogues afresh, so each asks the cache.
    for module, memo in ((words, "_READ"), (aid_files, "_AID_READ")):
        monkeypatch.setattr(module, memo, {})
    # a short table: its words come from the catalogue (without --quiet the note would be said)
    status, _, err = run_cli("build", "--only", "prerolled", "--paper", "a4", "--rows", "8", "--out", tmp_path / "out",
                             "--quiet")
    assert status == 0 and err == ""
    for module, memo in ((words, "_READ"), (aid_files, "_AID_READ")):
        monkeypatch.setattr(module, memo, {})
    items.source_words.cache_clear()        # the diff's words, kept by an earlier diff in this process
    status, _, err = run_cli("diff", DATA, DATA)
    notes = [line for line in err.splitlines() if "cache folder" in line]
    assert status == 0 and len(notes) == 1 and "building without it" in notes[0], err


@pytest.mark.parametrize("kind", ["fifo", "folder", "link", "huge", "group-writable"])
def test_an_entry_that_is_not_a_small_private_file_is_made_again(kind, cache_dir, catalogue, tmp_path):
    po_messages(catalogue, "de")
    entry = _only_entry(cache_dir)
    entry.unlink()
    if kind == "fifo":
        os.mkfifo(entry)        # nobody writes to it: a blocking open would wait for ever
    elif kind == "folder":
        entry.mkdir()
    elif kind == "link":
        target = tmp_path / "elsewhere"
        target.write_bytes(b"{}")
        entry.symlink_to(target)
    elif kind == "huge":
        with open(entry, "wb") as handle:       # sparse: costs no disk, and must not be read
            handle.truncate(cache.MAX_ENTRY + 1)
    else:
        po_messages(catalogue, "de")
        os.chmod(entry, 0o666)
    done: list[dict[str, str]] = []
    reader = threading.Thread(target=lambda: done.append(po_messages(catalogue, "de")), daemon=True)
    started = time.monotonic()
    reader.start()
    reader.join(timeout=10)
    assert done == [{"a.key": "Echt"}] and time.monotonic() - started < 5


def test_keys_are_names_inside_the_folder(cache_dir):
    cache.write("catalogues", "0" * 64, b"x")
    assert cache.read("catalogues", "0" * 64) == b"x"
    for key in ("../escape", "a/b", "", "x" * 300):
        cache.write("catalogues", key, b"x")
        assert cache.read("catalogues", key) is None
    assert [p.name for p in cache_dir.rglob("*") if p.is_file()] == ["0" * 64]


def test_a_kinds_folder_that_is_a_link_is_not_followed(cache_dir, catalogue, tmp_path, capsys):
    # the kit's own cache folder, private and its user's, whose folder of one kind leads elsewhere
    # (to a folder as private: only the link is wrong)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    cache_dir.mkdir(mode=0o700)
    (cache_dir / "catalogues").symlink_to(elsewhere)
    assert po_messages(catalogue, "xx")["a.key"] == "Echt"
    assert po_messages(catalogue, "xx")["a.key"] == "Echt"      # read twice: made, then looked for
    assert list(elsewhere.iterdir()) == []
    assert "is a symbolic link, not a folder" in capsys.readouterr().err


def test_entries_are_opened_by_the_folders_descriptor_where_the_system_can(cache_dir, catalogue, monkeypatch):
    if not {os.open, os.rename, os.unlink} <= os.supports_dir_fd:
        pytest.skip("this system opens no file relative to a folder's descriptor")
    assert cache._BY_DESCRIPTOR
    seen = []
    real_open = os.open

    def watched(path, flags, mode=0o777, *, dir_fd=None):
        seen.append((str(path), dir_fd))
        return real_open(path, flags, mode, dir_fd=dir_fd)
    monkeypatch.setattr(cache.os, "open", watched)
    po_messages(catalogue, "xx")        # looked for, made, kept
    folder = str(cache_dir / "catalogues")
    seen = [(path, dir_fd) for path, dir_fd in seen if path != str(catalogue)]     # the catalogue itself
    assert {path for path, dir_fd in seen if dir_fd is None} == {folder}    # the folder opened by its path
    entries = [dir_fd for path, dir_fd in seen if path != folder]
    assert len(entries) == 2 and None not in entries        # the entry looked for and the one written
