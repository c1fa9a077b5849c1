"""The players from their faces (vision.players): the bundled face model checked, faces grouped into players,
chairs placed for players with no resting hand, and the seat finder's players-only places."""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path

import numpy as np
import pytest

import vision.players
from contract.errors import UnreadableInput
from vision.players import (
    FACE_MODEL,
    Face,
    FaceFinder,
    Player,
    chair_layout,
    chair_places,
    crowded,
    crowding,
    face_model_bytes,
    players,
)
from vision.seat_finder import (
    FACE_ONLY,
    Place,
    Sighting,
    build_found,
    layout_places,
    number_places,
    with_players,
)
from vision.table import Table

MODELS = Path(vision.players.__file__).resolve().parent / "models"


def test_the_bundled_face_model_is_the_one_models_json_names() -> None:
    manifest = json.loads((MODELS / "models.json").read_text())
    data = face_model_bytes()
    assert hashlib.sha256(data).hexdigest() == manifest["sha256"][FACE_MODEL]
    assert len(data) < 1_000_000  # a small file: the full-range face detector, not a pose model


def test_a_replaced_face_model_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "vision"
    (folder / "models").mkdir(parents=True)
    (folder / "models" / "models.json").write_text((MODELS / "models.json").read_text())
    (folder / "models" / FACE_MODEL).write_bytes(b"not the model")
    monkeypatch.setattr(vision.players.resources, "files", lambda _package: folder)
    face_model_bytes.cache_clear()
    try:
        with pytest.raises(UnreadableInput, match="does not match models.json"):
            face_model_bytes()
    finally:
        face_model_bytes.cache_clear()


def test_no_face_on_an_empty_table() -> None:
    finder = FaceFinder()
    try:
        picture = np.full((360, 640, 3), (40, 110, 40), np.uint8)  # green felt, nobody there
        assert finder.faces(picture) == []
    finally:
        finder.close()


def test_a_player_is_a_face_seen_again_in_the_same_place() -> None:
    faces = [Face(0, 100, 50, 30, 0.6), Face(1, 104, 52, 31, 0.5),  # one player, two frames
             Face(0, 400, 60, 30, 0.9)]  # a pattern on one frame only
    seen = players(faces)
    assert len(seen) == 1 and math.dist((seen[0].x, seen[0].y), (102, 51)) < 3 and seen[0].frames == 2


def _round_table(share: float) -> tuple[list[Player], list[tuple[float, float]]]:
    """Eight players round a table centred at (500, 400), the hands of the first seven at `share` of the way
    from the centre to the face."""
    centre = np.array([500.0, 400.0])
    seen, hands = [], []
    for k in range(8):
        a = 2 * math.pi * k / 8
        face = centre + 300 * np.array([math.cos(a), math.sin(a)])
        seen.append(Player(float(face[0]), float(face[1]), 40.0, 3))
        if k < 7:
            hands.append(tuple(map(float, centre + (face - centre) * share)))
    return seen, hands


def test_a_player_with_no_resting_hand_gets_a_chair_where_the_others_hands_lie() -> None:
    seen, hands = _round_table(0.6)
    spots = chair_places(seen, hands)
    assert len(spots) == 1
    player, x, y = spots[0]
    assert player is seen[7]
    expected = np.array([500.0, 400.0]) + (np.array([player.x, player.y]) - (500.0, 400.0)) * 0.6
    assert math.dist((x, y), expected) < 1.0


def test_players_only_the_found_chairs_are_numbered_with_a_partial_confidence() -> None:
    seen, hands = _round_table(0.6)
    places = [Place(x, y, np.array([[x - 15, y - 15, x + 15, y + 15]]), 6, frozenset()) for x, y in hands]
    faces = [Face(f, p.x, p.y, p.size, 0.8) for p in seen for f in (0, 1)]
    every = with_players(places, faces)
    assert len(every) == 8 and every[-1].faces == 2 and every[-1].sightings == 0
    found = number_places(every, frozenset(range(1, 11)), [], (1000, 800), "whole video", 0.0)
    face_seat = next(n for n, s in found.seat_map.seats.items() if s.contains(every[-1].x, every[-1].y))
    assert 0 < found.confidence[face_seat] < FACE_ONLY
    assert all(found.confidence[n] > found.confidence[face_seat] for n in found.confidence if n != face_seat
               and found.confidence[n] > 0)


