"""Hostile input: whatever a user, a file or the environment supplies ends in one clean line.

Each case here would end in a traceback, a hang or runaway cost without the guard it tests: a
FIFO or /dev/zero as a data file, TOML nested hundreds deep, a NUL in a path, paths past PATH_MAX
or under a folder without search permission, a SOURCE_DATE_EPOCH reportlab cannot take, keys
that forge a second message.
"""

import os
import shutil
import subprocess
import sys
import time

import pytest

from conftest import ROOT, SLOW, bailout, edit, one_line, pdf_text, run_cli, time_limit
from generator.data import MAX_NATIONALITIES, load
from generator.data.toml_file import MAX_DEPTH, MAX_FILE_BYTES
from generator.errors import DataError

PATH_MAX = os.pathconf("/", "PC_PATH_MAX")


# -- data files that are not files ------------------------------------------------------------

def test_fifo_named_rules_toml_returns_at_once(data_copy):
    rules = data_copy / "rules.toml"
    rules.unlink()
    os.mkfifo(rules)        # nobody writes to it: an open() without O_NONBLOCK would wait forever
    started = time.monotonic()
    with time_limit(30):
        status, _, err = run_cli("odds", "--data", data_copy)
    assert time.monotonic() - started < 10
    one_line(status, err, str(rules), "not a regular file")


def test_data_file_linked_to_dev_zero_is_refused(data_copy):
    german = data_copy / "nationalities" / "german.toml"
    german.unlink()
    german.symlink_to("/dev/zero")
    # in a process of its own: without the guard it would read /dev/zero into its memory
    status, _, err = bailout("odds", "--data", data_copy, timeout=30)
    one_line(status, err, str(german), "not a regular file")


def test_data_file_over_the_size_limit_is_refused_unread(data_copy):
    german = data_copy / "nationalities" / "german.toml"
    with open(german, "r+b") as handle:     # sparse: no disk, and a reader must not read it
        handle.truncate(MAX_FILE_BYTES + 1)
    with pytest.raises(DataError) as raised:
        load(data_copy)
    assert raised.value.problems == [f"{german}: is {MAX_FILE_BYTES + 1:,} bytes; a data file may hold at most "
                                     f"{MAX_FILE_BYTES:,}"]


# -- TOML that nests too deep ---------------------------------------------------------------

@pytest.mark.parametrize("nested", [
    "x = " + "[" * 500 + "]" * 500,                  # the parser itself recurses: RecursionError
    "x = " + "{a = " * 500 + "1" + "}" * 500,
    ".".join(["a"] * (MAX_DEPTH + 1)) + " = 1",      # dotted keys nest without recursing
])
def test_toml_nested_beyond_the_limit_is_a_data_error(nested, data_copy):
    german = data_copy / "nationalities" / "german.toml"
    german.write_text(nested + "\n" + german.read_text())
    status, _, err = run_cli("odds", "--data", data_copy)
    one_line(status, err, str(german), f"at most {MAX_DEPTH} levels")


def test_nesting_up_to_the_limit_is_read(data_copy):
    german = data_copy / "nationalities" / "german.toml"
    # At the top: the file's own table is level 1, so a key of MAX_DEPTH parts nests MAX_DEPTH tables.
    german.write_text(".".join(["a"] * MAX_DEPTH) + " = 1\n" + german.read_text())
    with pytest.raises(DataError) as raised:
        load(data_copy)
    assert raised.value.problems == [f"{german}: a: unknown key"]    # read, then found not to belong


def test_nul_in_the_deck_path_is_a_data_error(data_copy):
    edit(data_copy / "rules.toml", '# file = "decks/my-deck.toml"', 'file = "decks/a\\u0000b.toml"')
    status, _, err = run_cli("odds", "--data", data_copy)
    one_line(status, err, "rules.toml: deck.file", r"\x00")


# -- loaders stay linear; nationalities stay printable ----------------------------------------

# README's command reads a quarter of CI's tables (BAILOUT_SLOW_TESTS=1) in a quarter of the time:
# a reader quadratic in the tables would still take many times that limit.
ROSTER_TABLES = 40_000 if SLOW else 10_000


