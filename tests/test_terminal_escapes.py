"""Text from data reaches a terminal escaped: no escape sequence, bell, carriage return or bidi
override from a data file is written raw to stdout, in text or JSON, and whitespace the font
cannot print is refused by `bailout check`.
"""

import json
import shutil

import pytest

from conftest import DATA, edit, one_line, run_cli

# -- 9. terminal escapes from data never reach stdout raw -------------------------------------

FORGED = r"K\u001b]0;pwned\u0007\u001b[31mRED\nFAKE: line\u202e"     # TOML escapes: ESC, BEL, LF, RLO
RAW = ("\x1b", "\x07", "\r", "\u202e")


def _hostile_terminal_data(data):
    edit(data / "nationalities" / "german.toml", 'model = "MP 40"', f'model = "{FORGED}"')
    edit(data / "nationalities" / "german.toml", 'name = "German"', r'name = "Ger\rman"')
    edit(data / "rules.toml", 'rule = "871.1.a"', r'rule = "871.1.a\u001b[2J"')
    edit(data / "rules.toml", 'title = "AFVs & Bail Out"', r'title = "AFVs & Bail\r Out"')   # odds print it


def _assert_escaped(out):
    assert out.strip()
    for raw in RAW:
        assert raw not in out, (raw, out)
    assert not any(line.startswith("FAKE") for line in out.splitlines())


@pytest.mark.parametrize("command", [("odds",), ("odds", "--json"), ("simulate", "50"), ("simulate", "50", "--json"),
                                     ("crew", "german", "--afv-morale", "7")])
def test_data_text_reaches_stdout_escaped(command, data_copy):
    _hostile_terminal_data(data_copy)
    status, out, err = run_cli(*command, "--data", str(data_copy))
    assert status == 0, err
    _assert_escaped(out)
    if "--json" in command:
        json.loads(out)             # the escapes keep it JSON


@pytest.mark.parametrize("as_json", [False, True])
def test_diff_prints_a_forged_model_escaped(as_json, tmp_path):
    old, new = tmp_path / "old", tmp_path / "new"
    shutil.copytree(DATA, old)
    shutil.copytree(DATA, new)
    edit(new / "nationalities" / "german.toml", 'model = "MP 40"', f'model = "{FORGED}"')
    status, out, err = run_cli("diff", str(old), str(new), *(["--json"] if as_json else []))
    assert status == 1, err         # a printed change
    _assert_escaped(out)
    if as_json:
        shown = json.dumps(json.loads(out))
        assert "FAKE: line" in shown and "\\u202e" in shown     # the model is there, as JSON escapes
    else:
        assert "\\x1b]0;pwned\\x07" in out and "\\nFAKE: line\\u202e" in out


def test_check_ok_line_escapes_a_carriage_return(tmp_path, check_after_its_render):
    data = tmp_path / "da\rta"
    shutil.copytree(DATA, data)
    status, out, err = run_cli("check", "--data", str(data))
    assert status == 0, err
    assert "\r" not in out and "da\\rta" in out and len(out.splitlines()) == 1


@pytest.mark.parametrize("space", ["\r", "\t", "\u2028", "\u3000"])
def test_check_refuses_whitespace_the_font_cannot_print(space, data_copy):
    code = f"U+{ord(space):04X}"
    edit(data_copy / "rules.toml", 'title = "AFVs & Bail Out"', f'title = "AFVs & Bail\\u{ord(space):04x} Out"')
    status, _, err = run_cli("check", "--data", str(data_copy))
    one_line(status, err, "variant.title", code)
