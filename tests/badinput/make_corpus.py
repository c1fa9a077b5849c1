"""The bad-input corpus: files a player or a club might send that must never crash Stopframe.

Small files are committed beside this script (`python3 tests/badinput/make_corpus.py` rebuilds them);
large or odd ones (4K, rotated, variable frame rate, a 10-hour file, 100 MB, deeply nested JSON, links
that leave the folder) are made at test time by the functions below, in a fraction of a second each.
"""

from __future__ import annotations

import copy
import json
import os
from fractions import Fraction
from pathlib import Path
from typing import Any

import av
import numpy as np

HERE = Path(__file__).resolve().parent
COMPLETE = HERE.parent / "fixtures" / "protocols" / "complete_rfm.protocol.json"
IMPORTS = HERE.parent / "fixtures" / "import"
AUDIT_GAME = HERE.parent / "fixtures" / "audit" / "day_vote"  # .protocol.json, .seats.json, .observations.json


def base_protocol() -> dict[str, Any]:
    """A complete, valid rfm game (the protocol engineer's fixture)."""
    return json.loads(COMPLETE.read_text(encoding="utf-8"))


def seat_map(width: int = 64, height: int = 48) -> dict[str, Any]:
    """A valid seat map with one triangular zone."""
    return {"format": "stopframe-seats/1", "frame_size": [width, height],
            "seats": {"1": {"zone": [[2, 2], [20, 2], [2, 20]]}}}


# ------------------------------------------------------------------------------------------------ videos


def write_clip(path: Path, frames: int = 3, width: int = 64, height: int = 48, *, rate: int | Fraction = 10,
               times: list[float] | None = None, rotation: int = 0, codec: str = "libx264") -> Path:
    """A tiny grey clip; `times` (seconds) gives it variable frame timestamps, `rotation` a display matrix."""
    container_format = {".avi": "avi"}.get(path.suffix, "mp4")  # the content, whatever the name says
    with av.open(str(path), "w", format=container_format) as out:
        stream = out.add_stream(codec, rate=rate)
        stream.width, stream.height, stream.pix_fmt = width, height, "yuv420p"
        if codec == "libx264":
            stream.options = {"preset": "ultrafast", "crf": "40", "g": "30"}
        if times is not None:
            stream.codec_context.time_base = Fraction(1, 1000)
        if rotation:
            stream.set_display_rotation(rotation)
        image = np.full((height, width, 3), 100, np.uint8)
        for i in range(frames):
            frame = av.VideoFrame.from_ndarray(image, format="rgb24")
            if times is not None:
                frame.pts, frame.time_base = int(round(times[i] * 1000)), Fraction(1, 1000)
            out.mux(stream.encode(frame))
        out.mux(stream.encode())
    return path


VFR_TIMES = [0.0, 0.04, 0.05, 0.5, 0.53, 2.0]  # a phone that drops frames: gaps of 10 ms to 1.5 s
TEN_HOURS = 36_000.0


def uhd_clip(path: Path) -> Path:
    """4K (3840x2160), two frames: about 25 KB."""
    return write_clip(path, 2, 3840, 2160)


def vfr_clip(path: Path) -> Path:
    return write_clip(path, len(VFR_TIMES), times=VFR_TIMES)


def rotated_clip(path: Path, degrees: int = 90) -> Path:
    """A phone video stored landscape 64x48 with a display matrix that turns it upright."""
    return write_clip(path, 3, rotation=degrees)


def ten_hour_clip(path: Path) -> Path:
    """A 10-hour file in a few KB: one 16x16 frame every ten minutes (constant rate 1/600 fps)."""
    return write_clip(path, int(TEN_HOURS / 600), 16, 16, rate=Fraction(1, 600))


def ten_hour_gap_clip(path: Path) -> Path:
    """Three frames, the last one ten hours after the first (a camera left running, variable rate)."""
    return write_clip(path, 3, times=[0.0, 1.0, TEN_HOURS])


def sparse_file(path: Path, megabytes: int = 100) -> Path:
    """A file of `megabytes` MB of zeros that takes no disk space (the size is all that matters)."""
    with path.open("wb") as fh:
        fh.truncate(megabytes * 1024 * 1024)
    return path


