"""A game's votes drafted from its video: partial protocol → the judge's voice → the seats → the hands → draft.

    draft_game(video=…, protocol=…, seats=…, rules=…, observations=…, observer=…) -> GameDraft

The wiring only: the cues come from `vision.cues` (read as `stopframe align` reads them: pipeline.align), the seat
map is the given one or the one found during the heard votes (`vision.seat_finder`, as `stopframe seats` finds
it), the hands from the pipeline's observer (as `stopframe audit` looks), and the drafting itself is
`review.audit.draft`.
The nights' shots come from the saved observations' night reading (`stopframe audit --nights`), drafted by
`review.audit.draft_nights`; without saved observations no night is read.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from contract.errors import InvalidInput, UnreadableInput
from contract.i18n import _, ngettext, number
from contract.observations import Observations, observations_from_json, read_observations
from contract.pace import ROUND_SPAN_S
from contract.seats import SeatMap, load_seat_map
from contract.spans import merged
from pipeline.align import heard_cues
from pipeline.observer import VISION, Observer, Say, every_tenth
from pipeline.seat_fit import check_seats_fit_hands, check_seats_fit_video
from review.audit.align import VOTE_TYPES, VoteCue
from review.audit.audit import audit
from review.audit.draft import (
    Draft,
    cues_to_look_at,
    draft_votes,
    listening_spans,
    partial_problems,
    refusals,
)
from review.audit.draft_nights import (
    NO_NIGHT,
    NOT_OBSERVED,
    NightsRead,
    read_shootings,
    timed_shootings,
    with_shots,
)
from review.audit.inputs import check_observations_fit
from review.audit.night import night_windows, observe_spans
from review.game.engine import initial_state, step
from review.game.profiles import Profile, get_profile
from review.game.protocol import load_protocol, validate
from review.game.timeline import WINDOW_LEAD_S, WINDOW_TAIL_S, label_words

if TYPE_CHECKING:
    from vision.audio import AudioTrack


@dataclass(frozen=True)
class FoundSeats:
    """How far to trust a seat map the draft found from the video itself: the voters it proposes follow that map's
    numbering and zones, which the judge should check where the finder was unsure."""

    outline: bool  # the table's outline was found: it sets the ring the chairs are numbered round
    guessed: tuple[int, ...] = ()  # seats no hand rested at during the votes heard: zones guessed between neighbours

    def to_json(self) -> dict[str, Any]:
        return {"outline": self.outline, "guessed": list(self.guessed)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> FoundSeats:
        return cls(bool(data.get("outline")), tuple(int(n) for n in data.get("guessed") or ()))

    def words(self) -> list[str]:
        """What the judge should check before accepting the voters, one sentence each (none where all is sure)."""
        said = []
        if not self.outline:
            said.append(_("The seats were found from the video without the table's outline (no table top of one "
                          "colour round the hands): their numbers follow the ring of resting hands and may be a "
                          "chair off. Check the seat map on the picture before accepting the voters."))
        if self.guessed:
            said.append(ngettext(
                "Seat {seats}: no hand rested there during the votes heard, so its zone is guessed between its "
                "neighbours'; a vote from it may be missed.",
                "Seats {seats}: no hand rested there during the votes heard, so their zones are guessed between "
                "their neighbours'; a vote from them may be missed.",
                len(self.guessed), seats=", ".join(map(str, self.guessed))))
        return said


@dataclass
class GameDraft:
    """The draft and how it was made (for the judge's summary)."""

    draft: Draft
    heard: bool  # whether the judge's voice was heard at all
    cues: int
    found_seats: FoundSeats | None  # how sure the seat map found from the video is (None: the judge gave one)
    nights: NightsRead  # the nights' shots as the saved observations show them (also in the draft's x_ fields)
    found_map: SeatMap | None = None  # the seat map found from the video, for auditing the game once it is typed
    seen: Observations | None = None  # the hands the draft looked at itself (None: it read saved observations)


@dataclass(frozen=True)
class Heard:
    """What the draft heard on the sound track: the vote cues, the nights the music marks, whether a voice was heard
    at all, and the sound it read (the nights' counts are listened for in it, not decoded again)."""

    cues: list[VoteCue]
    nights: list[tuple[float, float]]
    voice: bool
    tracks: list[AudioTrack]


def _cues(video: Path, expected: int, say: Say, spans: list[tuple[float, float]] | None = None) -> Heard:
    """The vote cues and night music heard on the video (only in `spans` where given: the stretches the timed
    phases leave the votes); none, said in one sentence, where there is no voice."""
    from vision.audio import NoSound, read_audio, read_audio_parts
    from vision.cues import listen_parts

    say(_("draft: reading the audio of {video} …", video=video.name))
    try:
        tracks = read_audio_parts(video, spans) if spans else [read_audio(video)]
    except NoSound:  # a file that is no video at all is refused, not drafted from as if silent
        say(_("draft: {path}: the video has no sound, so no vote times can be heard; only the hands are proposed.",
              path=video))
        return Heard([], [], False, [])
    if len(tracks) > 1 or tracks[0].start > 0.5:
        say(ngettext("draft: listening to {n} stretch ({seconds} s) of the sound track, where the timed phases leave the votes.",
                     "draft: listening to {n} stretches ({seconds} s) of the sound track, where the timed phases leave the votes.",
                     len(tracks), seconds=number(sum(t.duration for t in tracks), 0, fixed=True)))
    heard = listen_parts(tracks, expected=expected or None, weak=True)  # a clip holding fewer: listen retries
    if not heard.votes:
        say(_("draft: {path}: the judge's voice cannot be heard on the sound track; only the hands are proposed.",
              path=video))
        return Heard([], [], False, tracks)
    say(_("draft: {votes} vote(s) heard, {nights} night(s) of music.", votes=len(heard.votes), nights=len(heard.nights)))
    return Heard(heard_cues(heard.votes), [(n.start, n.end) for n in heard.nights], True, tracks)


def votes_to_hear(data: dict[str, Any]) -> int:
    """About how many votes the judge's voice should give: up to twice the nominations of each day the PARTIAL has
    no vote for (a revote and a lift vote may follow the first round), plus its votes still without a count. The
    closing word is looked for among the words said about that often: too few would favour a rarer word (the
    count's «голоса»), and a clip's history, voted before it, is not on its sound track. A game without its result
    is a sheet typed part-way: its video holds the votes of days not typed yet, so their number is not known (0)."""
    events = data.get("events", [])
    if not any(e.get("type") == "result" for e in events):
        return 0
    voted = {e.get("day") for e in events if e.get("type") in VOTE_TYPES}
    open_days = sum(1 for e in events if e.get("type") == "nomination" and e.get("day") not in voted)
    return 2 * open_days + sum(1 for e in events if e.get("type") in VOTE_TYPES and "count" not in e)


def _windows(cues: list[VoteCue], data: dict[str, Any]) -> list[tuple[float, float]]:
    """The stretches to look at: each heard vote from before its call to after its count, and the votes the judge
    timed; those closer than a round's candidates are merged (the audit reads a round only where one stretch
    covers all of it, and observing a frame twice buys nothing)."""
    spans = [((c.t if c.t is not None else c.cutoff - 1.5) - WINDOW_LEAD_S,
              (c.announced if c.announced is not None else c.cutoff + 1.0) + WINDOW_TAIL_S) for c in cues]
    offset = float((data.get("video") or {}).get("offset_s") or 0.0)
    for e in data.get("events", []):
        times = [e[k] for k in ("t", "cutoff", "announced") if isinstance(e.get(k), int | float)]
        if e.get("type") in VOTE_TYPES and times:
            spans.append((offset + min(times) - WINDOW_LEAD_S, offset + max(times) + 2.5 + WINDOW_TAIL_S))
    return merged(((max(0.0, a), b) for a, b in spans), ROUND_SPAN_S)


def _found_seats(video: Path, cues: list[VoteCue], say: Say) -> tuple[SeatMap, FoundSeats]:
    """The seat map found from the hands resting during the heard votes (the whole video where none was heard),
    and how far to trust it."""
    from vision.seat_finder import Window, look, seats_from

    windows = [Window(c.t if c.t is not None else c.cutoff - 1.5, c.cutoff,
                      c.announced if c.announced is not None else c.cutoff + 1.0, label=_("vote {n}", n=n + 1))
               for n, c in enumerate(cues)]
    if windows:
        say(ngettext("draft: no seat map given; finding the seats from {n} heard vote …",
                     "draft: no seat map given; finding the seats from {n} heard votes …", len(windows)))
    else:
        say(_("draft: no seat map given; finding the seats from the whole video, no heard vote …"))
    found = seats_from(look(str(video), windows, progress=every_tenth(say, _("draft: seats:"))))
    say(_("draft: seats found ({n} not placed).", n=len(found.unfound)))
    guessed = tuple(sorted(n for n in found.unfound if n in found.seat_map.seats))
    return found.seat_map, FoundSeats(found.table is not None, guessed)


def draft_game(*, video: str | os.PathLike[str], protocol: str | os.PathLike[str],
               seats: str | os.PathLike[str] | None = None, rules: str | None = None,
               observations: str | os.PathLike[str] | None = None, model: str = "full",
               progress: Say | None = None, observer: Observer = VISION,
               nights_of: dict[str, Any] | None = None, look_at_nights: bool = False) -> GameDraft:
    """Everything `stopframe draft` does for one game. Raises InvalidInput (exit 1) for a PARTIAL the rules refuse
    or a draft that cannot be made valid (every problem in the message), UnreadableInput (exit 2) for a file
    that cannot be read. `nights_of`: the protocol whose shootings the nights are read for (default: the
    PARTIAL's; a sheet passes one with every night it shows). `look_at_nights`: without saved observations, read the
    nights' shots from the video itself, in the nights the music marks (slower; the seat map needs raise zones)."""
    say = progress or (lambda _msg: None)
    video_path = Path(video)
    if not video_path.is_file():
        raise UnreadableInput(_("{path}: cannot read the video: no such file.", path=video_path))
    proto = load_protocol(protocol)
    problems = partial_problems(proto.data)
    if problems:
        raise InvalidInput(_("{path}: {problem} — run `stopframe validate` for every problem.", path=protocol,
                             problem=problems[0]))
    profile = get_profile(rules or proto.rules)
    refused = refusals(proto.data, profile)
    if refused:
        raise InvalidInput(_("{path}: a nomination the rules refuse, so no vote can be drafted on it: {problems}",
                             path=protocol, problems="; ".join(refused)))
    expected = votes_to_hear(proto.data)
    given = load_seat_map(seats) if seats is not None else None
    if seats is not None and given is not None:  # refused before the audio is listened to
        note = check_seats_fit_video(given, seats, video_path)
        if note:
            say(note)
    obs_json = read_observations(observations) if observations is not None else None
    heard = _cues(video_path, expected, say, listening_spans(proto.data, profile))  # a file that is no video: refused
    if observations is not None:
        saved = observations_from_json(obs_json, observations)
        # of this video (its name, version and frame rate), as the audit asks; the votes they cover are what it drafts
        check_observations_fit(saved, obs_json, observations, proto.data, rounds=[], video_name=video_path.name,
                               video_file=video_path, video_clock=observer.video_clock(video_path))
    nights = heard.nights
    cues = cues_to_look_at(proto.data, heard.cues, nights, profile)
    seat_map, found = (given, None) if given is not None else _found_seats(video_path, cues, say)
    if observations is not None:
        seen = saved
        if seats is not None:
            check_seats_fit_hands(seat_map, seats, seen, observations)
    else:
        windows = _windows(cues, proto.data)
        say(ngettext("draft: looking at {n} stretch ({seconds} s) of {video}",
                     "draft: looking at {n} stretches ({seconds} s) of {video}", len(windows),
                     seconds=number(sum(b - a for a, b in windows), 1, fixed=True), video=video_path.name))
        seen = observer.day(video_path, seat_map, windows, model=model, progress=every_tenth(say, _("draft: looked at")))

    def audit_of(data: dict[str, Any], seen: Observations = seen) -> Any:
        return audit(data, seen, profile=profile, visible_seats=set(seat_map.seats), video=video_path.name)

    result = draft_votes(proto.data, cues, nights, profile, audit_of)
    left = validate(result.data)
    if left:
        why = _("{path}: the draft cannot be made valid ({n} problem(s)): {problems}", path=protocol, n=len(left),
                problems="; ".join(str(p) for p in left))
        if result.untimed:  # most often the reason: a vote the sheet lists, uncounted, that the video does not show
            why = why.rstrip(".") + ". " + _(
                "No time was heard on the video for these votes, so no hands could be counted for them: {votes}. "
                "Type their counts on the sheet, or draft with a video that holds them.",
                votes="; ".join(map(label_words, result.untimed)))
        raise InvalidInput(why)
    say(ngettext("draft: {n} vote event added, {untimed} left untimed, under {profile}.",
                 "draft: {n} vote events added, {untimed} left untimed, under {profile}.", result.added,
                 untimed=len(result.untimed), profile=profile.id))
    if obs_json is None and look_at_nights:
        shootings = _nights_seen(video_path, seat_map, heard, nights_of or proto.data, profile, model, say, observer)
    else:
        shootings = _nights(nights_of or proto.data, obs_json, profile)
    result.data = _with_shots(result.data, shootings)
    if found is not None and found.guessed:  # a seat that had left before the video's votes has nothing to miss
        seated = at_table_when_filmed(result.data, profile)
        found = replace(found, guessed=tuple(n for n in found.guessed if seated is None or n in seated))
    return GameDraft(result, heard.voice, len(heard.cues), found, shootings, None if found is None else seat_map,
                     None if observations is not None else seen)


def at_table_when_filmed(data: dict[str, Any], profile: Profile) -> frozenset[int] | None:
    """The seats still at the table at the first vote the protocol times (None: it times none): the players whose
    hands the video's votes can show."""
    state = initial_state(data)
    for index, event in enumerate(data.get("events", [])):
        if event.get("type") in VOTE_TYPES and isinstance(event.get("cutoff"), int | float):
            return frozenset(state.at_table)
        state, _problems = step(profile, state, index, event)
    return None


def _nights_seen(video: Path, seat_map: SeatMap, heard: Heard, data: dict[str, Any],
                 profile: Profile, model: str, say: Say, observer: Observer) -> NightsRead:
    """The nights' shots read from the video itself, as `stopframe audit --nights` reads a timed protocol's: each
    shooting is first timed by the count heard in its night (the nights the music marks), and then only the
    shootings' own stretches are looked at (review.audit.night.night_windows): a whole night looked at holds
    hands raised for other things. No night heard, or no count in one: nothing to look at."""
    from vision.night import hear_counts

    stretches = heard.nights
    if not stretches:
        return NightsRead(unread=NO_NIGHT)
    words, _spans = hear_counts(video, stretches, decoded=heard.tracks)
    timed = timed_shootings(data, words, stretches, profile)
    shootings, checks = observe_spans(night_windows(timed, profile))
    if not shootings:
        return NightsRead(unread=NO_NIGHT)
    say(ngettext("draft: looking at {n} night for the shots …", "draft: looking at {n} nights for the shots …",
                 len(shootings)))
    return read_shootings(timed, observer.nights(video, seat_map, shootings, checks, model=model), profile)


def _nights(data: dict[str, Any], obs_json: dict[str, Any] | None, profile: Profile) -> NightsRead:
    """The nights' shots the saved observations show; none read without them (the draft looks at days only)."""
    return NightsRead(unread=NOT_OBSERVED) if obs_json is None else read_shootings(data, obs_json, profile)


def _with_shots(data: dict[str, Any], nights: NightsRead) -> dict[str, Any]:
    """The DRAFT with the nights' reading; its x_ fields only where the shots it would add do not validate."""
    marked = with_shots(data, nights)
    return marked if not validate(marked) else with_shots(data, nights, add=False)
