"""The judge's shooting count from the sound (rfm 4.5.3): number words heard, fitted to the count, used by the audit.

Without count times in the protocol the audit once assumed one number a second from the shooting's `t`;
a judge with another pace then moves a bend onto the wrong number. Here the judge counts at other
paces (espeak-ng, with jitter, over night music) and the count heard must put every firing on its number.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from test_audio_synth import RATE, needs_espeak, speak, tone_music, write_mp4
from test_night import ROLES, game

from contract.night import NightSeen, Raised, fit_count
from review.audit.night import DEFAULT_CADENCE_S, audit_nights, count_calls

NUMBERS = ["один", "два", "три", "четыре", "пять", "шесть", "семь", "восемь", "девять", "десять"]
T0 = 4.2  # the shooting's `t` in tests/audit/test_night.game: the first number's onset


def paced(pace: float, n: int = 10, jitter: float = 0.0, seed: int = 0, t0: float = T0) -> list[float]:
    rng = np.random.default_rng(seed)
    return [t0 + k * pace + (float(rng.uniform(-jitter, jitter)) if k else 0.0) for k in range(n)]


# ---------------------------------------------------------------- the fit, on onsets alone


@pytest.mark.parametrize("pace", [0.5, 0.8, 1.0, 1.3, 1.8, 2.5])
def test_fit_finds_the_count_at_any_pace_among_other_words(pace: float) -> None:
    truth = paced(pace, jitter=0.08 * pace, seed=int(pace * 10))
    words = [0.5, 0.9, 1.8, 2.3]  # «Наступает ночь. Мафия выходит на охоту.»
    words += [t + min(0.25, 0.3 * pace) for t in truth[2::3]]  # a vowel after a soft consonant, heard as a word of its own
    words += [truth[-1] + 1.2, truth[-1] + 1.7]  # «Мафия, спасибо»
    fit = fit_count(words + truth, 10, T0 + 0.1)
    assert fit is not None
    times, heard = fit
    assert all(heard)
    assert np.allclose(times, truth, atol=1e-3)


def test_fit_fills_a_number_not_heard_from_its_neighbours_and_says_so() -> None:
    truth = paced(1.2)
    words = truth[:4] + truth[5:]  # «пять» drowned
    times, heard = fit_count(words, 10, T0)
    assert heard == tuple(k != 4 for k in range(10))
    assert abs(times[4] - truth[4]) < 0.01


def test_fit_refuses_a_count_too_thin_to_trust() -> None:
    assert fit_count(paced(1.2)[:4], 10, T0) is None  # four words of ten
    assert fit_count([1.0, 1.1, 7.0, 20.0], 10, T0) is None
    assert fit_count([], 10, T0) is None


def test_mafclub_count_of_the_living_seats_fits_as_fewer_numbers() -> None:
    truth = paced(0.9, n=7, jitter=0.05)
    times, heard = fit_count(truth + [truth[-1] + 1.5], 7, T0)
    assert np.allclose(times, truth, atol=1e-3) and all(heard)


def test_heard_count_replaces_the_one_a_second_assumption() -> None:
    truth = paced(1.4, jitter=0.06, seed=3)
    calls = count_calls({"t": T0}, tuple(range(1, 11)), cues=[{"kind": "count_word", "t": t} for t in truth])
    assert calls.source == "cues" and not calls.assumed and calls.heard_count == 10
    fire = truth[6] + 0.25  # a bend on «семь»
    assert calls.target_of(fire)[0] == 7
    default = count_calls({"t": T0}, tuple(range(1, 11)))
    assert default.assumed and default.target_of(fire)[0] != 7  # where the old assumption went wrong


def _seen(fires: dict[int, float], words: list[float]) -> dict:
    raised = [Raised(s, 3.2, 18.5, 1, f).to_json() for s, f in fires.items()]
    return {"format": "stopframe-observations/1", "fps": 25, "hands": [], "x_raised": raised, "x_shown_numbers": [],
            "x_night_words": NightSeen(words=tuple(words)).to_json_fields().get("x_night_words", [])}


@pytest.mark.parametrize("pace", [0.75, 1.35])
def test_audit_reads_a_kill_on_the_heard_number_not_a_miss(pace: float) -> None:
    truth = paced(pace, jitter=0.05, seed=7)
    blacks = [s for s, r in ROLES.items() if r in ("mafia", "don")]
    fires = {s: truth[7] + 0.2 + 0.03 * i for i, s in enumerate(blacks)}  # all on «восемь»
    data = game(target=8)
    for ev in data["events"]:
        if ev["type"] == "check":
            ev["t"] += 6.0  # the checks after a slow count
    heard = audit_nights(data, _seen(fires, truth))
    assert not [f for f in heard.findings if f.kind == "shot_mismatch"]
    row = next(r for r in heard.rows if r["kind"] == "shooting")
    assert row["video_outcome"] == "kill" and row["video_target"] == 8 and row["count_heard"] == "10/10"
    assumed = audit_nights(data, _seen(fires, []))  # the same night without the sound: the old reading
    wrong = [f for f in assumed.findings if f.kind == "shot_mismatch"]
    assert wrong and wrong[0].assumed_times == ("count_times",)


def test_a_mismatch_next_to_a_number_not_heard_says_its_time_was_assumed() -> None:
    truth = paced(1.3)
    words = truth[:7] + truth[9:]  # «восемь» and «девять» not heard
    blacks = [s for s, r in ROLES.items() if r in ("mafia", "don")]
    fires = {blacks[0]: truth[7] + 0.3, blacks[1]: truth[7] + 0.3, blacks[2]: truth[2] + 0.3}  # a miss
    f = next(f for f in audit_nights(game(target=8), _seen(fires, words)).findings if f.kind == "shot_mismatch")
    assert f.assumed_times == ("count_times",) and f.extra["x_count_heard"] == "8/10"
    clear = next(f for f in audit_nights(game(target=8), _seen(fires, truth)).findings if f.kind == "shot_mismatch")
    assert clear.assumed_times == ()


def test_protocol_count_times_still_win_over_the_sound() -> None:
    ev = {"t": T0, "x_count_times": [4.0, 5.0, 6.0]}
    calls = count_calls(ev, (1, 2, 3), cues=[{"kind": "count_word", "t": t} for t in paced(1.7, 3)])
    assert calls.source == "protocol" and calls.times == (4.0, 5.0, 6.0)
    assert DEFAULT_CADENCE_S == 1.0


# ---------------------------------------------------------------- from the sound itself


def night_track(pace: float, music: float, seed: int, noise: float = 0.0) -> tuple[np.ndarray, list[float]]:
    """«Наступает ночь … Мафия выходит на охоту», the count at `pace` (±8 % jitter), «Мафия, спасибо», over music."""
    rng = np.random.default_rng(seed)
    duration = T0 + 10 * pace + 4.0
    out = np.zeros(int(duration * RATE), np.float32)

    def put(x: np.ndarray, t: float) -> float:
        i = int(round(t * RATE))
        out[i : i + len(x)] += x[: max(0, len(out) - i)]
        return i / RATE

    put(speak("Наступает ночь."), 0.4)
    put(speak("Мафия выходит на охоту."), 1.8)
    onsets = [put(speak(NUMBERS[k]) * 0.8, T0 + k * pace + (float(rng.uniform(-0.08, 0.08)) * pace if k else 0.0))
              for k in range(10)]
    put(speak("Мафия, спасибо."), onsets[-1] + pace + 0.3)
    if music:
        out += tone_music(duration, seed=seed, level=music)
    if noise:
        out += rng.normal(0, noise, len(out)).astype(np.float32)
    return out, onsets


@needs_espeak
@pytest.mark.parametrize(("pace", "music", "noise"), [(0.7, 0.0, 0.0), (1.0, 0.08, 0.0), (1.45, 0.2, 0.0), (1.2, 0.0, 0.01)])
def test_count_heard_to_a_frame_at_other_paces_over_music(pace: float, music: float, noise: float) -> None:
    from vision.audio import AudioTrack
    from vision.cues import count_words, features

    samples, truth = night_track(pace, music, seed=int(pace * 100), noise=noise)
    track = AudioTrack(samples, RATE, 0.0)
    words = [c.t for c in count_words(features(track), 0.0, track.duration)]
    fit = fit_count(words, 10, T0)
    assert fit is not None
    times, heard = fit
    assert sum(heard) >= 9
    errors = [abs(a - b) for a, b, h in zip(times, truth, heard, strict=True) if h]
    # two frames (three under hiss, which buries a soft «д» or «т»); a bend comes 0.2 s or more after its number
    assert max(errors) <= (0.13 if noise else 0.08), errors
    # every firing 0.25 s after its number goes to that number
    calls = count_calls({"t": T0}, tuple(range(1, 11)), cues=words)
    assert [calls.target_of(t + 0.25)[0] for t in truth] == list(range(1, 11))


@needs_espeak
def test_observe_night_hears_a_slow_count_and_widens_the_shooting(tmp_path: Path) -> None:
    from vision.audio import read_audio
    from vision.night import hear_counts

    samples, truth = night_track(1.6, 0.08, seed=5)
    video = write_mp4(tmp_path / "night.mp4", samples)
    span = (T0 - 2.5, T0 + 9 * 1.0 + 2.0)  # review.audit.night's span for the one-a-second assumption
    words, spans = hear_counts(video, [span])
    assert spans[0][0] == span[0] and spans[0][1] >= truth[-1] + 2.0
    fit = fit_count(words, 10, T0)
    assert fit is not None and np.allclose(fit[0], truth, atol=0.08)
    silent, same = hear_counts(write_mp4(tmp_path / "quiet.mp4", np.zeros_like(samples)), [span])
    assert silent == () and same == [span]
    # the sound the draft already read is listened to as it is: the same words, the file not decoded again
    gone = tmp_path / "night.mp4"
    track = read_audio(gone)
    gone.unlink()
    assert hear_counts(gone, [span], decoded=[track]) == (words, spans)
    short = track.segment(0.0, T0 + 3.0)  # sound that stops before the count ends is not enough: the file is read
    assert hear_counts(gone, [span], decoded=[short]) == ((), [span])


def test_the_renderer_judge_can_count_at_another_pace() -> None:
    from sample_videos.voice import count_times

    assert count_times(4.2, 3) == [4.2, 5.2, 6.2]  # the committed clips' judge: one a second
    slow = count_times(4.2, 10, pace=1.4, jitter=0.05, seed=1)
    assert slow[0] == 4.2 and all(1.25 <= b - a <= 1.55 for a, b in zip(slow, slow[1:], strict=False))
    assert slow == count_times(4.2, 10, pace=1.4, jitter=0.05, seed=1)  # deterministic
