"""``python -m discord_standin``: the stand-in in a process of its own (see `process`)."""

import sys

from .process import main

sys.exit(main())
