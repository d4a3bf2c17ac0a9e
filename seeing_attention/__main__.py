"""python -m seeing_attention: the seeing-attention command."""

import sys

from .cli import main

sys.exit(main())
