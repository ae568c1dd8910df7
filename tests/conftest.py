"""Shared set-up of the test suite."""

import signal

# A non-interactive shell starts background jobs with SIGINT ignored, and children inherit that:
# the Ctrl-C tests (`_thread.interrupt_main`, a pexpect child's ^C) need Python's own handler, as
# at a terminal, however the suite was started.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