def test_tens_of_thousands_of_roster_tables_load_in_seconds_not_minutes(data_copy):
    german = data_copy / "nationalities" / "german.toml"
    german.write_text(german.read_text() + "".join(
        f'\n[[roster]]\ncard = "G{i}"\nrole = "{("SL", "ASL", "")[i % 3]}"\nmorale = {i % 5 + 1}\n'
        for i in range(ROSTER_TABLES)))
    started = time.process_time()      # this process's CPU: other jobs on the machine do not count
    kit = load(data_copy)
    # A linear reader stays well under the limit (5 s for 40,000 tables), most of its time
    # tomllib's own, on a loaded machine too; one that went quadratic in the tables would take
    # minutes for 40,000, many seconds for 10,000.
    assert time.process_time() - started < 5 * ROSTER_TABLES / 40_000
    assert len(next(n for n in kit.nationalities if n.key == "german").roster) == ROSTER_TABLES


def test_a_card_listed_twice_is_still_found(data_copy):
    german = data_copy / "nationalities" / "german.toml"
    german.write_text(german.read_text() + "".join(
        f'\n[[roster]]\ncard = "G{i % 999}"\nmorale = 3\n' for i in range(1000)))
    with pytest.raises(DataError) as raised:
        load(data_copy)
    assert raised.value.problems == [f"{german}: roster: card 'G0' is listed twice"]


def minimal_nationalities(data, count):
    """`count` nationality files, each as short as the aid can print: one rifle for the period."""
    folder = data / "nationalities"
    shutil.rmtree(folder)
    folder.mkdir()
    for i in range(count):
        (folder / f"n{i:03}.toml").write_text(
            f'name = "N{i}"\nadjective = "N{i}"\ncolour = "#ffffff"\ntext_colour = "#000000"\n'
            f'[[rifle]]\nyears = [1939, 1945]\nmodel = "R"\nsource = "s"\n'
            f'[[emblem]]\nshape = "disc"\ncolour = "#000000"\n')
    return folder


def test_more_nationalities_than_the_aid_holds_are_refused_before_reading(data_copy):
    folder = minimal_nationalities(data_copy, MAX_NATIONALITIES + 1)
    (folder / "n000.toml").unlink()
    os.mkfifo(folder / "n000.toml")         # never opened: the count comes first
    with time_limit(30):
        status, _, err = run_cli("odds", "--data", data_copy)
    one_line(status, err, str(folder), f"more than {MAX_NATIONALITIES} nationality files")


def test_the_aid_really_prints_the_most_nationalities_allowed(data_copy):
    from generator.content.context import make_context
    from generator.data.sources import shipped
    from generator.engine.odds import compute
    from generator.layout.paper import PAPERS
    from generator.make.outputs import named
    from generator.make.products import Products
    from generator.options import BuildOptions
    minimal_nationalities(data_copy, MAX_NATIONALITIES)
    kit = load(data_copy)
    products = Products(make_context(kit, compute(kit), BuildOptions(), shipped("templates")))
    # README's command sets the aid on one paper, BAILOUT_SLOW_TESTS=1 (CI) on both: the list of
    # nationalities ends as far down either page (0.46 of A4's height, 0.45 of US Letter's).
    for paper in PAPERS.values() if SLOW else [PAPERS["letter"]]:
        pdf = products.get(named("player-aid-{paper}.pdf").product, paper)
        assert f"N{MAX_NATIONALITIES - 1}" in pdf_text(pdf), paper.label


# -- paths the system cannot look at ---------------------------------------------------------

def long_path(tmp_path):
    return f"{tmp_path}/" + ("x" * 200 + "/") * (PATH_MAX // 200 + 1)


@pytest.mark.parametrize("option", ["--out", "--data"])
def test_path_longer_than_path_max_is_one_line(option, tmp_path):
    status, _, err = run_cli("build", option, long_path(tmp_path), "--only", "aid", "--paper", "a4")
    one_line(status, err, f"{long_path(tmp_path)[:60]}", "too long")


def _without_search_permission():
    """A command prefix under which a folder's permission bits hold (root ignores them)."""
    if os.geteuid() != 0:
        return ()
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: root passes any permission check")
    return ("setpriv", "--inh-caps=-all", "--bounding-set=-dac_override,-dac_read_search")


@pytest.mark.parametrize("option", ["--out", "--data"])
def test_path_under_a_folder_without_search_permission_is_one_line(option, tmp_path, data_copy):
    prefix = _without_search_permission()
    locked = tmp_path / "locked"
    shutil.copytree(data_copy, locked / "data")
    locked.chmod(0o600)         # readable, but its entries cannot be looked up
    try:
        target = locked / ("data" if option == "--data" else "out")
        status, _, err = bailout("build", option, target, "--only", "aid", "--paper", "a4", prefix=prefix)
    finally:
        locked.chmod(0o700)
    one_line(status, err, str(target), "Permission denied")


# -- the environment -------------------------------------------------------------------------

@pytest.mark.parametrize("epoch", ["\u00b2", "99999999999999999999", "9" * 5000, "253402300800", "-1"])
def test_source_date_epoch_reportlab_cannot_take_is_one_line(epoch, tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch)
    status, _, err = run_cli("build", "--out", tmp_path / "o")
    one_line(status, err, "SOURCE_DATE_EPOCH")
    assert not (tmp_path / "o").exists()


def test_the_last_source_date_epoch_a_pdf_can_date(tmp_path, monkeypatch):
    from pypdf import PdfReader
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "253402300799")
    status, _, err = run_cli("build", "--out", tmp_path / "o", "--only", "aid", "--paper", "a4")
    assert status == 0, err
    assert PdfReader(tmp_path / "o" / "player-aid-a4.pdf").metadata["/CreationDate"].startswith("D:99991231235959")


