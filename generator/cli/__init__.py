"""`bailout build | release | check | crew | diff | odds | simulate | init`.

Imports stay lazy so `bailout --help` answers at once: reportlab loads only to build, and this
module loads nothing but `sys` before run() starts (not even `typing`: its annotations are
builtins), so Ctrl-C while the rest loads is caught there like any other.
Every user-fixable problem ends as a message on stderr and exit status 2, never a traceback;
Ctrl-C, SIGTERM and SIGHUP end a command as one line and the status the signal gives (130, 143,
129), every temporary and staging folder removed on the way out.
"""

import sys

__all__ = ["main", "run"]


def main(argv: list[str] | None = None) -> int:
    """`bailout ARGV...` (default: the process's arguments); returns the exit status."""
    from generator.errors import KitError
    from generator.signals import ended_as_interrupt
    try:
        with ended_as_interrupt(command=True):
            return _command(argv)
    except KitError as error:
        for line in error.problems:
            print(f"bailout: {line}", file=sys.stderr)
        return 2
    except BrokenPipeError:     # `bailout odds | head`: the reader has what it wanted
        return _reader_gone()
    except KeyboardInterrupt as interrupt:     # Ctrl-C, SIGTERM or SIGHUP
        print(f"bailout: interrupted; {str(interrupt) or 'earlier outputs are untouched'}", file=sys.stderr)
        return getattr(interrupt, "status", 130)
    except MemoryError:         # one the command's own clean-up did not turn into a line of its own
        print("bailout: out of memory (the system, or a limit such as ulimit -v, refused more)", file=sys.stderr)
        return 2


def _command(argv: list[str] | None) -> int:
    """Parse `argv`, read the project file and run the command; its exit status."""
    from generator.cli.parser import parse
    args = parse(argv)
    from generator import cache
    cache.quiet = bool(getattr(args, "quiet", False))      # its note, that a cache folder is not used
    if "config" in args:        # bailout.toml: the options it names, where the command line gave none
        from generator.cli.project import with_project
        args = with_project(argv, args)
        args.argv = list(argv) if argv is not None else sys.argv[1:]    # serve reads the file again
    if "data" in args:
        from generator.data.sources import data_folder, template_folder
        given = args.data
        args.data = data_folder(args.data)
        if "templates" in args:     # X/templates beside --data X/data
            args.templates = template_folder(given, args.templates)
    from generator.cli.commands import COMMANDS
    status = COMMANDS[args.command or "help"](args) or 0
    sys.stdout.flush()      # a closed pipe shows here, not at exit
    return status


def run() -> None:
    """The `bailout` command and `python -m generator`: main(), and its status as the process's.

    Every file is written and closed when main() returns; what is left in memory (reportlab,
    pypdf and Jinja2 loaded, a build's objects) is frozen out of the garbage collector's reach
    (gc.freeze) so the interpreter's exit frees it without first collecting over all of it.
    The collector passes seldom from the start (make/workers.py collect_seldom): the commands and
    what they import load after this line.  Ctrl-C before main() has set up (the kit's modules
    still loading) ends as it does in a command: one line, status 130."""
    try:
        import gc

        from generator.make.workers import collect_seldom
        collect_seldom()
        status = main()
        gc.freeze()
    except KeyboardInterrupt:
        print("bailout: interrupted; nothing was written", file=sys.stderr)
        status = 130
    try:
        sys.stdout.flush()
    except BrokenPipeError:         # the reader left after main's own flush
        gone = _reader_gone()
        status = status or gone
    sys.exit(status)        # never returns


def _reader_gone() -> int:
    """The status once stdout's reader has left.  Python would report the closed pipe again
    when it flushes stdout at exit: stdout now points at nothing."""
    import os
    import signal
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 128 + int(getattr(signal, "SIGPIPE", 13))     # Windows has no SIGPIPE: the POSIX number
