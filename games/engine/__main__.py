"""``python -m games.engine``: see ``cli.py``."""

import sys

from .cli import main

sys.exit(main())
