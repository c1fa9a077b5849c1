"""A game played live, as one thing the page and the command line hold: the source recording itself into the game's
folder, the table counting each vote (pipeline.live), and the protocol saved at every cue.

    game = LiveGame.begin(source, protocol=…, seats=…, folder=…)   # folder: new or empty
    game.table.name(6) · game.table.stop() · game.table.announce(5) · game.state()
    finished = game.finish()   # the joined recording, its protocol and seat map, ready for the review pages

The folder holds the recording's segments (`recording/`), NAME.protocol.json (rewritten at every cue: a crash
loses no cue), NAME.seats.json (the seat map the game was counted with) and, once finished, NAME.mp4. The protocol
names NAME.mp4 as its video from the start, so the finished folder opens as any other game, every time on the
recording's clock.
"""

from __future__ import annotations

import queue
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from contract.errors import UnreadableInput
from contract.i18n import _
from contract.jsonio import dumps, write_atomic, write_json
from contract.seats import load_seat_map
from pipeline.live import LiveState, LiveTable, ProtocolCues
from review.game.profiles import Profile, get_profile

RECORDING = "recording"
FIRST_PICTURE_S = 15.0  # a source that shows no picture this long after it opened is said to show none


@dataclass(frozen=True)
class Finished:
    """A live game's files once it is over: what `stopframe audit` and the review pages open."""

    video: Path
    protocol: Path
    seats: Path


def game_files(folder: Path, name: str) -> Finished:
    return Finished(folder / f"{name}.mp4", folder / f"{name}.protocol.json", folder / f"{name}.seats.json")


def interrupted(folder: Path) -> Finished | None:
    """The files of a live game whose recording was never joined (the computer or the program stopped during the
    game): its folder holds NAME.protocol.json and recorded segments, but no NAME.mp4. None for any other folder."""
    protocols = sorted(folder.glob("*.protocol.json")) if folder.is_dir() else []
    if len(protocols) != 1 or not any((folder / RECORDING).glob("segment_*.ts")):
        return None
    files = game_files(folder, protocols[0].name.removesuffix(".protocol.json"))
    return None if files.video.exists() else files


def finish_interrupted(folder: Path) -> Finished:
    """Join the recording of a game cut short into NAME.mp4: the game then opens as any other, every cue saved up to
    the end kept in its protocol."""
    from vision.live_source import join_recording

    files = interrupted(folder)
    if files is None:
        raise UnreadableInput(_("{folder}: no live game waiting to be finished here (a folder with NAME.protocol.json "
                                "and a recording, and no NAME.mp4 yet).", folder=folder))
    join_recording(folder / RECORDING, files.video)
    found_seats(files)
    return files


def found_seats(files: Finished) -> None:
    """A game played without a seat map gets the one found from the hands seen during its recorded votes
    (pipeline.seat_finding, the finder's evidence kept in `x_found`), so it opens for review as any game; a seat map
    already there is never touched."""
    if files.seats.exists():
        return
    from pipeline.seat_finding import find_game_seats

    write_json(files.seats, find_game_seats(files.video, files.protocol).to_json())


def live_protocol(protocol: dict[str, Any], name: str, *, replay: bool) -> dict[str, Any]:
    """The protocol the table starts from: the given one without its votes' times (`replay`: without any event,
    its events coming back as cues), naming the recording as its video."""
    base = {k: v for k, v in protocol.items() if k not in ("events", "videos")}
    base["video"] = {"path": f"{name}.mp4", "offset_s": 0.0}
    base["events"] = [] if replay else list(protocol.get("events") or ())
    return base


def replayable(protocol: dict[str, Any]) -> bool:
    """Whether the protocol holds a filmed game's timed votes, to be given back as the judge's cues."""
    return any(e.get("type") in ("vote", "lift_vote") and isinstance(e.get("cutoff"), (int, float))
               for e in protocol.get("events") or () if isinstance(e, dict))


