"""vision.sync: B's start on A's clock from two cameras' sound — re-encoded, quieter, hissing, drifting copies
of a synthetic game (espeak-ng's judge, tone music), and the clear refusals when the sound cannot tell."""

from __future__ import annotations

import math

import numpy as np
import pytest
from sync_copies import camera_copy, write_audio, write_video_only
from test_audio_synth import RATE, needs_espeak, synth_game, write_mp4

from contract.errors import EXIT_INVALID, EXIT_UNREADABLE
from vision.audio import AudioError, AudioTrack
from vision.sync import FORMAT, MIN_CONFIDENCE, SyncError, SyncResult, sync_files, sync_tracks
from vision.sync import RATE as SYNC_RATE

TOLERANCE_S = 0.020  # offsets within 20 ms


@pytest.fixture(scope="module")
def game() -> np.ndarray:
    return synth_game(seed=1).samples  # about 100 s: three days of votes, two nights of music


@pytest.fixture(scope="module")
def long_game() -> np.ndarray:
    return synth_game(days=((2, 5), (3, 7, 9), (4,), (6, 8), (1, 10, 2)), seed=3).samples  # about 190 s


@pytest.fixture(scope="module")
def camera_a(game, tmp_path_factory):
    return write_mp4(tmp_path_factory.mktemp("sync") / "a.mp4", game)


def _track(samples: np.ndarray, rate: int = SYNC_RATE, start: float = 0.0) -> AudioTrack:
    return AudioTrack(samples.astype(np.float32), rate, start)


@needs_espeak
@pytest.mark.parametrize(("codec", "start", "gain_db", "snr_db"), [
    ("aac", 23.417, 0.0, None),
    ("mp3", 23.417, -12.0, None),
    ("opus", 23.417, 0.0, 20.0),
    ("mp3", 41.05, -12.0, 6.0),
    ("opus", 7.5, -12.0, 0.0),
    ("aac", -4.25, 0.0, 10.0),  # B was started before A: its first seconds A never heard
])
def test_offset_of_a_reencoded_quieter_hissing_copy_within_20_ms(tmp_path, game, camera_a, codec, start, gain_db,
                                                                   snr_db):
    copy = camera_copy(game, RATE, start, 50.0, gain_db=gain_db, snr_db=snr_db, seed=7)
    result = sync_files(camera_a, write_audio(tmp_path / "b", copy, RATE, codec))
    assert abs(result.offset_s - start) < TOLERANCE_S, result
    assert MIN_CONFIDENCE <= result.confidence <= 1.0
    assert result.windows_used == result.windows_heard >= 4
    assert not result.drift_measured and result.drift_ppm == 0.0  # 50 s are too few to measure drift
    assert abs(result.overlap_s - (50.0 + min(start, 0.0))) < 0.1
    assert abs(result.overlap_from_s - max(-start, 0.0)) < 0.1


@needs_espeak
def test_a_known_drift_is_measured_and_mapped_over_the_overlap(tmp_path, long_game):
    a = write_audio(tmp_path / "a", long_game, RATE, "aac")
    copy = camera_copy(long_game, RATE, 12.0, 170.0, gain_db=-12.0, snr_db=10.0, drift_ppm=100.0)
    result = sync_files(a, write_audio(tmp_path / "b", copy, RATE, "opus"))
    # B's samples are 1 + 100e-6 as many per second of the room: one second of B lasts 1/(1 + 1e-4) s on A.
    expected_ppm = (1.0 / (1.0 + 100e-6) - 1.0) * 1e6
    assert result.drift_measured and abs(result.drift_ppm - expected_ppm) < 10.0, result
    assert abs(result.offset_s - 12.0) < 0.002
    for a_time in (20.0, 100.0, 175.0):  # 17 ms of drift by the end: the mapping keeps every moment within 2 ms
        assert abs(result.b_time(a_time) - (a_time - 12.0) * (1.0 + 100e-6)) < 0.002
        assert math.isclose(result.a_time(result.b_time(a_time)), a_time, abs_tol=1e-9)


@needs_espeak
def test_without_correcting_the_drift_the_end_would_be_off(tmp_path, long_game):
    """The drift matters: at 250 ppm the copy's end is 40 ms away from where a plain offset puts it."""
    a = write_audio(tmp_path / "a", long_game, RATE, "aac")
    copy = camera_copy(long_game, RATE, 5.0, 180.0, drift_ppm=250.0)
    result = sync_files(a, write_audio(tmp_path / "b", copy, RATE, "mp3"))
    truth_b = (180.0 * (1 + 250e-6))  # B's time of A's 185 s
    assert abs(result.b_time(185.0) - truth_b) < 0.003
    assert abs((185.0 - result.offset_s) - truth_b) > 0.035


