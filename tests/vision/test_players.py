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
from vision.players import FACE_MODEL, Face, FaceFinder, Player, chair_places, face_model_bytes, players
from vision.seat_finder import FACE_ONLY, Place, number_places, with_players

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


def test_players_only_a_hand_idle_at_the_tables_edge_votes_a_hands_length_further_in() -> None:
    """Outside the votes a player's hand rests at the table's edge; the vote hand will land in front of it, on
    the table: the place moves a hand's length towards the middle, one already on the table stays."""
    from vision.seat_finder import in_front
    from vision.table import Table

    table = Table((500.0, 400.0), (200.0, 300.0), 0.0)
    edge = Place(500.0, 700.0, np.array([[480.0, 680.0, 520.0, 720.0]]), 5, frozenset())  # on the rim, below
    moved = in_front(edge, table)
    assert math.isclose(moved.x, 500.0) and math.isclose(moved.y, 660.0)  # 40 px (the hand's box) further in
    assert np.allclose(moved.boxes, [[480.0, 640.0, 520.0, 680.0]])
    inner = Place(500.0, 600.0, edge.boxes - [0, 100, 0, 100], 5, frozenset())
    assert in_front(inner, table) is inner
