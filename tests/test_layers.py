"""The layers hold: `lint-imports` keeps the contracts in pyproject.toml, and those contracts
catch what they forbid — vision reaching into review, even from inside a function; the app or the command
line calling the audit or vision's observation around the pipeline; two modules of a package importing each
other."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

from importlinter.cli import lint_imports

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("stopframe_app", "stopframe_cli", "pipeline", "review", "review.game", "review.audit", "review.cases",
            "vision", "contract", "sample_videos")


def test_the_project_keeps_its_import_contracts() -> None:
    assert lint_imports(config_filename=str(REPO / "pyproject.toml"), no_cache=True, no_logo=True) == 0


def _contracts() -> tuple[list[str], list[dict]]:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    return list(config["root_packages"]), list(config["contracts"])


def _toy_project(root: Path, *, vision_body: str = "import contract\n", app_body: str = "import pipeline\n",
                 pipeline_modules: dict[str, str] | None = None) -> Path:
    """The project's import contracts over empty stand-ins of its packages and of every module a contract names,
    with `vision.look`, `stopframe_app.page` and the pipeline's modules holding the given bodies."""
    roots, contracts = _contracts()
    named = {m for c in contracts for key in ("source_modules", "forbidden_modules") for m in c.get(key, [])
             if m.split(".")[0] in roots}
    root.mkdir(parents=True)
    for name in PACKAGES:
        folder = root.joinpath(*name.split("."))
        folder.mkdir()
        (folder / "__init__.py").write_text("")
    for name in sorted(named - set(PACKAGES)):
        root.joinpath(*name.split(".")).with_suffix(".py").write_text("")
    (root / "review" / "rules.py").write_text("RULE = 1\n")
    (root / "vision" / "look.py").write_text(vision_body)
    (root / "stopframe_app" / "page.py").write_text(app_body)
    for name, body in (pipeline_modules or {}).items():
        (root / "pipeline" / f"{name}.py").write_text(body)
    lines = ["[tool.importlinter]", f"root_packages = {json.dumps(roots)}", "include_external_packages = true"]
    for contract in contracts:
        lines.append("[[tool.importlinter.contracts]]")
        lines += [f"{k} = {json.dumps(v)}" for k, v in contract.items()]
    (root / "pyproject.toml").write_text("\n".join(lines) + "\n")
    return root


def _lint(root: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run([sys.executable, "-c", "import sys; from importlinter.cli import lint_imports; "
                           "sys.exit(lint_imports(config_filename='pyproject.toml', no_cache=True, no_logo=True))"],
                          cwd=root, env=env, capture_output=True, text=True, timeout=120)


def test_the_contracts_refuse_vision_importing_review_even_inside_a_function(tmp_path: Path) -> None:
    clean = _lint(_toy_project(tmp_path / "clean", vision_body="import contract\n"))
    assert clean.returncode == 0, clean.stdout + clean.stderr
    broken = _lint(_toy_project(tmp_path / "broken", vision_body="def look():\n    from review.rules import RULE\n    return RULE\n"))
    assert broken.returncode == 1, broken.stdout + broken.stderr
    assert "review and vision are independent" in broken.stdout and "BROKEN" in broken.stdout


def test_the_contracts_keep_the_app_and_the_command_line_to_the_pipelines_door(tmp_path: Path) -> None:
    broken = _lint(_toy_project(tmp_path / "around", app_body="def run():\n    from review.audit.audit import audit\n"))
    assert broken.returncode == 1, broken.stdout + broken.stderr
    assert "through the" in broken.stdout and "stopframe_app.page -> review.audit.audit" in broken.stdout


def test_the_contracts_refuse_an_import_cycle_inside_a_package(tmp_path: Path) -> None:
    clean = _lint(_toy_project(tmp_path / "one_way", pipeline_modules={"a": "import pipeline.b\n", "b": ""}))
    assert clean.returncode == 0, clean.stdout + clean.stderr
    broken = _lint(_toy_project(tmp_path / "circle", pipeline_modules={
        "a": "import pipeline.b\n", "b": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pipeline.a\n"}))
    assert broken.returncode == 1, broken.stdout + broken.stderr
    assert "no import cycles" in broken.stdout and "No cycles are allowed in pipeline" in broken.stdout
