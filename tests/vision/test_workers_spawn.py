"""The vision workers started as Windows and macOS start them (spawn) give the same audit as forked ones.

Each run is `stopframe audit` in a fresh process, its vote windows on two workers whatever this machine's cores;
$STOPFRAME_START_METHOD chooses how they start, and the run records the way they were actually started.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CLIP = REPO / "sample_videos" / "clips" / "day2_tie_revote_lift"  # a vote, a tie and a revote: three stretches

# The audit through the command line's own entry, with the windows shared out over two workers and every
# start method used written down. Guarded by __main__: a spawned worker imports this file again.
RUN = '''
import json, sys
import vision.observe as observe
from vision.workers import start_method
from stopframe_cli.main import main

used = []
shared_out = observe.run_parallel

def recorded(*args, **kwargs):
    used.append(start_method())
    return shared_out(*args, **kwargs)

if __name__ == "__main__":
    observe.run_parallel = recorded
    observe.default_jobs = lambda: 2
    code = main(sys.argv[2:])
    with open(sys.argv[1], "w") as fh:
        json.dump({"code": code, "used": used}, fh)
'''


def _audit(tmp_path: Path, method: str) -> tuple[dict, dict]:
    script = tmp_path / "run_audit.py"
    script.write_text(RUN, encoding="utf-8")
    report, record = tmp_path / f"{method}.audit.json", tmp_path / f"{method}.run.json"
    env = {**os.environ, "STOPFRAME_START_METHOD": method, "PYTHONPATH": str(REPO), "STOPFRAME_DATA": str(tmp_path)}
    done = subprocess.run([sys.executable, str(script), str(record), "audit", f"{CLIP}.mp4", "--protocol",
                           f"{CLIP}.protocol.json", "--seats", f"{CLIP}.seats.json", "--out", str(report)],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(record.read_text()), json.loads(report.read_text())


@pytest.mark.slow
def test_spawned_workers_give_the_forked_workers_audit(tmp_path: Path) -> None:
    forked_run, forked = _audit(tmp_path, "fork")
    spawned_run, spawned = _audit(tmp_path, "spawn")
    assert forked_run == {"code": 0, "used": ["fork"]}
    assert spawned_run == {"code": 0, "used": ["spawn"]}
    seen = [v for v in forked["votes"] if v.get("video_voters")]
    assert len(seen) >= 4  # the tie and its revote were watched: the comparison has voters to compare
    assert spawned == forked  # the same voters, counts, confidences and findings


def test_an_unknown_start_method_is_refused_in_one_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    from contract.errors import UnreadableInput
    from vision.workers import start_method

    monkeypatch.setenv("STOPFRAME_START_METHOD", "thread")
    with pytest.raises(UnreadableInput, match="STOPFRAME_START_METHOD=thread"):
        start_method()
    monkeypatch.setenv("STOPFRAME_START_METHOD", "spawn")
    assert start_method() == "spawn"
