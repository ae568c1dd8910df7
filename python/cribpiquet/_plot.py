"""Optional plotting support (the ``plot`` extra: ``pip install 'cribpiquet[plot]'``)."""

from __future__ import annotations

import os
import sys
from typing import Any

INSTALL_HINT = "pip install 'cribpiquet[plot]'"


def require_matplotlib() -> Any:
    """Import matplotlib (the headless Agg backend when there is no display) and return it.

    Without matplotlib: ``ImportError`` whose message is one line saying how to install it.
    """
    try:
        import matplotlib
    except ImportError:
        raise ImportError(f"plotting needs matplotlib: {INSTALL_HINT}") from None
    headless = sys.platform.startswith("linux") and not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY")
    if headless and "matplotlib.pyplot" not in sys.modules and not os.environ.get("MPLBACKEND"):
        matplotlib.use("Agg")
    return matplotlib
