"""`python -m stopframe_cli …`: the same as the `stopframe` console script."""

import sys

from stopframe_cli.main import main

sys.exit(main())
