"""Writing the scenario set: the bundled game, its clips, the top view, the stress set and long games.

Each window is encoded once into a segment whose length is a whole number of GOPs (closed GOPs,
no B-frames), so the game video, the clips and the long benchmark game are all made by copying
the same packets with shifted timestamps: the encoder's work is paid once.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

import av
import numpy as np

from . import voice
from .game import Window, protocol, sample_game, truth
from .scenarios import Conditions, Stage, render_window, seats_json
from .writer import AUDIO_RATE, FPS, GOP, ClipWriter, audio_stream, write_audio

try:  # contract.jsonio is the project's one JSON writer; fall back where only sample_videos is installed
    from contract.jsonio import write_json
except ImportError:  # pragma: no cover
    import json

    def write_json(path, data) -> None:  # type: ignore[no-redef]
        Path(path).write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


STRESS: dict[str, tuple[str, Conditions]] = {
    "stress_small_720p": ("1280x720, tripod further back: vote hands 25-50 px",
                          Conditions(size=(1280, 720), distance=1.3, seed=11)),
    "stress_dark": ("1280x720, dim light and sensor noise", Conditions(size=(1280, 720), brightness=0.45, noise=5, seed=12)),
    "stress_noisy": ("1280x720, heavy sensor noise (sigma 12), encoded at crf 34",
                     Conditions(size=(1280, 720), noise=12, crf=34, seed=13)),
    "stress_compressed": ("1280x720, heavy H.264 compression (crf 40)", Conditions(size=(1280, 720), crf=40, seed=14)),
    "stress_blur_shake": ("1280x720, out of focus and a shaking camera",
                          Conditions(size=(1280, 720), blur=1.8, shake=6.0, seed=15)),
    "stress_clutter": ("1280x720, a wood table close to skin colour, glasses, phones and cards by the hands",
                       Conditions(size=(1280, 720), clutter=True, cloth="wood", seed=16)),
}
STRESS_WINDOW = "day1_vote_findings"

# The two-camera clip: day 1's vote filmed by the judge's tripod and by a second tripod at the far end of the
# table, 720p. A vase stands between the judge's tripod and seat 6's voting spot, so that seat's hand is seen
# only from the far end; the far end sees the judge's neighbours (1, 10) small. The far camera was started
# TWO_CAMERAS_LEAD seconds before the judge's (its offset: far time = protocol time + lead) and hears the same
# judge quieter, over a room hiss, so the two sync by sound.
TWO_CAMERAS = "two_cameras"
TWO_CAMERAS_COND = Conditions(size=(1280, 720), vase=6, crf=31, seed=17)
TWO_CAMERAS_VIEWS = {"judge": "tripod", "far": "far"}
TWO_CAMERAS_LEAD = 1.72
FAR_GAIN, FAR_HISS = 0.55, 0.004


@dataclass
class Segment:
    window: Window
    path: Path
    frames: int


def windows_of(items: list) -> list[Window]:
    return [i for i in items if isinstance(i, Window)]


def pad_to_gops(window: Window) -> Window:
    """Round the window up to whole GOPs so that segments can be joined by copying packets."""
    frames = -(-window.frames // GOP) * GOP
    window.duration = frames / FPS
    return window


def encode_segment(stage: Stage, window: Window, path: Path, seed: int, log: Callable[[str], None]) -> Segment:
    writer = ClipWriter(path, stage.cond.size, crf=stage.cond.crf, audio=False)
    for frame, _ in render_window(stage, window, seed):
        writer.write(frame)
    writer.close()
    log(f"  {window.name}: {writer.frames} frames")
    return Segment(window, path, writer.frames)


def join(parts: list[tuple[Path, int]], out: Path, audio: np.ndarray | None) -> int:
    """Copy the video packets of the given segments (each repeated n times) into one MP4, then the audio."""
    out.parent.mkdir(parents=True, exist_ok=True)
    first = av.open(str(parts[0][0]))
    container = av.open(str(out), "w", options={"movflags": "+faststart"})
    vstream = container.add_stream_from_template(first.streams.video[0])
    first.close()
    astream = audio_stream(container) if audio is not None else None
    frame_no = 0
    for path, repeat in parts:
        with av.open(str(path)) as src:
            stream = src.streams.video[0]
            packets = [p for p in src.demux(stream) if p.size]
            tb = stream.time_base
            ticks = int(Fraction(1, FPS) / tb)
            frames = len(packets)
            for _ in range(repeat):
                for p in packets:
                    p.pts = p.pts + frame_no * ticks
                    p.dts = p.dts + frame_no * ticks
                    p.stream = vstream
                    container.mux(p)
                    p.pts -= frame_no * ticks
                    p.dts -= frame_no * ticks
                frame_no += frames
    if astream is not None:
        write_audio(container, astream, audio, frame_no / FPS)
    container.close()
    return frame_no


def _audio(windows: list[Window], offsets: dict[str, float], duration: float, seed: int) -> np.ndarray:
    cues = [voice.Cue(c.kind, c.t + offsets[w.name], c.text, c.rate) for w in windows for c in w.cues]
    nights = [(offsets[w.name], offsets[w.name] + w.duration) for w in windows if w.night]
    return voice.mix(duration, cues, nights, seed)


def write_set(root: Path, name: str, video_rel: str, items: list, windows: list[Window], offsets: dict[str, float],
              seats: dict, game_id: str) -> None:
    folder = root
    write_json(folder / f"{name}.protocol.json", protocol(items, offsets, video_rel, game_id))
    write_json(folder / f"{name}.truth.json", truth(windows, offsets))
    write_json(folder / f"{name}.seats.json", seats)


def build_all(out_dir: Path, log: Callable[[str], None] = print, stress: bool = True,
              long_minutes: float | None = None, long_dir: Path | None = None, cutouts=None) -> None:
    """Render the bundled game (out_dir/game), its clips (out_dir/clips) and the stress set."""
    note = voice.available()
    if note:
        log(f"note: {note}")
    items = sample_game()
    windows = [pad_to_gops(w) for w in windows_of(items)]
    stage = Stage(Conditions(), cutouts)
    seats = seats_json(stage)
    with tempfile.TemporaryDirectory() as tmp:
        tmpdir = Path(tmp)
        log("rendering the sample game (1920x1080)")
        segments = [encode_segment(stage, w, tmpdir / f"{w.name}.mp4", 100 + i, log) for i, w in enumerate(windows)]
        offsets, clock = {}, 0.0
        for w in windows:
            offsets[w.name] = round(clock, 2)
            clock += w.duration
        game_dir = out_dir / "game"
        audio = _audio(windows, offsets, clock, 5)
        join([(s.path, 1) for s in segments], game_dir / "sample_game.mp4", audio)
        write_set(game_dir, "sample_game", "sample_game.mp4", items, windows, offsets, seats, "sample-game")
        clips = out_dir / "clips"
        for s in segments:
            w = s.window
            zero = {w.name: 0.0}
            join([(s.path, 1)], clips / f"{w.name}.mp4", _audio([w], zero, w.duration, 5))
            write_set(clips, w.name, f"{w.name}.mp4", items, [w], zero, seats, f"sample-game/{w.name}")
        if long_minutes:
            write_long_game(long_dir or out_dir / "long", long_minutes, items, windows, segments, stage, tmpdir, seats, log)
        log("rendering the top view")
        top = Stage(Conditions(camera="top", seed=21), cutouts)
        clean = next(w for w in windows if w.name == "day3_clean_vote")
        seg = encode_segment(top, clean, tmpdir / "top.mp4", 300, log)
        zero = {clean.name: 0.0}
        join([(seg.path, 1)], clips / "top_view_clean_vote.mp4", _audio([clean], zero, clean.duration, 5))
        write_set(clips, "top_view_clean_vote", "top_view_clean_vote.mp4", items, [clean], zero, seats_json(top),
                  "sample-game/top-view")
        if stress:
            source = next(w for w in windows if w.name == STRESS_WINDOW)
            for i, (name, (_, cond)) in enumerate(STRESS.items()):
                log(f"rendering {name}")
                st = Stage(cond, cutouts)
                seg = encode_segment(st, source, tmpdir / f"{name}.mp4", 400 + i, log)
                zero = {source.name: 0.0}
                join([(seg.path, 1)], clips / f"{name}.mp4", _audio([source], zero, source.duration, 5))
                write_set(clips, name, f"{name}.mp4", items, [source], zero, seats_json(st), f"sample-game/{name}")
        write_two_cameras(clips, items, [next(w for w in windows if w.name == STRESS_WINDOW)], log, cutouts)


def camera_files(name: str, camera: str) -> tuple[str, str]:
    """A camera's video and seat map file names: the first camera's are the set's own (NAME.mp4, NAME.seats.json),
    so every tool that knows one video reads the set as the judge's camera alone."""
    if camera == next(iter(TWO_CAMERAS_VIEWS)):
        return f"{name}.mp4", f"{name}.seats.json"
    return f"{name}.{camera}.mp4", f"{name}.{camera}.seats.json"