class LiveGame:
    """The source, the table and the folder of one game played live."""

    def __init__(self, source: Any, table: LiveTable, files: Finished, folder: Path,
                 cues: ProtocolCues | None) -> None:
        self.source, self.table, self.files, self.folder, self.cues = source, table, files, folder, cues
        self.finished: Finished | None = None
        self._latest: Any = None  # the newest picture, for the judge who looks at the camera's view

    @classmethod
    def begin(cls, source: str, *, protocol: dict[str, Any], seats: str | Path | None, folder: Path, name: str,
              rules: str | None = None, model: str = "full", speed: float | None = 1.0) -> LiveGame:
        """Open the source, start recording into `folder` (new or empty) and counting. A protocol with a filmed
        game's timed votes is replayed: its entries come back as the judge's cues at their times. Without `seats`
        the cues are kept with their times but no hand is counted at the table; the seats are found from the hands
        of the recorded votes when the game is finished."""
        from vision.live_source import LiveSource

        if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
            raise UnreadableInput(_("{folder}: a live game is recorded into a new or empty folder, and this one holds "
                                    "files already; give another folder.", folder=folder))
        profile: Profile = get_profile(rules or str(protocol.get("rules") or ""))
        replay = replayable(protocol)
        files = game_files(folder, name)
        live = LiveSource(source, folder / RECORDING, speed=speed)
        try:
            meta = live.meta
            seat_map = load_seat_map(seats).scaled_to(meta.width, meta.height, source) if seats else None
            folder.mkdir(parents=True, exist_ok=True)  # once the source is open: a refused start leaves nothing
            if seats:
                shutil.copyfile(seats, files.seats)
            start = live_protocol(protocol, name, replay=replay)
            write_atomic(files.protocol, dumps(start))
            table = LiveTable(start, seat_map, profile, fps=meta.fps, model=model,
                              on_change=lambda data: write_atomic(files.protocol, dumps(data)))
        except BaseException:
            live.close()
            raise
        game = cls(live, table, files, folder, ProtocolCues(protocol) if replay else None)
        table.start()
        live.start(game._frame, table.source_ended, table.hear)
        return game

    def _frame(self, picture: Any) -> None:
        self._latest = picture
        if self.cues is not None:
            self.cues.until(self.table, picture.t)
        self.table.feed(picture)

    def picture(self) -> bytes | None:
        """The newest picture with the seat zones drawn on it (JPEG), None before the first one."""
        latest = self._latest
        return None if latest is None else with_zones(latest.image, self.table.seat_map)

    def state(self) -> LiveState:
        if self.table.error is not None:
            raise UnreadableInput(_("The live count stopped: {why}", why=self.table.error))
        return self.table.state()

    def finish(self) -> Finished:
        """The game is over: the source closed, the last round counted, the recording joined into NAME.mp4."""
        from vision.live_source import join_recording

        if self.finished is not None:
            return self.finished
        self.source.close()
        self.table.close()
        join_recording(self.folder / RECORDING, self.files.video)
        write_atomic(self.files.protocol, dumps(self.table.protocol()))
        found_seats(self.files)
        self.finished = self.files
        return self.files


def with_zones(image: Any, seat_map: Any) -> bytes:
    """A picture with the seat map's zones drawn on it, as JPEG: what the judge checks the camera against."""
    from vision.overlay import draw_overlay, encode_jpeg

    return encode_jpeg(draw_overlay(image, seat_map=seat_map), 80)


def camera_picture(source: str, seats: str | Path | None) -> bytes:
    """The source's first picture with the seat map's zones on it (without a map, the picture alone), before the
    game: the judge sees that it is the right camera and that every seat's hands rest in its zone. Nothing is kept;
    a source that cannot be opened, a seat map of another picture's shape or a source that shows no picture is
    refused with one sentence."""
    from vision.live_source import LiveSource

    with tempfile.TemporaryDirectory(prefix="stopframe-look-") as tmp:
        live = LiveSource(source, Path(tmp) / RECORDING, speed=None)
        try:
            seat_map = load_seat_map(seats).scaled_to(live.meta.width, live.meta.height, source) if seats else None
            came: queue.Queue[Any] = queue.Queue()
            live.start(came.put, came.put)
            try:
                first = came.get(timeout=FIRST_PICTURE_S)  # the first picture, or why the source ended without one
            except queue.Empty:
                first = None
        finally:
            live.close()
    if first is None or isinstance(first, str):
        raise UnreadableInput(first or _("{source}: no picture came from it in {seconds} s.", source=source,
                                         seconds=int(FIRST_PICTURE_S)))
    return with_zones(first.image, seat_map)
