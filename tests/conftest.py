import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


BROWSER_TESTS = ROOT / "tests" / "browser"


def pytest_collection_modifyitems(config, items):
    """Every test under tests/browser drives a real Chromium: mark it so `-m "not browser"`
    leaves them out."""
    import pytest

    for item in items:
        if BROWSER_TESTS in Path(item.fspath).parents:
            item.add_marker(pytest.mark.browser)
