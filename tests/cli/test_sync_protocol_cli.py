"""`stopframe sync A B --protocol P --protocol-out P2`: a re-timed copy of the protocol with B's camera put on its
clock through A's (offset and drift), validated before writing; P itself, a video, or a copy in another folder
never written; the drift arithmetic of `retimed` against what the sync result says."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from contract.clock import Clock
from review.game.protocol import CameraVideo, format_problems, load_protocol, validate
from stopframe_cli.main import main
from stopframe_cli.sync import retimed
from vision.sync import SyncResult

CLIP = Path(__file__).resolve().parents[2] / "sample_videos" / "clips"
LEAD = 1.72  # the far camera of the bundled clip started this much before the judge's


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """The bundled two-camera clip with the far camera's offset lost (0)."""
    for name in ("two_cameras.mp4", "two_cameras.far.mp4", "two_cameras.seats.json", "two_cameras.far.seats.json"):
        shutil.copy(CLIP / name, tmp_path / name)
    data = json.loads((CLIP / "two_cameras.protocol.json").read_text(encoding="utf-8"))
    data["videos"][1]["offset"] = 0.0
    (tmp_path / "g.protocol.json").write_text(json.dumps(data), encoding="utf-8")
    return tmp_path


def sync(folder: Path, *extra: str) -> int:
    return main(["sync", str(folder / "two_cameras.mp4"), str(folder / "two_cameras.far.mp4"),
                 "--protocol", str(folder / "g.protocol.json"), *extra])


def test_the_copy_puts_the_far_camera_on_the_protocols_clock_and_validates(folder: Path, capsys) -> None:
    before = (folder / "g.protocol.json").read_bytes()
    assert sync(folder, "--camera", "far", "--protocol-out", str(folder / "g.synced.json"), "--json") == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["format"] == "stopframe-sync/1"  # stdout is still the sync result
    assert f"wrote {folder / 'g.synced.json'}: camera \"far\" offset 1.7" in captured.err
    assert (folder / "g.protocol.json").read_bytes() == before
    written = load_protocol(folder / "g.synced.json")
    assert validate(written) == []
    judge, far = written.videos
    assert abs(far.offset - LEAD) < 0.02 and far.drift_ppm == 0.0  # a short clip: drift not measured
    assert "drift_ppm" not in written.data["videos"][1]
    original = json.loads(before)
    original["videos"][1]["offset"] = far.offset
    assert written.data == original  # only the far camera's offset moved


@pytest.mark.parametrize(("args", "status", "words"), [
    (["--protocol-out", "{folder}/g.protocol.json"], 2, "never overwrites the protocol it reads"),
    (["--protocol-out", "{folder}/two_cameras.far.mp4"], 2, "never overwrites a video"),
    (["--protocol-out", "{folder}/sub/g.json"], 2, "must sit in"),
    (["--camera", "judge", "--protocol-out", "{folder}/g2.json"], 1, "not the video of camera \"judge\""),
    (["--camera", "side", "--protocol-out", "{folder}/g2.json"], 1, "no camera \"side\" in videos"),
    ([], 2, "needs both --protocol and --protocol-out (--protocol-out is missing)"),
])
def test_refusals_come_before_any_sound_is_read_and_write_nothing(folder: Path, capsys, args, status, words) -> None:
    (folder / "sub").mkdir()
    before = sorted(p.name for p in folder.rglob("*"))
    assert sync(folder, *[a.format(folder=folder) for a in args]) == status
    err = capsys.readouterr().err
    assert words in err and "reading the sound" not in err and err.count("\n") == 1
    assert sorted(p.name for p in folder.rglob("*")) == before


def test_b_must_be_a_camera_of_the_protocol(folder: Path, capsys) -> None:
    shutil.copy(folder / "two_cameras.far.mp4", folder / "other.mp4")
    code = main(["sync", str(folder / "two_cameras.mp4"), str(folder / "other.mp4"), "--protocol",
                 str(folder / "g.protocol.json"), "--protocol-out", str(folder / "g2.json")])
    assert code == 1 and "none of the cameras of" in capsys.readouterr().err


