"""``python -m prtheory`` is the ``prtheory`` command."""

import sys

from prtheory.cli import main

if __name__ == "__main__":  # importing the module (as the API reference does) runs nothing
    sys.exit(main())
