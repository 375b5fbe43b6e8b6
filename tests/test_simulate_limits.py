"""`bailout simulate N` draws at most MAX_TRIALS bail-outs: more is refused at once, in one line
naming the limit, before a card is drawn (a mistyped N of twelve digits would otherwise run for
days)."""

import time

import pytest

from conftest import run_cli
from generator.engine.simulate import MAX_TRIALS


@pytest.mark.parametrize("n", [MAX_TRIALS + 1, 10 ** 12, 10 ** 20])
def test_more_trials_than_the_limit_are_refused_at_once(n):
    started = time.monotonic()
    status, out, err = run_cli("simulate", str(n))
    assert status == 2 and out == "" and time.monotonic() - started < 5
    assert err.count("\n") == 1 and f"from 1 to {MAX_TRIALS:,}" in err and "Traceback" not in err
