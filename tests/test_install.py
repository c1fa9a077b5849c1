"""A judge installs Stopframe from its wheel, with no checkout: the wheel is built from a copy of this tree,
installed into a fresh virtual environment, and run from a folder outside the repository.

The environment sees this machine's packages (--system-site-packages) and the wheel goes in with --no-deps:
the dependencies are those already installed, so the test needs no download beyond the build's own tools.
Nothing is written into the checkout (the build runs on a copy; `git status` is compared before and after).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from pipeline.audit import audit_game
from review.audit.findings import AuditReport

REPO = Path(__file__).resolve().parents[1]
GAME = REPO / "sample_videos" / "game" / "sample_game"
# What the product reads at run time besides its code: each must be in the wheel.
PACKAGED = [
    "contract/locale/ru/LC_MESSAGES/stopframe.po", "contract/locale/en/LC_MESSAGES/stopframe.po",
    "vision/models/hand_landmarker.task", "vision/models/hand_landmarker_lite.task",
    "vision/models/face_detection_full_range_sparse.tflite", "vision/models/models.json",
    "vision/models/thumb_svm.npz", "vision/models/thumb_svm.json",
    "review/game/clause_sentences.json", "review/audit/confidence.json",
    "stopframe_app/strip/index.html", "stopframe_app/entry/app.py",
    *(f"sample_videos/game/sample_game{ext}" for ext in (".mp4", ".protocol.json", ".seats.json", ".observations.json",
                                                         ".truth.json")),
    "sample_videos/clips/day1_vote_findings.mp4", "sample_videos/clips/day1_vote_findings.truth.json",
]
LEFT_OUT = shutil.ignore_patterns(".git", "build", "dist", "*.egg-info", "__pycache__", ".venv", "out", ".pytest_cache",
                                  ".ruff_cache", ".hypothesis")


def _checkout_state() -> tuple[list[str], str | None]:
    """The checkout's top-level names (where setuptools would leave build/ and *.egg-info) and its
    `git status --porcelain` (None where this tree is no git checkout)."""
    names = sorted(p.name for p in REPO.iterdir())
    if shutil.which("git") is None:
        return names, None
    done = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=REPO, capture_output=True,
                          text=True)
    return names, done.stdout if done.returncode == 0 else None


def _run(cmd: list[str | Path], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert "Traceback" not in done.stdout + done.stderr, done.stderr[-3000:]
    return done


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, str]]:
    """(the environment's python, a work folder outside the repository, the environment to run it in), with the
    wheel built from a copy of this tree installed; the checkout checked unchanged by the build."""
    before = _checkout_state()
    root = tmp_path_factory.mktemp("install")
    source, wheels = root / "source", root / "wheels"
    shutil.copytree(REPO, source, ignore=LEFT_OUT)
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(source)],
                           capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr[-3000:]
    [wheel] = wheels.glob("stopframe-*-py3-none-any.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    assert [p for p in PACKAGED if p not in names] == []
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", str(venv)], check=True)
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}  # nothing from the checkout
    env.update(STOPFRAME_DATA=str(root / "data"), STOPFRAME_LANG="en")
    # pip from the system's packages, run by the environment's python, installs into the environment
    done = _run([python, "-m", "pip", "install", "-q", "--no-deps", "--force-reinstall", wheel], root, env)
    assert done.returncode == 0, done.stderr[-3000:]
    assert _checkout_state() == before
    work = root / "work"
    work.mkdir()
    return python, work, env


@pytest.mark.slow
def test_the_installed_package_runs_from_the_environment_not_the_checkout(installed) -> None:
    python, work, env = installed
    done = _run([python, "-c", "import stopframe_cli, stopframe_app, sample_videos, vision; "
                 "print(stopframe_cli.__file__, stopframe_app.__file__, sample_videos.__file__, vision.__file__)"],
                work, env)
    venv = python.parent.parent.resolve()
    assert all(Path(f).resolve().is_relative_to(venv) for f in done.stdout.split())


@pytest.mark.slow
def test_stopframe_app_answers_in_english_and_russian(installed) -> None:
    python, work, env = installed
    stopframe = python.with_name("stopframe.exe" if os.name == "nt" else "stopframe")
    english = _run([stopframe, "app", "--help"], work, env)
    assert english.returncode == 0 and "GAME" in english.stdout and "--port" in english.stdout
    russian = _run([stopframe, "--lang", "ru", "app", "--help"], work, env)
    assert russian.returncode == 0 and re.search("[а-яё]{4}", russian.stdout) and "учебн" in russian.stdout


@pytest.mark.slow
def test_the_packaged_sample_game_is_audited_as_the_checkouts(installed) -> None:
    python, work, env = installed
    where = _run([python, "-c", "import pathlib, sample_videos; print(pathlib.Path(sample_videos.__file__).parent)"],
                 work, env)
    game = Path(where.stdout.strip()) / "game" / "sample_game"
    out = work / "sample_game.audit.json"
    stopframe = python.with_name("stopframe.exe" if os.name == "nt" else "stopframe")
    done = _run([stopframe, "audit", f"{game}.mp4", "--protocol", f"{game}.protocol.json", "--seats", f"{game}.seats.json",
                 "--observations", f"{game}.observations.json", "--out", out], work, env)
    assert done.returncode == 0, done.stderr[-2000:]
    data = json.loads(out.read_text(encoding="utf-8"))
    report = AuditReport.from_json(data, out)  # a stopframe-audit/1 report, as `stopframe correct` reads it
    here = audit_game(protocol=f"{GAME}.protocol.json", seats=f"{GAME}.seats.json", video=f"{GAME}.mp4",
                      observations=f"{GAME}.observations.json")
    assert report.findings and data["findings"] == here.to_json()["findings"]
    assert data["votes"] == here.to_json()["votes"]


@pytest.mark.slow
def test_the_installed_app_opens_its_own_sample_game(installed) -> None:
    python, work, env = installed
    script = ("import json, stopframe_cli.app as app\n"
              "from streamlit.testing.v1 import AppTest\n"
              "at = AppTest.from_file(str(app.app_script()), default_timeout=90).run()\n"
              "print(json.dumps({'errors': [e.value for e in at.error] + [str(e.value) for e in at.exception],\n"
              "                  'protocol': at.session_state['game_spec'].protocol}))\n")
    done = _run([python, "-c", script], work, env)
    assert done.returncode == 0, done.stderr[-2000:]
    opened = json.loads(done.stdout.strip().splitlines()[-1])
    assert opened["errors"] == []
    assert Path(opened["protocol"]).name == "sample_game.protocol.json"
    assert Path(opened["protocol"]).resolve().is_relative_to(python.parent.parent.resolve())
