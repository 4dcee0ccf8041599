"""`python -m tsjit` is the `tsjit` command."""

import sys

from .cli import main

sys.exit(main())
