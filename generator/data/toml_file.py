"""Reading one TOML file of the data folder, turning every failure into a problem line."""

import tomllib


def read_toml(problems, data_dir, rel):
    path = data_dir / rel
    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        problems.add(rel, "", "file not found")
    except tomllib.TOMLDecodeError as error:
        problems.add(rel, "", f"not valid TOML: {error}")
    except (OSError, UnicodeDecodeError) as error:
        problems.add(rel, "", f"cannot be read: {error}")
    return None