@needs_espeak
def test_a_silent_camera_is_refused_with_one_sentence(tmp_path, camera_a):
    quiet = write_audio(tmp_path / "b", np.zeros(30 * RATE, np.float32), RATE, "aac")
    with pytest.raises(SyncError, match="silent") as err:
        sync_files(camera_a, quiet)
    assert err.value.exit_code == EXIT_INVALID and str(quiet) in str(err.value)
    assert str(err.value).endswith(".") and "\n" not in str(err.value)


@needs_espeak
def test_a_camera_without_an_audio_track_is_unreadable(tmp_path, camera_a):
    video = write_video_only(tmp_path / "b.mp4")
    with pytest.raises(AudioError, match="no audio track, so there is no sound to sync") as err:
        sync_files(camera_a, video)
    assert err.value.exit_code == EXIT_UNREADABLE and str(video) in str(err.value)


@needs_espeak
def test_two_different_games_are_refused_not_guessed(tmp_path, camera_a):
    other = synth_game(days=((6, 8), (1, 10)), seed=11).samples
    with pytest.raises(SyncError, match="cannot tell"):
        sync_files(camera_a, write_audio(tmp_path / "b", other, RATE, "aac"))


def test_hiss_alone_is_refused_not_guessed():
    rng = np.random.default_rng(0)
    a, b = (rng.normal(0, 0.05, 60 * SYNC_RATE) for _ in range(2))
    with pytest.raises(SyncError, match="cannot tell"):
        sync_tracks(_track(a), _track(b))


def test_too_short_a_track_is_refused():
    rng = np.random.default_rng(1)
    with pytest.raises(SyncError, match="too short"):
        sync_tracks(_track(rng.normal(0, 0.1, 60 * SYNC_RATE)), _track(rng.normal(0, 0.1, 2 * SYNC_RATE)))


def _bursts(seconds: float, seed: int) -> np.ndarray:
    """A room without espeak: bursts of coloured noise of random length and loudness, as speech comes."""
    rng = np.random.default_rng(seed)
    x = np.zeros(int(seconds * SYNC_RATE))
    pos = 0
    while pos < len(x):
        n = int(rng.uniform(0.08, 0.6) * SYNC_RATE)
        burst = np.convolve(rng.normal(0, 1, n), np.hanning(9), "same") * rng.uniform(0.02, 0.3)
        x[pos : pos + n] = burst[: len(x) - pos]
        pos += n + int(rng.uniform(0.05, 0.8) * SYNC_RATE)
    return x


def test_track_start_times_are_on_each_videos_own_clock():
    room = _bursts(80.0, 2)
    b = room[20 * SYNC_RATE : 60 * SYNC_RATE] * 0.3
    result = sync_tracks(_track(room, start=1.5), _track(b, start=0.25))
    # B's sample 0 (B time 0.25) is the room's 20 s, which A holds at A time 21.5: B's time 0 is A's 21.25.
    assert abs(result.offset_s - 21.25) < 0.001


def test_a_lag_between_samples_is_found_to_a_fraction_of_a_sample():
    room = _bursts(60.0, 3)
    fine = np.interp(np.arange(len(room)) + 0.4, np.arange(len(room)), room)  # B hears 0.4 sample later
    result = sync_tracks(_track(room), _track(fine[10 * SYNC_RATE : 50 * SYNC_RATE]))
    assert abs(result.offset_s - (10.0 + 0.4 / SYNC_RATE)) < 0.2 / SYNC_RATE


def test_result_json_shape_and_clock_mapping():
    result = SyncResult(a="a.mp4", b="b.mp4", offset_s=12.3456789, confidence=0.8123, drift_ppm=-99.987,
                        drift_measured=True, overlap_s=170.0, overlap_from_s=0.0, windows_used=15, windows_heard=16)
    assert result.to_json() == {
        "format": FORMAT, "a": "a.mp4", "b": "b.mp4", "offset_s": 12.345679, "confidence": 0.812,
        "drift_ppm": -99.99, "drift_measured": True, "overlap_s": 170.0, "overlap_from_s": 0.0,
        "windows": {"used": 15, "heard": 16},
    }
    assert math.isclose(result.a_time(100.0), 12.3456789 + 100.0 * (1 - 99.987e-6))
    assert math.isclose(result.b_time(result.a_time(100.0)), 100.0)
    # one constant offset for a protocol's videos: right at the overlap's middle (B's 85 s), 8.5 ms off at its ends
    assert math.isclose(result.constant_offset, 12.3456789 - 85.0 * 99.987e-6)
    assert math.isclose(abs(result.offset_at(170.0) - result.constant_offset), 85.0 * 99.987e-6)
