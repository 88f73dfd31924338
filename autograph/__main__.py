"""`python -m autograph ...` runs the `autograph` command line (see autograph/cli/)."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