def result(offset_s: float, drift_ppm: float) -> SyncResult:
    return SyncResult("a.mp4", "b.mp4", offset_s, 0.9, drift_ppm, True, 3600.0, 0.0, 40, 48)


@pytest.mark.parametrize(("a_offset", "a_drift", "offset_s", "drift_ppm"),
                         [(0.0, 0.0, -12.48, -38.4), (0.5, 20.0, 3.0, 100.0), (0.0, 0.0, 4.0, 0.0)])
def test_the_re_timed_camera_runs_as_the_sync_result_says_over_an_hours_game(a_offset, a_drift, offset_s,
                                                                            drift_ppm) -> None:
    """B's time of each protocol moment = what the sync result gives for A's time of it, within 10 µs."""
    data = {"video": {"path": "b.mp4", "offset_s": 7.0},
            "videos": [{"id": "a", "path": "a.mp4", "offset": a_offset, "drift_ppm": a_drift},
                       {"id": "b", "path": "./b.mp4", "offset": 7.0}]}
    a = CameraVideo("a", "a.mp4", a_offset, None, a_drift)
    sync = result(offset_s, drift_ppm)
    out = retimed(data, a, 1, sync)
    b = out["videos"][1]
    on_b, on_a = Clock.protocol_to(b["offset"], b.get("drift_ppm", 0.0)), Clock.protocol_to(a_offset, a_drift)
    for t in (0.0, 1800.0, 3600.0):
        assert on_b.video_time(t) == pytest.approx(sync.b_time(on_a.video_time(t)), abs=1e-5)
    assert out["video"]["offset_s"] == b["offset"] and data["videos"][1]["offset"] == 7.0  # a copy
    assert ("drift_ppm" in b) == (drift_ppm != 0.0 or a_drift != 0.0)
    assert Clock.of_protocol(out).video_time(3600.0) == pytest.approx(on_b.video_time(3600.0))
    full = {**json.loads((CLIP / "two_cameras.protocol.json").read_text(encoding="utf-8")), **out}
    full["videos"][0]["path"], full["videos"][1]["path"] = "two_cameras.far.mp4", "two_cameras.mp4"
    full["video"]["path"] = "two_cameras.mp4"
    assert format_problems(full) == []


def test_the_readable_lines_of_a_drifting_pair_give_the_cameras_offset_and_drift_in_words() -> None:
    from stopframe_cli.sync import _table

    text = _table(result(-12.48, -38.4).to_json())
    assert "drift: -38.4 ppm (B's clock runs 38.4 millionths faster than A's; 138.2 ms an hour)" in text
    assert "B's offset = (A's offset + 12.480 s) / 0.999962, B's drift_ppm = +38.40" in text
    assert "--protocol P --protocol-out P2 writes them" in text and "None" not in text and "{" not in text


def test_the_readable_lines_and_the_refusals_in_russian(folder: Path, capsys) -> None:
    """A Russian judge reads the offset, the drift and the cameras' arithmetic in Russian, numbers with a decimal
    comma; the refusals too. The JSON result keeps its English keys."""
    from contract import i18n
    from stopframe_cli.sync import _table

    with i18n.using("ru"):
        text = _table(result(-12.48, -38.4).to_json())
    assert "b.mp4 начинается на -12,480 с по часам a.mp4 (на 12,480 с раньше), уверенность 0,90" in text
    assert "дрейф: -38,4 ppm (часы B идут на 38,4 миллионных быстрее часов A; 138,2 мс в час)" in text
    assert "offset B = (offset A + 12,480 с) / 0,999962, drift_ppm B = +38,40" in text
    assert "запишет их" in text and "drift:" not in text and "clock" not in text
    assert main(["--lang", "ru", "sync", str(folder / "two_cameras.mp4"), str(folder / "two_cameras.far.mp4"),
                 "--protocol", str(folder / "g.protocol.json")]) == 2
    err = capsys.readouterr().err
    assert "нужны и --protocol, и --protocol-out (не указан --protocol-out)" in err and "needs" not in err
