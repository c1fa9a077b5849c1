"""Property tests: a mutated protocol gives validation problems or a clean StopframeError, never a traceback.

Runs the small derandomised `ci` profile in CI; `HYPOTHESIS_PROFILE=fuzz` (bench/fuzz_protocol.py) runs 10 000
examples per property.
"""

from __future__ import annotations

import copy
import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from jsonwalk import locations

from contract.errors import StopframeError, UnreadableInput
from contract.jsonio import dumps
from review.game.problems import Problem
from review.game.protocol import EVENT_FIELDS, EVENT_TYPES, Protocol, load_protocol, save_protocol, validate

COMPLETE = Path(__file__).parents[1] / "fixtures" / "protocols" / "complete_rfm.protocol.json"
BASE: dict[str, Any] = json.loads(COMPLETE.read_text(encoding="utf-8"))

scalars = (st.none() | st.booleans() | st.integers(-3, 14) | st.integers() | st.text(max_size=6)
           | st.floats(allow_nan=True, allow_infinity=True))
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=6)
field_names = sorted({name for fields in EVENT_FIELDS.values() for name in fields} | {"t", "note", "x_extra"})
random_events = st.builds(
    lambda kind, fields: {"type": kind, **fields},
    st.sampled_from([*EVENT_TYPES, "applause"]),
    st.dictionaries(st.sampled_from(field_names), st.integers(-1, 12) | json_values, max_size=6),
)




def _parent(data: Any, path: tuple) -> Any:
    for key in path[:-1]:
        data = data[key]
    return data


def _json_path(path: tuple) -> str:
    out = ""
    for key in path:
        out += f"[{key}]" if isinstance(key, int) else (f".{key}" if out else key)
    return out


@st.composite
def mutated_protocols(draw: st.DrawFn) -> dict[str, Any]:
    """The complete game with one to three random edits anywhere in it."""
    data = copy.deepcopy(BASE)
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["replace", "delete", "insert_event", "duplicate_event", "swap_events"]))
        events = data.get("events") if isinstance(data, dict) else None
        if op in ("insert_event", "duplicate_event", "swap_events") and isinstance(events, list) and events:
            i = draw(st.integers(0, len(events) - 1))
            j = draw(st.integers(0, len(events)))
            if op == "insert_event":
                events.insert(j, draw(random_events))
            elif op == "duplicate_event":
                events.insert(j, copy.deepcopy(events[i]))
            else:
                j = min(j, len(events) - 1)
                events[i], events[j] = events[j], events[i]
            continue
        path = draw(st.sampled_from(locations(data)))
        if not path:
            data = draw(json_values)
            continue
        parent = _parent(data, path)
        if op == "delete":
            del parent[path[-1]]
        else:
            parent[path[-1]] = draw(json_values)
    return data


def _validate_cleanly(data: Any) -> list[Problem] | None:
    """validate(); None when it refused the data with a StopframeError. Any other exception fails the test."""
    try:
        problems = validate(Protocol(data) if isinstance(data, dict) else data)
    except StopframeError as exc:
        assert str(exc)
        return None
    assert isinstance(problems, list)
    for p in problems:
        assert isinstance(p, Problem) and isinstance(p.path, str) and p.message
    return problems


@given(mutated_protocols())
def test_mutated_protocol_gives_problems_or_a_clean_error_never_a_traceback(data):
    _validate_cleanly(data)


@given(mutated_protocols())
def test_mutated_protocol_survives_the_file_round_trip(data):
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = Path(tmp) / "in.protocol.json", Path(tmp) / "out.protocol.json"
        src.write_text(dumps(data), encoding="utf-8")
        try:
            protocol = load_protocol(src)
        except UnreadableInput as exc:
            assert str(exc).startswith(str(src))
            return
        _validate_cleanly(protocol)
        save_protocol(protocol, dst)
        assert dst.read_text(encoding="utf-8") == dumps(data)  # text, so NaN compares equal


SEAT_FIELDS = [(("players", i, "seat")) for i in range(10)] + [
    ("events", i, name)
    for i, event in enumerate(BASE["events"])
    for name in ("seat", "by", "target", "candidate")
    if isinstance(event.get(name), int)
]
REQUIRED = [("events", i, name) for i, event in enumerate(BASE["events"])
            for name, (_, required) in EVENT_FIELDS[event["type"]].items() if required]
BAD_SEATS = st.sampled_from([0, 11, -3, 100, "3", 3.5, True, [3], {"seat": 3}, None])


@given(st.sampled_from(SEAT_FIELDS), BAD_SEATS)
def test_a_bad_seat_anywhere_is_reported_at_its_path(where, bad):
    data = copy.deepcopy(BASE)
    _parent(data, where)[where[-1]] = bad
    problems = _validate_cleanly(data)
    assert problems is not None and _json_path(where) in [p.path for p in problems]


@given(st.sampled_from(REQUIRED))
def test_a_missing_required_field_is_reported_at_its_path(where):
    data = copy.deepcopy(BASE)
    del _parent(data, where)[where[-1]]
    problems = _validate_cleanly(data)
    assert problems is not None and _json_path(where) in [p.path for p in problems]


@given(st.integers(0, len(BASE["events"]) - 1), st.integers(0, len(BASE["events"]) - 1))
def test_events_out_of_order_are_caught_by_their_times(i, j):
    data = copy.deepcopy(BASE)
    events = data["events"]
    events[i], events[j] = events[j], events[i]
    problems = _validate_cleanly(data)
    if i != j:
        assert problems is not None and any(p.path.endswith(".t") for p in problems)


@given(json_values | st.dictionaries(st.sampled_from(["format", "rules", "players", "events", "video"]), json_values))
def test_arbitrary_json_is_refused_or_validated_cleanly(data):
    if isinstance(data, dict):
        data.setdefault("format", "stopframe-protocol/1")
    _validate_cleanly(data)
