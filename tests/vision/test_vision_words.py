"""vision's refusals and reasons reach a Russian-reading judge in Russian, still naming the file and the place."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from contract import i18n
from contract.errors import InvalidInput, UnreadableInput
from contract.i18n import _
from contract.seats import Seat, SeatMap, load_seat_map
from vision import seat_finder
from vision.audio import AudioError, AudioTrack, read_audio
from vision.hands import unusable_seats
from vision.model import model_bytes
from vision.seat_finder import Place, Window, number_places
from vision.seats import default_seat_map
from vision.sync import RATE as SYNC_RATE
from vision.sync import SyncError, sync_tracks
from vision.video import VideoError, open_video

ALL = frozenset(range(1, 11))


@pytest.fixture
def ru():
    with i18n.using("ru"):
        yield


def test_a_file_that_is_no_video_is_refused_in_russian(ru, tmp_path: Path) -> None:
    with pytest.raises(VideoError) as missing:
        open_video(tmp_path / "game.mp4")
    assert str(missing.value) == f"{tmp_path / 'game.mp4'}: такого видеофайла нет."
    with pytest.raises(VideoError, match="это папка, а не видеофайл"):
        open_video(tmp_path)
    with pytest.raises(AudioError, match="видео не читается: такого файла нет"):
        read_audio(tmp_path / "game.mp4")


def test_seat_map_refusals_in_russian(ru, tmp_path: Path) -> None:
    path = tmp_path / "bad.seats.json"
    path.write_text(json.dumps({"format": "stopframe-seats/1", "frame_size": [1280], "seats": {}}))
    with pytest.raises(InvalidInput) as err:
        load_seat_map(path)
    assert str(err.value) == f"{path}: frame_size должно быть [ширина, высота] в целых пикселях."
    path.write_text(json.dumps({"format": "stopframe-seats/1", "frame_size": [9, 9], "seats": {"11": {"zone": []}}}))
    with pytest.raises(InvalidInput, match="seats.11 — не номер места от 1 до 10"):
        load_seat_map(path)
    table = default_seat_map((1280, 720), (640, 380), (470, 250))
    with pytest.raises(InvalidInput) as err:
        table.scaled_to(1440, 1080)
    assert str(err.value).startswith("карта мест размечена на кадре 1280x720, а у видео кадр 1440x1080")
    with pytest.raises(UnreadableInput, match="неизвестная модель руки 'huge'"):
        model_bytes("huge")


def test_the_seat_finders_reasons_in_russian(ru) -> None:
    places = [Place(x, 400.0, np.array([[x - 25, 375, x + 25, 425]]), 8, frozenset({0}))
              for x in (200.0, 300.0, 400.0, 500.0, 600.0, 700.0, 800.0)]
    found = number_places(places, ALL - {3}, [], (1280, 720), "votes", 0.0)
    assert found.unfound[3] == "место 3: игрок покинул игру до этих голосований; зоны нет."
    assert all(why.startswith(f"место {n}: ") for n, why in found.unfound.items())
    windows = [Window(10.0, 12.0, 13.0, label=f"день {day}, кандидатура 6") for day in (2, 1)]
    assert seat_finder._unfound_reason(8, ALL, windows, "votes") == (
        "место 8: во время голосований (день 1 и день 2) руки на столе не видно; пустой стул?")
    with i18n.using("en"):
        english = [Window(10.0, 12.0, 13.0, label=f"day {day}, candidate 6") for day in (1, 2)]
        assert seat_finder._unfound_reason(8, ALL, english, "votes") == (
            "seat 8: no hand seen on the table during day 1 and day 2 votes; an empty chair?")


def test_a_sync_refusal_writes_its_numbers_as_a_russian_reader_does(ru) -> None:
    rng = np.random.default_rng(1)
    long, short = (AudioTrack(rng.normal(0, 0.1, int(s * SYNC_RATE)).astype(np.float32), SYNC_RATE, 0.0) for s in (60, 2.5))
    with pytest.raises(SyncError) as err:
        sync_tracks(long, short)
    assert str(err.value) == "B: 2,5 с звука — слишком мало для синхронизации (нужно не меньше 4 с)."


def test_why_a_seat_is_unseen_stays_english_in_the_file_and_is_shown_in_russian(ru) -> None:
    """The observations file keeps the reason as written (files do not change with the reader's language);
    whoever shows it to a judge finds its words in the catalogue."""
    zone = np.array([[2000.0, 10.0], [2100.0, 10.0], [2100.0, 100.0]])  # right of a 1280-px picture
    why = unusable_seats(SeatMap((1280, 720), {1: Seat(zone)}))
    assert why[1] == "the seat's zone lies outside the picture" and why[2] == "no zone in the seat map"
    assert _(why[1]) == "зона места лежит за пределами кадра" and _(why[2]) == "в карте мест нет зоны"
    assert _("the seat's view is dark or covered") == "место плохо видно: темно или закрыто"
