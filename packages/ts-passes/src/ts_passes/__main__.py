"""`python -m ts_passes`: the `ts-opt` command."""

import sys

from .cli import main

sys.exit(main())
