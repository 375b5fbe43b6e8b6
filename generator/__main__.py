"""`python -m generator`: the same as the `bailout` command."""

import sys

from generator.cli import main

sys.exit(main())
