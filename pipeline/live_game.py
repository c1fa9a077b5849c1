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
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from contract.errors import StopframeError, UnreadableInput
from contract.i18n import _
from contract.jsonio import dumps, write_atomic, write_json
from contract.seats import load_seat_map
from pipeline.live import VOTE_TYPES, LiveState, LiveTable
from pipeline.live_cues import ProtocolCues
from review.game.profiles import Profile, get_profile
from review.game.timeline import WINDOW_TAIL_S

if TYPE_CHECKING:
    from vision.seat_finder import FoundMap

RECORDING = "recording"
FIRST_PICTURE_S = 15.0  # a source that shows no picture this long after it opened is said to show none
SEGMENTS_BEHIND_S = 4.0  # the recording's closed segments reach this far behind the newest frame (two segments)


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
        self.seats_said: str | None = None  # how the seats of a game begun without a map are being found, or were
        self._finder: threading.Thread | None = None
        self._ending = False  # finish() has begun: a seat map found now is kept, but nothing more is counted

    @classmethod
    def begin(cls, source: str, *, protocol: dict[str, Any], seats: str | Path | None, folder: Path, name: str,
              rules: str | None = None, model: str = "full", speed: float | None = 1.0) -> LiveGame:
        """Open the source, start recording into `folder` (new or empty) and counting. A protocol with a filmed
        game's timed votes is replayed: its entries come back as the judge's cues at their times. Without `seats`
        the cues are kept with their times, and the seats are found from the hands of the first day's votes once
        that day is over (or at the finish), the later rounds counted from then on."""
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
            table = LiveTable(start, seat_map, profile, fps=meta.fps, model=model)
        except BaseException:
            live.close()
            raise
        game = cls(live, table, files, folder, ProtocolCues(protocol) if replay else None)
        table.on_change = game._saved
        table.start()
        live.start(game._frame, table.source_ended, table.hear)
        return game

    def _saved(self, data: dict[str, Any]) -> None:
        """A cue given: the protocol saved at once; a game begun without a seat map has its seats found once its
        first voting day is over, in the background, and is counted from then on."""
        write_atomic(self.files.protocol, dumps(data))
        day = first_day_over(data)
        if self.table.seat_map is None and self._finder is None and day is not None:
            self._finder = threading.Thread(target=self._find_seats, args=(data, day), name="live-seats",
                                            daemon=True)
            self._finder.start()

    def _find_seats(self, data: dict[str, Any], day: int) -> None:
        """The seats found from the hands of the first day's votes in the recording's stretch of them
        (seats_from_recording), written as NAME.seats.json and counted with from the next round on."""
        from pipeline.seat_finding import finder_windows

        windows, _living = finder_windows(data)
        if not windows:  # the day's votes are lift votes only: the finish finds the seats from the whole game
            return
        ready = max(w.announced or 0.0 for w in windows) + WINDOW_TAIL_S + SEGMENTS_BEHIND_S
        while self.table.now() < ready:  # the votes' frames are in segments closed for good
            if self._ending or self.table.state().ended is not None:
                return  # the game is over first: the seats are found at the finish
            time.sleep(0.5)
        self.seats_said = _("Finding the seats from the hands of day {day}'s votes…", day=day)
        try:
            found = seats_from_recording(self.folder / RECORDING, data, min(w.t for w in windows))
            if not self.files.seats.exists():
                write_json(self.files.seats, found.to_json())
            if not self._ending:
                self.table.count_with(found.seat_map)
                self.seats_said = _("The seats were found from the hands of day {day}'s votes: each vote is counted "
                                    "from the next round on.", day=day)
        except StopframeError as exc:
            self.seats_said = _("The seats could not be found from day {day}'s votes ({why}); they are looked for "
                                "again when the game ends.", day=day, why=str(exc).rstrip("."))

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
        self._ending = True
        self.source.close()
        self.table.close()
        if self._finder is not None:
            self._finder.join()  # a seat map being found mid-game is kept, not found twice
        join_recording(self.folder / RECORDING, self.files.video)
        write_atomic(self.files.protocol, dumps(self.table.protocol()))
        found_seats(self.files)
        self.finished = self.files
        return self.files


def seats_from_recording(record_dir: Path, data: dict[str, Any], first_vote: float) -> FoundMap:
    """The seat map found from a recording under way, as `stopframe seats` finds it from the game's video: only
    the stretch from just before `first_vote` (the first timed vote's naming, on the recording's clock) is joined,
    in a temporary folder, and the protocol's times are moved onto that stretch's clock (video.offset_s). Why:
    after an hour's speeches the recording so far is gigabytes, of which the votes need a minute."""
    from pipeline.seat_finding import find_game_seats
    from vision.live_source import join_since
    from vision.seat_finder import BEFORE_S  # each vote is set against a picture this long before its naming

    with tempfile.TemporaryDirectory(prefix="stopframe-seats-") as tmp:
        stretch = Path(tmp) / "recording.mp4"
        begins = join_since(record_dir, stretch, first_vote - BEFORE_S - 1.0)
        video = data.get("video") or {}
        protocol = Path(tmp) / "recording.protocol.json"
        write_atomic(protocol, dumps({**data, "video": {**video, "path": stretch.name,
                                                        "offset_s": float(video.get("offset_s") or 0.0) - begins}}))
        return find_game_seats(stretch, protocol)


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


def first_day_over(data: dict[str, Any]) -> int | None:
    """The protocol's first day of timed votes once it is over (the night after it has begun, or a later day's vote
    has been named, and every vote of that day announced: the seat finder reads no protocol with a count-less
    vote); None before."""
    events = data.get("events") or []
    timed = [k for k, e in enumerate(events) if e.get("type") in VOTE_TYPES and "t" in e]
    first = events[timed[0]].get("day") if timed else None
    day_votes = [k for k in timed if events[k].get("day") == first]
    if not isinstance(first, int) or any("count" not in events[k] for k in day_votes):
        return None
    later = any(events[k].get("day") != first for k in timed)
    after = events[day_votes[-1] + 1:]
    night = any(e.get("type") == "phase" and (e.get("phase"), e.get("number")) in (("night", first), ("day", first + 1))
                for e in after)
    return first if later or night else None
