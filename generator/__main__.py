"""`python -m generator`: the same as the `bailout` command."""

from generator.cli import run

run()
