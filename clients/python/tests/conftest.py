"""The package's tests run against this source tree (not a copy installed elsewhere)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
