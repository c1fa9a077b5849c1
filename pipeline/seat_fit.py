"""Where a seat map meets a video (or the hands seen on one), and is refused when it belongs to another.

A seat map's zones are pixels of one camera's picture. Drawn on another camera, or on another video, they
still parse, still fit inside a frame of the same shape once scaled, and the audit then reads hands where no
seat sits: dozens of confident findings about a table nobody looked at. So every place that puts a map
beside a video — `stopframe audit`, `observe`, `draft`, `seats --replace`, every game of a batch or a
tournament, every camera of a game filmed from several, and the app's open — asks here, and only here:

- the map's `frame_size` must be the video's own upright size (a map drawn on this video has it exactly);
- where saved observations are given, at least one hand seen must lie in a zone of the map (the hands'
  seats were read through the map they were observed with; a map with none of those zones is another's).

Each refusal is one sentence naming both files (spec §6), exit 2: the files given do not belong together.
"""

from __future__ import annotations

import os
from pathlib import Path

from contract.errors import StopframeError, UnreadableInput
from contract.i18n import _, ngettext
from contract.observations import Observations
from contract.seats import SeatMap

Size = tuple[int, int]


def video_size(video: str | os.PathLike[str] | None) -> Size | None:
    """The video's upright picture size, or None where there is no readable video here to compare with
    (its own reader then says what is wrong with it, or the audit runs from observations alone)."""
    if video is None or not Path(video).is_file():
        return None
    try:
        from vision.video import open_video

        with open_video(video) as source:
            return int(source.meta.width), int(source.meta.height)
    except (ImportError, StopframeError, OSError):
        return None


def check_seats_fit_video(seat_map: SeatMap, seats: str | os.PathLike[str], video: str | os.PathLike[str] | None,
                          size: Size | None = None) -> None:
    """UnreadableInput when the map was drawn on a picture of another size than `video`'s (`size`: the video's
    size where the caller has it already open; else it is read from the file)."""
    size = size if size is not None else video_size(video)
    if size is None or tuple(seat_map.frame_size) == tuple(size):
        return
    (w0, h0), (width, height) = seat_map.frame_size, size
    raise UnreadableInput(_("{seats}: this seat map was drawn on a {w0}x{h0} picture, but the video {video} is "
                            "{width}x{height}: it is the map of another camera or another video; mark the seats on "
                            "this video.", seats=seats, w0=w0, h0=h0, video=video, width=width,
                            height=height))


def check_seats_fit_hands(seat_map: SeatMap, seats: str | os.PathLike[str], seen: Observations,
                          observations: str | os.PathLike[str]) -> None:
    """UnreadableInput when the observations saw hands and not one of them is at a seat the map has a zone for."""
    hand_seats = sorted({h.seat for h in seen.hands})
    if not hand_seats or any(s in seat_map.seats for s in hand_seats):
        return
    raise UnreadableInput(ngettext(
        "{seats}: no hand seen in {observations} ({n} hand, at seats {hand_seats}) is in a zone of this seat map "
        "(its zones: {zones}): the map is another camera's or another video's.",
        "{seats}: no hand seen in {observations} ({n} hands, at seats {hand_seats}) is in a zone of this seat map "
        "(its zones: {zones}): the map is another camera's or another video's.",
        len(seen.hands), seats=seats, observations=Path(str(observations)).name,
        hand_seats=", ".join(map(str, hand_seats)), zones=", ".join(map(str, sorted(seat_map.seats))) or "—"))
