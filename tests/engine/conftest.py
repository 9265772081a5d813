"""Engine tests need no database: make the repository and this folder importable.

`tests/engine/boards.py` holds the hand-made boards; the engine is `campaigns.engine`.
Both paths are added here so that `pytest tests/engine -p no:django` works before (and
without) any Django settings.
"""

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
for _path in (_HERE.parents[1], _HERE):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))
