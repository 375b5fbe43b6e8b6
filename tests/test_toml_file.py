"""A data file's table is parsed once for the same bytes (generator/data/toml_file.py): each
reader still gets a table of its own, and a bad file is refused however often it is read."""

from generator.data.schema import Problems
from generator.data.toml_file import KEPT_BYTES, MAX_DEPTH, parse_toml

NATION = b'name = "Germany"\n[[roster]]\nyears = [1939, 1945]\nweapons = ["MG 42", "Kar98k"]\n'


def test_the_same_bytes_read_twice_give_two_tables_each_its_own():
    first = parse_toml(Problems(), "nationalities/de.toml", NATION)
    second = parse_toml(Problems(), "nationalities/de.toml", NATION)
    assert first == second == {"name": "Germany", "roster": [{"years": [1939, 1945],
                                                              "weapons": ["MG 42", "Kar98k"]}]}
    assert first is not second
    first["roster"][0]["weapons"].append("a reader's own change")
    first["name"] = "changed"
    third = parse_toml(Problems(), "nationalities/de.toml", NATION)
    assert third == second and third["roster"][0]["weapons"] == ["MG 42", "Kar98k"]


def test_a_file_too_deep_is_refused_each_time_it_is_read():
    deep = b"x = " + b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1) + b"\n"
    for _ in range(2):
        problems = Problems()
        assert parse_toml(problems, "rules.toml", deep) is None
        assert problems.lines == [f"rules.toml: tables or arrays nest too deep (at most {MAX_DEPTH} levels)"]


def test_a_bad_file_is_refused_each_time_and_a_long_one_read_whole():
    for _ in range(2):
        problems = Problems()
        assert parse_toml(problems, "rules.toml", b"number = \n") is None
        assert problems.lines and problems.lines[0].startswith("rules.toml: not valid TOML")
    rows = b"".join(b'[[roster]]\nyears = [1939, 1945]\n' for _ in range(KEPT_BYTES // 30))
    assert len(rows) > KEPT_BYTES
    table = parse_toml(Problems(), "nationalities/de.toml", rows)
    assert table is not None and len(table["roster"]) == KEPT_BYTES // 30