def _audio_only(path: Path) -> Path:
    with av.open(str(path), "w", format="mp4") as out:
        stream = out.add_stream("aac", rate=8000)
        frame = av.AudioFrame.from_ndarray(np.zeros((1, 4000), np.float32), format="fltp", layout="mono")
        frame.sample_rate = 8000
        out.mux(stream.encode(frame))
        out.mux(stream.encode())
    return path


def _unknown_codec(path: Path) -> Path:
    """An AVI whose video stream's codec tag is one no decoder knows ("ZZZZ")."""
    write_clip(path, 3, 32, 32, codec="mpeg4")
    data = path.read_bytes()
    tag = data[data.index(b"strh") + 12:data.index(b"strh") + 16]
    path.write_bytes(data.replace(tag, b"ZZZZ"))
    return path


def _tiny_png() -> bytes:
    import zlib

    def chunk(kind: bytes, body: bytes) -> bytes:
        return len(body).to_bytes(4, "big") + kind + body + zlib.crc32(kind + body).to_bytes(4, "big")

    rows = b"".join(b"\x00" + b"\xff\x00\x00" * 8 for _ in range(8))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", (8).to_bytes(4, "big") * 2 + b"\x08\x02\x00\x00\x00")
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def build_videos(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    whole = write_clip(folder / "wrong_extension.txt", 10)  # a good video with a misleading name
    data = whole.read_bytes()
    (folder / "empty.mp4").write_bytes(b"")
    (folder / "truncated.mp4").write_bytes(data[: len(data) // 2])  # moov (the index) is at the end: lost
    (folder / "corrupt_header.mp4").write_bytes(b"\xab" * 64 + data[64:])
    (folder / "text.mp4").write_text("This is the protocol of game 3, typed in a text editor.\n", encoding="utf-8")
    (folder / "png_renamed.mp4").write_bytes(_tiny_png())
    _audio_only(folder / "audio_only.mp4")
    _unknown_codec(folder / "unknown_codec.avi")


# --------------------------------------------------------------------------------------- protocol files


def _protocol_cases() -> dict[str, Any]:
    """name -> JSON value (or raw text) of each committed protocol case."""
    cases: dict[str, Any] = {}
    cases["malformed"] = '{"format": "stopframe-protocol/1", "rules": "rfm", "players": [\n  {"seat": 1,\n'
    d = base_protocol()
    d["rules"], d["players"], d["events"][1]["number"], d["video"]["offset_s"] = 5, "ten players", "one", "zero"
    cases["wrong_types"] = d
    d = base_protocol()
    d["players"][0]["seat"], d["players"][1]["seat"] = 0, 11
    nomination = next(e for e in d["events"] if e["type"] == "nomination")
    nomination["by"], nomination["target"] = 0, 11
    cases["seat_0_and_11"] = d
    d = base_protocol()
    nomination = next(i for i, e in enumerate(d["events"]) if e["type"] == "nomination")
    d["events"].insert(nomination + 1, copy.deepcopy(d["events"][nomination]))
    cases["duplicate_event"] = d
    cases["duplicate_key"] = ('{"format": "stopframe-protocol/1", "rules": "rfm", "rules": "mafclub", '
                              '"players": [], "events": []}')
    d = base_protocol()
    d["rules"] = "bulgarian_open"
    cases["unknown_profile"] = d
    d = base_protocol()
    d["format"] = "stopframe-protocol/2"
    cases["unknown_version"] = d
    d = base_protocol()
    d["format"] = "stopframe-seats/1"
    cases["another_format"] = d
    cases["not_an_object"] = [base_protocol()]
    d = base_protocol()
    d["video"]["path"] = "../../etc/passwd"
    cases["video_path_escapes"] = d
    d = base_protocol()
    d["video"]["path"] = "/etc/passwd"
    cases["video_path_absolute"] = d
    d = base_protocol()
    d["video"]["path"] = "..\\..\\Windows\\win.ini"
    cases["video_path_windows"] = d
    d = base_protocol()
    for player, name in zip(d["players"], ["=HYPERLINK(\"http://x\")", "+1+1", "-2-2", "@SUM(A1:A9)",
                                           "\tTab", "<script>alert(1)</script>"], strict=False):
        player["nickname"] = name
    cases["formula_names"] = d
    d = base_protocol()
    for e in d["events"]:
        for key in ("day", "night", "number"):
            if isinstance(e.get(key), int) and e[key] > 0:
                e[key] = 10**18
    cases["day_10e18"] = d
    text = json.dumps(base_protocol(), ensure_ascii=False)
    cases["nan_offset"] = text.replace('"offset_s": 0.0', '"offset_s": NaN')
    cases["huge_number"] = text.replace('"offset_s": 0.0', '"offset_s": ' + "7" * 5000)
    cases["bom"] = "\ufeff" + text  # valid: a Windows editor's byte-order mark is not an error
    return cases


def _seat_cases() -> dict[str, Any]:
    cases: dict[str, Any] = {"malformed": '{"format": "stopframe-seats/1", "frame_size": [64, 48], "seats": {'}
    zone = [[2, 2], [20, 2], [2, 20]]
    cases["wrong_types"] = {"format": "stopframe-seats/1", "frame_size": ["64", 48], "seats": []}
    cases["seat_0"] = {**seat_map(), "seats": {"0": {"zone": zone}}}
    cases["seat_11"] = {**seat_map(), "seats": {"11": {"zone": zone}}}
    cases["zone_not_polygon"] = {**seat_map(), "seats": {"1": {"zone": [[0, "a"], [1, 2, 3]]}}}
    cases["unknown_version"] = {**seat_map(), "format": "stopframe-seats/9"}
    cases["not_a_seat_map"] = base_protocol()
    cases["frame_size_booleans"] = {**seat_map(), "frame_size": [True, True]}
    return cases


def _import_cases() -> dict[str, Any]:
    polemica = json.loads((IMPORTS / "polemica_game.json").read_text(encoding="utf-8"))
    mafiaratings = json.loads((IMPORTS / "mafiaratings_game.json").read_text(encoding="utf-8"))
    cases: dict[str, Any] = {}
    d = copy.deepcopy(polemica)
    d["result"] = ["RED_WIN"]
    cases["polemica_result_list"] = d
    d = copy.deepcopy(polemica)
    d["votes"][0]["day"] = 10**9
    cases["polemica_day_1e9"] = d
    d = copy.deepcopy(polemica)
    d["players"][0]["position"] = 11
    cases["polemica_seat_11"] = d
    d = copy.deepcopy(mafiaratings)
    d["players"][0]["voting"] = {"round_" + "9" * 5000: 1}
    cases["mafiaratings_round_5000_digits"] = d
    d = copy.deepcopy(mafiaratings)
    d["players"][0]["warnings"] = 10**9
    cases["mafiaratings_warnings_1e9"] = d
    d = copy.deepcopy(mafiaratings)
    d["start_time"] = 10**20
    cases["mafiaratings_start_time"] = d
    d = copy.deepcopy(mafiaratings)
    d["winner"] = {"civ": True}
    cases["mafiaratings_winner_object"] = d
    cases["neither_shape"] = {"game": 1, "players": [{"name": "Alpha"}]}
    return cases


def _observation_cases() -> dict[str, Any]:
    """Saved observations a club might send with a game (`stopframe audit --observations`)."""
    good = json.loads(Path(f"{AUDIT_GAME}.observations.json").read_text(encoding="utf-8"))
    first = good["hands"][0]
    text = json.dumps({**good, "hands": [{**first, "on": 0.0}]})
    return {
        "nan_time": text.replace('"on": 0.0', '"on": NaN'),
        "fps_1e308": {**good, "fps": 1e308},
        "seat_text": {**good, "hands": [{**first, "seat": "one"}]},
        "zero_fps": {**good, "fps": 0},
        "hands_not_a_list": {**good, "hands": "none"},
        "a_protocol": base_protocol(),
    }


def _write_json_cases(folder: Path, suffix: str, cases: dict[str, Any]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, value in cases.items():
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, indent=1) + "\n"
        (folder / f"{name}{suffix}").write_text(text, encoding="utf-8")


def build(folder: Path = HERE) -> None:
    """(Re)write every committed file of the corpus."""
    build_videos(folder / "video")
    _write_json_cases(folder / "protocol", ".protocol.json", _protocol_cases())
    (folder / "protocol" / "latin1.protocol.json").write_bytes('{"format": "stopframe-protocol/1", "rules": "rfm", '
                                                               '"game": {"judge": "Müller"}}'.encode("latin-1"))
    _write_json_cases(folder / "seats", ".seats.json", _seat_cases())
    _write_json_cases(folder / "import", ".json", _import_cases())
    _write_json_cases(folder / "observations", ".observations.json", _observation_cases())


# ------------------------------------------------------------------------------ generated at test time


def deeply_nested(path: Path, depth: int = 100_000) -> Path:
    """JSON nested far beyond Python's recursion limit (200 KB)."""
    path.write_text("[" * depth + "]" * depth, encoding="utf-8")
    return path


def deep_x_field(path: Path, depth: int = 5_000) -> Path:
    """A valid protocol carrying an `x_` field nested 5 000 levels deep."""
    text = json.dumps(base_protocol())
    path.write_text(text[:-1] + ', "x_notes": ' + "[" * depth + "]" * depth + "}", encoding="utf-8")
    return path


def too_many_events(path: Path, count: int = 10_001) -> Path:
    """A protocol of a plausible shape with more events than any game has (the replay stays bounded)."""
    d = base_protocol()
    d["events"] = [{"type": "phase", "phase": "night", "number": 0}] + [
        {"type": "foul", "seat": 1 + i % 10} for i in range(count - 1)]
    path.write_text(json.dumps(d), encoding="utf-8")
    return path


def game_folder_with_links(root: Path) -> Path:
    """root/game holds protocols whose video.path is inside the folder, but a link takes it outside.

    Made at test time because git cannot be trusted to keep symlinks on every checkout."""
    outside, game = root / "outside", root / "game"
    outside.mkdir(parents=True, exist_ok=True)
    game.mkdir(parents=True, exist_ok=True)
    write_clip(outside / "secret.mp4", 2)
    os.symlink(outside / "secret.mp4", game / "absolute_link.mp4")
    os.symlink(Path("..") / "outside" / "secret.mp4", game / "relative_link.mp4")
    os.symlink(Path("..") / "outside", game / "linked_folder")
    os.symlink("loop.mp4", game / "loop.mp4")
    write_clip(game / "inside.mp4", 2)
    os.symlink("inside.mp4", game / "inside_link.mp4")
    for name, video in [("absolute_link", "absolute_link.mp4"), ("relative_link", "relative_link.mp4"),
                        ("linked_folder", "linked_folder/secret.mp4"), ("loop", "loop.mp4"),
                        ("inside_link", "inside_link.mp4")]:
        d = base_protocol()
        d["video"]["path"] = video
        (game / f"{name}.protocol.json").write_text(json.dumps(d), encoding="utf-8")
    (game / "game.seats.json").write_text(json.dumps(seat_map()), encoding="utf-8")
    return game


# ------------------------------------------------------------------------------------------------ attacks


def zero_device_link(path: Path) -> Path:
    """A "file" that is /dev/zero by a link: its stated size is 0 and it never ends."""
    os.symlink("/dev/zero", path)
    return path


def fifo(path: Path) -> Path:
    """A named pipe: opening it to read waits for a writer that never comes."""
    os.mkfifo(path)
    return path


def million_point_zone(path: Path, points: int = 1_000_000) -> Path:
    """A seat map whose zone has a million points (about 16 MB, under the JSON size limit): an overlap check over
    every edge pair of every zone pair would run for minutes."""
    zone = [[round(30 + 20 * np.cos(a), 3), round(24 + 20 * np.sin(a), 3)]
            for a in np.linspace(0, 2 * np.pi, points, endpoint=False)]
    data = {"format": "stopframe-seats/1", "frame_size": [64, 48],
            "seats": {"1": {"zone": zone}, "2": {"zone": [[1, 1], [4, 1], [1, 4]]}}}
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def game_copy(folder: Path, name: str = "game") -> Path:
    """The day-vote game (protocol, seat map, observations) copied as NAME.* into `folder`; its protocol."""
    folder.mkdir(parents=True, exist_ok=True)
    for part in ("protocol", "seats", "observations"):
        (folder / f"{name}.{part}.json").write_bytes(Path(f"{AUDIT_GAME}.{part}.json").read_bytes())
    return folder / f"{name}.protocol.json"


if __name__ == "__main__":
    build()
    print(f"corpus written under {HERE}")
