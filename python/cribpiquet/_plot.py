"""The optional plotting dependency: ``pip install 'cribpiquet[plot]'``."""

from __future__ import annotations

import os
import sys
from typing import Any

INSTALL_HINT = "matplotlib is needed for plots: pip install 'cribpiquet[plot]'"


def require_matplotlib() -> Any:
    """``matplotlib.pyplot``, on the Agg backend when there is no display; without matplotlib an
    ImportError with one line saying how to install it."""
    try:
        import matplotlib
    except ImportError:
        raise ImportError(INSTALL_HINT) from None
    headless = sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    if headless and "MPLBACKEND" not in os.environ and "matplotlib.pyplot" not in sys.modules:
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt
