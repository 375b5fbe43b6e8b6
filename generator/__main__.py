"""`python -m generator`: the same as the `bailout` command."""

import sys

from .cli import main

sys.exit(main())
