"""A protocol's missing vote times from the judge's voice: video → sound track → the judge's cues → aligned
protocol (`stopframe align`).

    checked_protocol(path) -> Protocol;  align_game(protocol, video=…, stop_at=…, progress=…) -> GameAlignment

The wiring only: the sound is read and listened to by `vision.audio` and `vision.cues` (imported when a video
is really heard, so `stopframe validate` never loads an audio library), the cues matched to the protocol by
`review.audit.align`. `heard_cues` is the one conversion of what vision heard into review's cues (the draft's too).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from contract.clock import Clock
from contract.errors import InvalidInput, UnreadableInput
from contract.i18n import _, number, term
from pipeline.observer import Say
from review.audit.align import VOTE_TYPES, Alignment, VoteCue, align_protocol, votes_on_video
from review.game.protocol import Protocol, format_problems, load_protocol, resolve_video_path

__all__ = ["VOTE_TYPES", "GameAlignment", "align_game", "checked_protocol", "heard_cues"]


@dataclass(frozen=True)
class GameAlignment:
    """The aligned protocol (review.audit.align's fit and proposals) and how many vote cues were heard."""

    result: Alignment
    heard: int


def checked_protocol(path: str | os.PathLike[str]) -> Protocol:
    """The protocol to align; InvalidInput (exit 1) where its format is broken, naming the first problem."""
    protocol = load_protocol(path)
    problems = format_problems(protocol.data)
    if problems:
        first = problems[0]
        raise InvalidInput(
            _("{path}: the protocol's format is broken at {place}: {message} ({n} problem(s); run `stopframe validate`).",
              path=path, place=first.path, message=first.message, n=len(problems))
        )
    return protocol


def heard_cues(votes: Sequence[Any]) -> list[VoteCue]:
    """vision.cues' heard votes (closing word, call, count, each with its score) as review's vote cues."""
    return [VoteCue(cutoff=v.cutoff.t, cutoff_score=v.cutoff.score,
                    t=v.call.t if v.call else None, t_score=v.call.score if v.call else 0.0,
                    announced=v.announced.t if v.announced else None,
                    announced_score=v.announced.score if v.announced else 0.0) for v in votes]


def align_game(protocol: Protocol, video: str | os.PathLike[str] | None = None, *, stop_at: float | None = None,
               progress: Say | None = None) -> GameAlignment:
    """Listen to the video's sound track (default: the protocol's `video.path`) for the judge's closing words,
    calls and counts, and propose the protocol's missing vote times from them. `stop_at`: the video time of one
    closing word, matched across the game."""
    from vision.audio import read_audio
    from vision.cues import features, listen

    say = progress or (lambda _msg: None)
    path = Path(video) if video else resolve_video_path(protocol)
    say(_("align: reading the audio of {video} …", video=path))
    track = read_audio(path)
    say(_("align: {seconds} s of audio; looking for the judge's cues …", seconds=f"{track.duration:.0f}"))
    if stop_at is not None and not track.start <= stop_at <= track.end:  # else silently learnt from the protocol
        raise UnreadableInput(_("--stop-at {t}: the video's sound runs from {start} to {end} s; give the second a closing "
                                "word is heard at.", t=number(stop_at), start=number(track.start, 1),
                                end=number(track.end, 1)))
    feats = features(track)
    on_video = Clock.of_protocol(protocol.data)
    hints = [on_video.video_time(e["cutoff"]) for e in protocol.events
             if e.get("type") in VOTE_TYPES and isinstance(e.get("cutoff"), int | float)]
    expected = votes_on_video(protocol.data, track.start, track.end)  # a clip's protocol holds the whole game
    heard = listen(feats, marked=stop_at, hints=hints, expected=expected, weak=True)
    sure = sum(v.confident for v in heard.votes)
    say(_("align: {words} closing word(s) heard ({sure} after a usual call; {how}), {nights} night(s) of music.",
          words=len(heard.votes), sure=sure, how=term("closing_word", heard.source), nights=len(heard.nights)))
    result = align_protocol(protocol.data, heard_cues(heard.votes), [(n.start, n.end) for n in heard.nights])
    return GameAlignment(result, len(heard.votes))
