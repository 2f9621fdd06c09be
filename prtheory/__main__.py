"""``python -m prtheory`` is the ``prtheory`` command."""

import sys

from prtheory.cli import main

sys.exit(main())
