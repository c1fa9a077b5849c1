"""House rules the code keeps: no function of the product runs longer than 80 lines (from its `def` to its last
line, docstring included), so that each one can be read whole and its parts carry names."""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PRODUCT = ("contract", "review", "pipeline", "vision", "stopframe_app", "stopframe_cli")
LONGEST = 80


def long_functions(source: str, path: str, longest: int = LONGEST) -> list[str]:
    """`path:line name (N lines)` for every function of `source`, nested ones too, longer than `longest` lines."""
    found = []
    for node in ast.walk(ast.parse(source, filename=path)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            lines = (node.end_lineno or node.lineno) - node.lineno + 1
            if lines > longest:
                found.append(f"{path}:{node.lineno} {node.name} ({lines} lines)")
    return found


def test_no_product_function_is_longer_than_80_lines() -> None:
    offenders = []
    for package in PRODUCT:
        for module in sorted((REPO / package).rglob("*.py")):
            offenders += long_functions(module.read_text(encoding="utf-8"), str(module.relative_to(REPO)))
    assert not offenders, "functions longer than 80 lines:\n" + "\n".join(offenders)


def test_the_scan_finds_a_long_function_nested_or_async() -> None:
    def lines(n: int, indent: str) -> str:
        return "".join(f"{indent}x{i} = {i}\n" for i in range(n))

    source = ("def short():\n" + lines(79, "    ")  # 80 lines from `def` to its last: allowed
              + "\nasync def outer():\n    def inner():\n" + lines(81, "        ") + "    return inner\n")
    assert long_functions(source, "m.py") == ["m.py:82 outer (84 lines)", "m.py:83 inner (82 lines)"]
