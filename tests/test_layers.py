"""The layers hold: `lint-imports` keeps the contracts in pyproject.toml, and those contracts
catch what they forbid — vision reaching into review, even from inside a function."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

from importlinter.cli import lint_imports

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("stopframe_app", "stopframe_cli", "pipeline", "review", "review.game", "review.audit", "review.cases",
            "vision", "contract")


def test_the_project_keeps_its_import_contracts() -> None:
    assert lint_imports(config_filename=str(REPO / "pyproject.toml"), no_cache=True, no_logo=True) == 0


def _toy_project(root: Path, *, vision_body: str) -> Path:
    """The project's import contracts over empty stand-ins of its packages, one with `vision_body`."""
    root.mkdir(parents=True)
    for name in PACKAGES:
        folder = root.joinpath(*name.split("."))
        folder.mkdir()
        (folder / "__init__.py").write_text("")
    (root / "review" / "rules.py").write_text("RULE = 1\n")
    (root / "vision" / "look.py").write_text(vision_body)
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    lines = ["[tool.importlinter]", f"root_packages = {list(config['root_packages'])!r}".replace("'", '"'),
             "include_external_packages = true"]
    for contract in config["contracts"]:
        lines.append("[[tool.importlinter.contracts]]")
        lines += [f"{k} = {v!r}".replace("'", '"') for k, v in contract.items()]
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
