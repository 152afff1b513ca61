import os
import sys
from pathlib import Path

from hypothesis import settings

sys.path.insert(0, str(Path(__file__).parent))

# CI runs the property tests derandomized (same examples every run); locally they explore.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

# the monitor's browser and page fixtures (Playwright is imported only by a test that uses them)
pytest_plugins = ("monitor_support",)
