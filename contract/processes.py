"""Worker processes that die with the run that started them.

Why: a tournament or an audit killed mid-way (Ctrl-C, SIGTERM, even SIGKILL) must leave no worker decoding
video for nobody. Every pool that Stopframe starts (a tournament's games, a game's vision windows) starts its
workers with `die_with_parent`.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

PR_SET_PDEATHSIG = 1  # linux/prctl.h


def die_with_parent(parent: int) -> None:
    """A pool worker's start: on Linux the kernel kills it when the run that started it dies, even by SIGKILL;
    where that cannot be asked, nothing."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            return
    try:
        os.kill(parent, 0)
    except ProcessLookupError:  # the run died before the line above took effect
        os._exit(1)
