"""`bailout build | release | check | crew | diff | odds | simulate | init`.

Imports stay lazy so `bailout --help` answers at once: reportlab loads only to build.
Every user-fixable problem ends as a message on stderr and exit status 2, never a traceback.
"""

import os
import signal
import sys
from collections.abc import Sequence
from typing import NoReturn

from generator.cli.commands import COMMANDS
from generator.cli.parser import parse, parser

__all__ = ["main", "parser", "run"]    # parser: the one tests and shell completion read
from generator.errors import KitError


def main(argv: Sequence[str] | None = None) -> int:
    """`bailout ARGV...` (default: the process's arguments); returns the exit status."""
    args = parse(argv)
    try:
        if "config" in args:        # bailout.toml: the options it names, where the command line gave none
            from generator.cli.project import with_project
            args = with_project(argv, args)
            args.argv = list(argv) if argv is not None else sys.argv[1:]    # serve reads the file again
        if "data" in args:
            from generator.data.sources import data_folder, template_folder
            given = args.data
            args.data = data_folder(args.data)
            if "templates" in args:     # X/templates beside --data X/data (issue 20)
                args.templates = template_folder(given, args.templates)
        status = COMMANDS[args.command or "help"](args) or 0
        sys.stdout.flush()      # a closed pipe shows here, not at exit
        return status
    except KitError as error:
        for line in error.problems:
            print(f"bailout: {line}", file=sys.stderr)
        return 2
    except BrokenPipeError:     # `bailout odds | head`: the reader has what it wanted
        # Python would report the pipe again when it flushes stdout at exit: point it at nothing.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 128 + int(getattr(signal, "SIGPIPE", 13))     # Windows has no SIGPIPE: the POSIX number
    except KeyboardInterrupt as interrupt:     # Ctrl-C, or SIGTERM during a build
        print(f"bailout: interrupted; {str(interrupt) or 'earlier outputs are untouched'}", file=sys.stderr)
        return getattr(interrupt, "status", 130)


def run() -> NoReturn:
    """The `bailout` command and `python -m generator`: main(), then leave at once.

    A build holds reportlab, platypus, pypdf and Jinja2; tearing their modules down at exit
    (some 60,000 objects freed one by one, the collector run over them again) was 70 ms of a
    0.8 s build (issue 24).  By the time main() returns every file is written and closed, the
    lock released and every lane reaped, so the exit handlers run (the temporary folders of a
    zipped install or `serve` go), both streams are flushed, and the process ends with main's
    status.  Only the console command does this: tests call main() in their own process."""
    status = main()
    try:
        sys.stdout.flush()
    except BrokenPipeError:         # the reader left after main's own flush
        status = status or 128 + int(getattr(signal, "SIGPIPE", 13))
    run_exit_handlers = getattr(__import__("atexit"), "_run_exitfuncs", None)
    # The ordinary, slower exit for an interpreter without it, and under a profiler, a tracer or
    # coverage (`python -m cProfile -m generator build` prints its table at that exit).
    if run_exit_handlers is None or sys.getprofile() is not None or sys.gettrace() is not None:
        sys.exit(status)
    run_exit_handlers()
    try:
        sys.stderr.flush()
    except OSError:
        pass
    os._exit(status)
