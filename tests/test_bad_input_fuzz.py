"""Property tests for game files from other systems: a Polemica or mafiaratings file edited at random gives a
protocol or a clean StopframeError, never a traceback, a hang, or a protocol the validator chokes on.

The small derandomised `ci` profile runs in CI; `HYPOTHESIS_PROFILE=fuzz` runs 10 000 examples per property.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from jsonwalk import locations

from contract.errors import StopframeError
from review.game.importers import _SourceError, convert, import_file
from review.game.protocol import format_problems, validate

FIXTURES = Path(__file__).parent / "fixtures" / "import"
SOURCES = {name: json.loads((FIXTURES / f"{name}_game.json").read_text(encoding="utf-8"))
           for name in ("polemica", "mafiaratings")}

# Values a hand-edited or hostile file holds: off-by-one seats and days, huge and negative numbers, wrong types.
scalars = (st.none() | st.booleans() | st.integers(-2, 12) | st.sampled_from([10**9, -(10**9), 10**30])
           | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=8)
           | st.sampled_from(["round_0", "round_99", "RED_WIN", "civ", "maf", "day", "kick-out", "don"]))
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.text(max_size=8) | st.sampled_from(["round_0", "round_1", "day"]),
                                             inner, max_size=3), max_leaves=6)




@st.composite
def mutated_games(draw: st.DrawFn) -> tuple[str, Any]:
    """One of the two fixture games with one to three random edits (replace, delete, add a key)."""
    source = draw(st.sampled_from(sorted(SOURCES)))
    data: Any = copy.deepcopy(SOURCES[source])
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(locations(data)))
        if not path:
            continue
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        op = draw(st.sampled_from(["replace", "delete", "add"]))
        if op == "delete":
            del parent[path[-1]]
        elif op == "add" and isinstance(parent, dict):
            parent[draw(st.text(max_size=8) | st.sampled_from(["round_5", "guess", "death_round", "warnings"]))] = \
                draw(json_values)
        else:
            parent[path[-1]] = draw(json_values)
    return source, data


def _import_cleanly(source: str, data: Any) -> None:
    try:
        protocol = convert(source, data)
    except (StopframeError, _SourceError) as exc:  # import_file turns _SourceError into InvalidInput
        assert str(exc) and "\n" not in str(exc)
        return
    problems = format_problems(protocol)
    if not problems:
        validate(protocol)  # the engine replays what the importer built without a traceback


@given(mutated_games())
def test_edited_game_file_imports_or_is_refused_in_one_sentence(game: tuple[str, Any]) -> None:
    source, data = game
    _import_cleanly(source, data)


@given(mutated_games(), st.sampled_from(["polemica", "mafiaratings"]))
def test_any_file_under_either_importer_is_a_protocol_or_a_sentence_naming_it(tmp_path_factory, game, source) -> None:
    path = tmp_path_factory.mktemp("imp") / "game.json"
    path.write_text(json.dumps(game[1]), encoding="utf-8")
    try:
        import_file(source, path)
    except StopframeError as exc:
        assert str(exc).startswith(str(path)) and "\n" not in str(exc)