def two_camera_protocol(items: list, offsets: dict[str, float], name: str, game_id: str,
                        lead: float = TWO_CAMERAS_LEAD) -> dict:
    """The set's protocol: `video` is the judge's camera (protocol clock = its clock), `videos` names both."""
    data = protocol(items, offsets, camera_files(name, "judge")[0], game_id)
    data["videos"] = [{"id": cam, "path": camera_files(name, cam)[0], "offset": 0.0 if cam == "judge" else lead,
                       "seats": camera_files(name, cam)[1]} for cam in TWO_CAMERAS_VIEWS]
    return data


def far_audio(track: np.ndarray, lead: float, seed: int) -> np.ndarray:
    """What the far camera hears: the same room from `lead` seconds earlier, quieter, over its own hiss."""
    pad = np.zeros(int(round(lead * AUDIO_RATE)), np.float32)
    out = np.concatenate([pad, track.astype(np.float32)]) * FAR_GAIN
    out += np.random.default_rng(seed).normal(0.0, FAR_HISS, len(out)).astype(np.float32)
    return np.clip(out, -1.0, 1.0)


def write_two_cameras(folder: Path, items: list, windows: list[Window], log: Callable[[str], None], cutouts=None,
                      name: str = TWO_CAMERAS, cond: Conditions = TWO_CAMERAS_COND, seed: int = 500) -> None:
    """Render `windows` (back to back) from both cameras, the same hands frame for frame, into NAME.* and
    NAME.far.*, with the protocol naming both cameras, each camera's seat map, and the truth on the protocol's
    clock. The truth's `x_camera_views` says, per camera and truth hand, how many of the hand's pixels that
    camera shows at rest (the median over its frames, from the renderer's own masks: the vase's occlusion
    included)."""
    folder.mkdir(parents=True, exist_ok=True)
    offsets, clock = {}, 0.0
    for w in windows:
        offsets[w.name] = round(clock, 2)
        clock += w.duration
    voice_track = _audio(windows, offsets, clock, 5)
    tr = truth(windows, offsets)
    views = []
    for cam, kind in TWO_CAMERAS_VIEWS.items():
        log(f"rendering {name} from the {cam} camera")
        stage = Stage(replace(cond, camera=kind), cutouts)
        video, seats = camera_files(name, cam)
        lead = 0 if cam == "judge" else int(round(TWO_CAMERAS_LEAD * FPS))
        writer = ClipWriter(folder / video, cond.size, crf=cond.crf)
        shown: dict[int, dict[int, int]] = {}
        for k, w in enumerate(windows):
            first = round(offsets[w.name] * FPS)
            for i, (frame, masks) in enumerate(render_window(stage, w, seed + k, masks=True)):
                for _ in range(lead if writer.frames == 0 else 0):  # the far camera was already filming the table
                    writer.write(frame)
                writer.write(frame)
                for n, (_, _, patch) in masks.items():
                    shown.setdefault(n, {})[first + i] = int(patch.sum())
        writer.close(voice_track if cam == "judge" else far_audio(voice_track, TWO_CAMERAS_LEAD, 3))
        log(f"  {video}: {writer.frames} frames")
        write_json(folder / seats, seats_json(stage))
        hands = []
        for h in tr["hands"]:
            counts = [shown.get(h["seat"], {}).get(f, 0) for f in range(round(h["on"] * FPS), round(h["off"] * FPS))]
            hands.append({"seat": h["seat"], "on": h["on"], "visible_px": int(np.median(counts)) if counts else 0})
        views.append({"id": cam, "hands": hands})
    write_json(folder / f"{name}.protocol.json", two_camera_protocol(items, offsets, name, f"sample-game/{name}"))
    write_json(folder / f"{name}.truth.json", {**tr, "x_camera_views": views})


