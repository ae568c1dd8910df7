"""What the Ctrl-C tests share: a call interrupted from outside, and how long it took to stop."""

from __future__ import annotations

import _thread
import threading
import time

import pytest


def interrupted_after(call, delay=0.5):
    """Run `call` with a Ctrl-C (``_thread.interrupt_main``) after `delay` seconds; return the
    seconds from the interrupt to the ``KeyboardInterrupt`` (a failure if it is not raised)."""
    fired: list[float] = []

    def fire():
        fired.append(time.monotonic())
        _thread.interrupt_main()

    timer = threading.Timer(delay, fire)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            call()
        return time.monotonic() - fired[0]
    finally:
        timer.cancel()
