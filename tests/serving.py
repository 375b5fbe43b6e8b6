"""`bailout serve` in a real process, for tests/test_serve.py and benchmarks/bench_serve.py."""

import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CREDIT = 'credit = "Tom Cundiff"'


class Served:
    """A project folder (data/ and templates/ copied) with `bailout serve` running in it."""

    def __init__(self, folder: Path, *args: str) -> None:
        shutil.copytree(ROOT / "data", folder / "data")
        shutil.copytree(ROOT / "templates", folder / "templates")
        self.folder, self.rules = folder, folder / "data" / "rules.toml"
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen([sys.executable, "-m", "generator", "serve", "--paper", "a4", *args],
                                        cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        line = self.process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if not match:
            self.process.kill()
            raise AssertionError(f"no serving line: {line!r} {self.process.stderr.read()}")
        self.url = match.group(0)

    def get(self, path: str) -> tuple[int, bytes]:
        try:
            with urllib.request.urlopen(self.url + path.lstrip("/"), timeout=30) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            return error.code, b""

    def set_credit(self, text: str) -> None:
        """Save rules.toml with the variant's credit (printed under the aid's title) as `text`."""
        content = (ROOT / "data" / "rules.toml").read_text().replace(CREDIT, f'credit = "{text}"')
        self.rules.write_text(content)

    def break_data(self) -> None:
        self.rules.write_text((ROOT / "data" / "rules.toml").read_text().replace(CREDIT, "credit = 7"))

    def stop(self) -> tuple[int, str]:
        """Ctrl-C: (exit status, stderr)."""
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        return self.process.returncode, self.process.stderr.read()


def wait_for(check, timeout: float = 20.0, step: float = 0.02):
    """The first true value of check() within `timeout` seconds, else an AssertionError."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = check()
        if value:
            return value
        time.sleep(step)
    raise AssertionError("timed out")


CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run")


class Unavailable(Exception):
    """Chromium, chromedriver or selenium is missing; the message says which."""


def chromium(profile: Path):
    """A headless Debian Chromium driven by selenium (never a downloaded driver), its console log
    kept (the browser tests read it)."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        raise Unavailable("selenium is not installed (pip install -e '.[test]')") from None
    for path in (CHROMIUM, CHROMEDRIVER):
        if not path.exists():
            raise Unavailable(f"{path} is missing (apt-get install chromium chromium-driver)")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)


def shown(driver, text: str) -> bool:
    """Whether the open page's body holds `text` (False while it is reloading); a no-break space
    (the aid ties a number to its word) reads as a space."""
    try:
        return bool(driver.execute_script("return !!document.body && "
                                          "document.body.innerText.replace(/\u00a0/g, ' ').includes(arguments[0])",
                                          text))
    except Exception:       # the page is between two documents
        return False


def has_problems(driver) -> bool:
    try:
        return bool(driver.execute_script("return !!document.getElementById('bailout-problems')"))
    except Exception:
        return False