def build_two_cameras(out_dir: Path, log: Callable[[str], None] = print, cutouts=None) -> None:
    """Only the two-camera clip, into out_dir/clips (`python3 -m sample_videos two-cameras`)."""
    items = sample_game()
    window = next(pad_to_gops(w) for w in windows_of(items) if w.name == STRESS_WINDOW)
    write_two_cameras(out_dir / "clips", items, [window], log, cutouts)


def write_long_game(folder: Path, minutes: float, items: list, windows: list[Window], segments: list[Segment],
                    stage: Stage, tmpdir: Path, seats: dict, log: Callable[[str], None]) -> None:
    """The sample game stretched to `minutes`: its windows spread out, a still scene (the speeches) between."""
    log(f"writing a {minutes:g}-minute game")
    still = Window("still", "speeches", False, windows[0].living, duration=GOP / FPS)
    still_seg = encode_segment(stage, still, tmpdir / "still.mp4", 1, log)
    total = minutes * 60.0
    shown = sum(w.duration for w in windows)
    gap_gops = max(1, int((total - shown) / len(windows) * FPS / GOP))
    parts: list[tuple[Path, int]] = []
    offsets, clock = {}, 0.0
    for seg in segments:
        parts.append((still_seg.path, gap_gops))
        clock += gap_gops * GOP / FPS
        offsets[seg.window.name] = round(clock, 2)
        parts.append((seg.path, 1))
        clock += seg.window.duration
    audio = _audio(windows, offsets, clock, 5)
    join(parts, folder / "long_game.mp4", audio)
    write_set(folder, "long_game", "long_game.mp4", items, windows, offsets, seats, "sample-game/long")
    log(f"  long_game.mp4: {clock / 60:.1f} min")
