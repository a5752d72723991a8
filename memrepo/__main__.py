from __future__ import annotations

import sys

from memrepo.cli import main

sys.exit(main())
