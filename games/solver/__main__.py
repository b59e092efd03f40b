"""``python -m games.solver``: see ``cli.py``."""

import sys

from .cli import main

sys.exit(main())