TABLE = Table((640.0, 420.0), (230.0, 300.0), 178.0)  # a long table seen from behind the judge (as rendered)


def _ring_of_chairs(wide: float = 1.6, crowd: float = 0.8) -> np.ndarray:
    """Ten chairs round TABLE as the layout model has them: the judge's place `wide` spacings wide, the far
    chairs crowded by perspective."""
    step = 2 * math.pi / (9 + wide)
    judge = TABLE.theta(TABLE.centre[0], TABLE.centre[1] + 1000)
    return judge + crowded(step * (wide / 2 + np.arange(10)), crowd)


def test_the_chairs_are_laid_round_the_table_and_numbered_across_a_chair_that_shows_nothing() -> None:
    """Each player shows a face or two idle hands a little to either side of the chair; seat 3 shows nothing.
    The layout still puts every chair where it stands, seat 1 the first clockwise from the judge."""
    truth = _ring_of_chairs()
    bearings = [t + d for k, t in enumerate(truth) if k != 2 for d in (math.radians(-6), math.radians(5))]
    chairs, reach, fit = chair_layout(TABLE, bearings, 10, crowd=0.8)
    off = np.degrees(np.abs(np.remainder(chairs - truth + math.pi, 2 * math.pi) - math.pi))
    assert off.max() < 4.0, off.round(1)
    assert 0 < reach < math.pi / 10 and fit < 0.05


def test_without_evidence_of_perspective_the_chairs_are_not_crowded() -> None:
    sizes = [(*TABLE.point(t, 0.9), 30.0) for t in _ring_of_chairs(crowd=1.0)]
    assert crowding(TABLE, sizes) == pytest.approx(1.0)
    assert crowding(TABLE, sizes[:3]) == 1.0  # too few hands to say


def test_hands_half_as_big_at_the_far_rim_crowd_the_far_chairs() -> None:
    """Far hands half the size of near ones: the angles from the far end shrink by the root of a half."""
    half = TABLE.axes[1]  # the table's half height (the ellipse stands upright)
    sizes = []
    for t in _ring_of_chairs():
        x, y = TABLE.point(t, 0.9)
        sizes.append((x, y, 30.0 * 2 ** ((y - TABLE.centre[1]) / half / 2)))  # log size straight in the height
    assert crowding(TABLE, sizes) == pytest.approx(math.sqrt(0.5), abs=0.03)


def test_players_only_a_vote_hand_in_front_of_its_chair_lies_in_that_seats_zone() -> None:
    """Idle hands at the rim by every chair; a voter may put the hand anywhere from just inside the rim to two
    hands in (nothing yet says how far this table's voters reach): each seat's zone holds both, and the seats
    run from the judge's left."""
    truth = _ring_of_chairs(crowd=1.0)
    hands = []
    for t in truth:
        for d in (-0.08, 0.08):  # two idle hands either side of the chair
            x, y = TABLE.point(t + d, 1.0)
            hands += [Sighting(0, f, x, y, 20.0, (x - 15, y - 15, x + 15, y + 15)) for f in (1.0, 2.0)]
    places, fit = layout_places(TABLE, hands, [])
    found = build_found(places, list(range(10)), fit, (1280, 860), frozenset(range(1, 11)), "whole video", 0.0, [],
                        table=TABLE)
    centre = np.array(TABLE.centre)
    for k, t in enumerate(truth):
        rim = np.array(TABLE.point(t))
        inward = (centre - rim) / np.linalg.norm(centre - rim)
        for depth in (0.7, 1.9):  # hands in from the rim (the hands are 30 px)
            assert found.seat_map.seats[k + 1].contains(*(rim + inward * 30.0 * depth)), (k + 1, depth)
    assert found.seat_map.seats[1].zone.mean(axis=0)[0] < centre[0] < found.seat_map.seats[10].zone.mean(axis=0)[0]
    assert all(0 < c <= FACE_ONLY for c in found.confidence.values())  # a layout, not a vote: trusted less
