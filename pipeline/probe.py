"""A game's video opened in a child process with a time limit, before a tournament queues its audit.

Why a child: a damaged or endless file can keep the demuxer reading for ever (the frame table is read packet by
packet), and a thread cannot be stopped; a process can. One bad video then costs its game, never the others.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from contract.errors import StopframeError
from contract.i18n import _

PROBE_SECONDS = 60  # a sound hour-long phone video opens in about a second here


def probe_video(path: str | os.PathLike[str], seconds: float = PROBE_SECONDS) -> str | None:
    """None when the video opens and states its frames within `seconds`; else one sentence saying why not."""
    try:
        done = subprocess.run([sys.executable, "-m", "pipeline.probe", str(path)], capture_output=True, text=True,
                              timeout=seconds, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    except subprocess.TimeoutExpired:  # run() kills the child before raising
        return _("{path}: the video did not open within {seconds} s (a damaged file, or not a video); its game is "
                 "left out of this run.", path=path, seconds=f"{seconds:g}")
    if done.returncode == 0:
        return None
    said = [line for line in done.stderr.splitlines() if line.strip()]
    return said[-1] if said else _("{path}: the video cannot be opened.", path=path)


def probe_videos(paths: Mapping[str, Path], jobs: int, seconds: float = PROBE_SECONDS) -> dict[str, str]:
    """Each named video probed, `jobs` at a time; the names whose video failed, with the sentence why."""
    names: Iterable[str] = list(paths)
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        said = dict(zip(names, pool.map(lambda n: probe_video(paths[n], seconds), names), strict=True))
    return {name: why for name, why in said.items() if why is not None}


def _main(argv: list[str]) -> int:
    from vision.video import open_video

    try:
        with open_video(argv[0], threads=False) as video:
            print(video.meta.frame_count)
    except StopframeError as exc:
        print(exc, file=sys.stderr)
        return 2
    except Exception as exc:  # noqa: BLE001  (whatever the decoder raises, the judge reads one sentence)
        print(_("{path}: cannot be read as a video ({why}).", path=argv[0], why=type(exc).__name__), file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
