"""Where a seat map meets a video (or the hands seen on one), and what is said when they do not belong together.

A seat map's zones are pixels of one camera's picture. Spec §2 scales a map to another frame size of the same
aspect ratio (a phone's copy of the game is often stored smaller than the original the map was drawn on), so a
map of another size is used, never silently: the judge is told both sizes and asked to check it is this
camera's map, since another camera's map of the same shape would scale too and read hands where no seat sits.
A map of another aspect ratio cannot be this picture's and is refused. Every place that puts a map beside a
video — `stopframe audit`, `observe`, `draft`, every game of a batch or a tournament, every camera of a game
filmed from several, and the app's open — asks here, and only here:

- the map's `frame_size` against the video's own upright size: the same (silent), scaled (a warning), or of
  another shape (refused, one sentence naming both sizes, as spec §2 says);
- where saved observations are given, at least one hand seen must lie in a zone of the map (the hands'
  seats were read through the map they were observed with; a map with none of those zones is another's);
- a scaled map is then held to what it reads: where the hands seen through it disagree with the protocol's
  count on more than half of the counted votes (of a game of at least MIN_VOTES_TO_JUDGE), it is refused as
  another camera's (a judge's counts are wrong now and then, not on most votes of a game; a map of the right
  camera agrees with nearly all of them).

`seats --replace` refuses to overwrite a map of another size: it may be another camera's, and a judge's file
is never replaced on a guess.
"""

from __future__ import annotations

import os
from pathlib import Path

from contract.errors import InvalidInput, StopframeError, UnreadableInput
from contract.i18n import _, ngettext
from contract.observations import Observations
from contract.seats import SeatMap
from review.audit.findings import AuditReport
from review.audit.tally import tally

Size = tuple[int, int]
MIN_VOTES_TO_JUDGE = 5  # a clip of a few votes may hold a judge's miscounts on most of them: too few to tell a map by


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
                          size: Size | None = None) -> str | None:
    """None where the map was drawn on `video`'s picture size (or there is no video here to compare with); the
    warning sentence where it is scaled from another size of the same shape; InvalidInput for another shape.
    `size`: the video's size where the caller has it open already; else it is read from the file."""
    size = size if size is not None else video_size(video)
    if size is None or tuple(seat_map.frame_size) == tuple(size):
        return None
    (w0, h0), (width, height) = seat_map.frame_size, size
    seat_map.scaled_to(width, height, str(video))  # another shape: refused there, as the observer refuses it
    return _("{seats}: this seat map was drawn on a {w0}x{h0} picture and is scaled to the video {video} "
             "({width}x{height}); a map drawn on this video has its size, so check it is this camera's map.",
             seats=seats, w0=w0, h0=h0, video=video, width=width, height=height)


def check_replaced_map_fits(old: SeatMap, seats: str | os.PathLike[str], video: str | os.PathLike[str]) -> None:
    """UnreadableInput where `seats --replace` would overwrite a map drawn on another picture size than `video`'s."""
    size = video_size(video)
    if size is None or tuple(old.frame_size) == tuple(size):
        return
    (w0, h0), (width, height) = old.frame_size, size
    raise UnreadableInput(_("{seats}: this seat map was drawn on a {w0}x{h0} picture, but the video {video} is "
                            "{width}x{height}: it is the map of another camera or another video; mark the seats on "
                            "this video.", seats=seats, w0=w0, h0=h0, video=video, width=width, height=height))


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


def check_scaled_map_reads(report: AuditReport, note: str | None, seats: str | os.PathLike[str]) -> None:
    """InvalidInput where a map scaled from another picture size (`note`: check_seats_fit_video's warning, None for
    a map of the video's own size) reads counts that disagree with the protocol's on most counted votes: the
    count mismatches of the one tally every surface shows (review.audit.tally)."""
    if note is None:
        return
    counted = [t for t in map(tally, report.votes) if t.protocol is not None and t.known]
    off = [t for t in counted if t.mismatch]
    if len(counted) < MIN_VOTES_TO_JUDGE or 2 * len(off) <= len(counted):
        return
    raise InvalidInput(ngettext(
        "{seats}: the hands this scaled seat map reads disagree with the protocol's count on {n} of {total} vote, "
        "so it is another camera's or another video's map; mark the seats on this video. ({note})",
        "{seats}: the hands this scaled seat map reads disagree with the protocol's count on {n} of {total} votes, "
        "so it is another camera's or another video's map; mark the seats on this video. ({note})",
        len(counted), seats=seats, n=len(off), total=len(counted), note=note))