@pytest.mark.parametrize("epoch, dated", [("0", (1980, 1, 1, 0, 0, 0)), ("4354819199", (2107, 12, 31, 23, 59, 58)),
                                          ("4354819200", (2107, 12, 31, 23, 59, 58)),
                                          ("253402300799", (2107, 12, 31, 23, 59, 58))])
def test_a_kit_zip_dates_its_entries_within_what_a_zip_can_say(epoch, dated, monkeypatch):
    # a PDF can be dated up to 9999 and a zip entry from 1980 to 2107: a release, a VASSAL file or
    # the saved object beyond either end dates its entries at that end, rather than fail in
    # zipfile (struct.error past 2107); every zip of the kit is written by generator.archive
    import io
    import zipfile

    from generator.archive import zip_bytes
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch)
    archive = zipfile.ZipFile(io.BytesIO(zip_bytes({"README.txt": b"read me"}, folder="kit")))
    assert [info.date_time for info in archive.infolist()] == [dated]


# -- one problem, one line -------------------------------------------------------------------

@pytest.mark.parametrize("key, shown", [
    ('"x\\nbailout: forged problem"', r"x\nbailout: forged problem"),
    ('"x\\u001b[2J"', r"x\x1b[2J"),
    ('"x\\u202ey"', r"x\u202ey"),
])
def test_a_key_with_control_characters_stays_on_one_line(key, shown, data_copy):
    german = data_copy / "nationalities" / "german.toml"
    edit(german, 'name = "German"', f'name = "German"\n{key} = 1')
    status, _, err = run_cli("odds", "--data", data_copy)
    one_line(status, err, f"{german}: {shown}: unknown key")
    assert "\x1b" not in err and "\u202e" not in err


def test_a_data_folder_name_with_a_newline_stays_on_one_line(tmp_path):
    status, _, err = run_cli("odds", "--data", tmp_path / "a\nbailout: forged")
    one_line(status, err, r"a\nbailout: forged", "no such data folder")


def test_an_argument_with_a_newline_stays_on_one_line():
    status, _, err = run_cli("odds", "x\nbailout: forged")
    assert status == 2 and "Traceback" not in err
    assert [line for line in err.splitlines() if line.startswith("bailout:")] == [
        r"bailout: odds: unrecognized arguments: x\nbailout: forged; bailout help odds lists its options"]


def test_a_roster_too_large_to_search_is_one_line(data_copy):
    from generator.cli.crew_report import MAX_COMBINATIONS
    german = data_copy / "nationalities" / "german.toml"
    german.write_text(german.read_text() + "".join(f'\n[[roster]]\ncard = "G{i}"\nmorale = 3\n' for i in range(60)))
    started = time.monotonic()
    status, _, err = run_cli("crew", "german", "--afv-morale", "5", "--data", data_copy)
    assert time.monotonic() - started < 30
    # 60 cards, crews of 5 (rules.toml: crew.size): 5,461,512 combinations, over the limit
    one_line(status, err, str(german), "5,461,512 crews of 5", f"at most {MAX_COMBINATIONS:,}")


def test_output_cut_short_by_a_closed_pipe_is_quiet():
    reader = subprocess.Popen([sys.executable, "-m", "generator", "odds"], cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    reader.stdout.close()       # as `| head -0` would
    err = reader.stderr.read().decode()
    assert reader.wait(timeout=60) in (0, 141) and "Traceback" not in err
