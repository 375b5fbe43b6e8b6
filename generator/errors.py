"""One error hierarchy: anything a user can fix ends as a message and exit status 2."""


class KitError(Exception):
    """A problem the user can fix; `problems` holds one line per problem."""

    def __init__(self, problems):
        if isinstance(problems, str):
            problems = [problems]
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


class DataError(KitError):
    """data/ is malformed or inconsistent."""


class UsageError(KitError):
    """A command-line argument or option is wrong."""


class RenderError(KitError):
    """The data is valid but cannot be printed (e.g. text that cannot fit)."""
