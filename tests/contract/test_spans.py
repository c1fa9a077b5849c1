"""contract.spans: the stretches of video and sound read once, however the asked-for ones overlap."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from contract.spans import merged

span = st.tuples(st.floats(0, 1000), st.floats(0, 60)).map(lambda p: (p[0], p[0] + p[1]))


def test_a_round_read_once_where_its_votes_overlap_and_a_night_apart_read_on_its_own() -> None:
    assert merged([(40.0, 50.0), (0.0, 10.0), (8.0, 20.0)]) == [(0.0, 20.0), (40.0, 50.0)]
    assert merged([(0.0, 10.0), (25.0, 30.0)], slack=20.0) == [(0.0, 30.0)]
    assert merged([]) == []


@given(st.lists(span, max_size=20), st.floats(0, 30))
def test_every_moment_asked_for_is_read_and_no_stretch_twice(spans, slack) -> None:
    out = merged(spans, slack)
    for a, b in spans:
        assert any(x <= a and b <= y for x, y in out)
    for (_, b), (a, _) in zip(out, out[1:], strict=False):
        assert a > b + slack
