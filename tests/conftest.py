"""Shared test settings: hypothesis profiles, English words, a data folder of the run's own.

The suite reads Stopframe's English (its assertions quote English words): STOPFRAME_LANG=en is set at
import, before any test or subprocess starts; the tests of the Russian catalogue choose ru themselves.

`ci` (the default) is small and derandomised so CI is fast and repeatable; `fuzz` is the long run that
bench/fuzz_protocol.py starts with HYPOTHESIS_PROFILE=fuzz.
"""

import atexit
import os
import shutil
import tempfile

from hypothesis import HealthCheck, settings
from hypothesis.configuration import set_hypothesis_home_dir


def _scratch(prefix: str) -> str:
    """A temporary folder removed when this test process ends, so runs leave nothing behind in /tmp either."""
    path = tempfile.mkdtemp(prefix=prefix)
    atexit.register(shutil.rmtree, path, True)
    return path


# The tests leave nothing in the checkout: hypothesis keeps its own files in a temporary folder.
set_hypothesis_home_dir(_scratch("stopframe-hypothesis-"))

os.environ["STOPFRAME_LANG"] = "en"
# ... and Stopframe's data folder (the app's store, the record of the files the command line wrote) is one too.
os.environ["STOPFRAME_DATA"] = _scratch("stopframe-data-")

settings.register_profile("ci", derandomize=True, max_examples=100, deadline=None, database=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("fuzz", max_examples=10_000, deadline=None, database=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
