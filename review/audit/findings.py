"""The one `Finding` type that travels from the audit to the app, the store and the reports (spec §4).

A finding is a *suggestion* to the judge: what the video shows, the rule profile's clause and what
would follow, how sure we are, and the frames to look at. `VoteReport` is one row of the report's
`votes[]`: the count the video supports beside the protocol's, and what the vote would have given.
Both serialise to exactly the spec's objects; fields the spec does not name are kept under `x_`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from contract.i18n import _, catalogue, ngettext, number, term, using
from contract.jsonio import check_format

AUDIT_FORMAT = "stopframe-audit/1"
REPORT_LABEL = "audit report"  # the document's label, shown as term("document", ...) by contract.jsonio

DAY_KINDS = ("count_mismatch", "late_vote", "early_hand", "lifted_early", "no_vote", "double_vote", "wrong_form")
NIGHT_KINDS = ("shot_mismatch", "check_mismatch", "night_hand")
FINDING_KINDS = (*DAY_KINDS, *NIGHT_KINDS, "cannot_see")

# Spec §4: `(kind, day, round, candidate, seat)` for a day finding, `(kind, night, seat)` for a night one.
Identity = tuple[str | int | None, ...]


def identity(kind: str, *, day: int | None, night: int | None, round: int | None, candidate: int | None,
             seat: int | None) -> Identity:
    """The one rule for which finding this is: a finding with a night and no day is a night finding."""
    if night is not None and day is None:
        return (kind, night, seat)
    return (kind, day, round, candidate, seat)


def identity_of(data: Mapping[str, Any]) -> Identity:
    """The identity of a finding given as JSON, or as a truth file's `expected_findings` entry (spec §3)."""
    return identity(data["kind"], day=data.get("day"), night=data.get("night"), round=data.get("round"),
                    candidate=data.get("candidate"), seat=data.get("seat"))


def finding_key(finding: Finding) -> str:
    """The identity as the text key decisions are stored under (day and night keys differ in length)."""
    return json.dumps(list(finding.identity), separators=(",", ":"))


@dataclass(frozen=True)
class FindingConsequence:
    """What follows under the profile: `type` from review.game.profiles.CONSEQUENCE_TYPES, `points` only for fines."""

    type: str
    text: str
    points: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "points": self.points, "text": self.text}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> FindingConsequence:
        return cls(type=data["type"], text=data.get("text", ""), points=data.get("points"))


@dataclass(frozen=True)
class Evidence:
    """The frames a judge should step to (with their times on the video's clock)."""

    frames: tuple[int, ...] = ()
    times: tuple[float, ...] = ()

    def to_json(self) -> dict[str, list[Any]]:
        return {"frames": list(self.frames), "times": list(self.times)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Evidence:
        return cls(frames=tuple(data.get("frames") or ()), times=tuple(data.get("times") or ()))


@dataclass(frozen=True)
class CameraFrames:
    """A finding's moments on one camera of several (`x_cameras`, docs/formats.md "Findings from several
    cameras"): that camera's own frames and times, and whether the finding's evidence comes from it."""

    id: str
    frames: tuple[int, ...] = ()
    times: tuple[float, ...] = ()
    evidence: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "frames": list(self.frames), "times": [_round_time(x) for x in self.times],
                "evidence": self.evidence}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CameraFrames:
        return cls(str(data.get("id", "")), tuple(data.get("frames") or ()), tuple(data.get("times") or ()),
                   bool(data.get("evidence")))


@dataclass(frozen=True)
class Finding:
    """One thing the video shows that the protocol or the rules disagree with (spec §4 finding object)."""

    kind: str
    clause: str | None
    consequence: FindingConsequence
    confidence: float
    seat: int | None = None
    seats: tuple[int, ...] | None = None
    day: int | None = None
    night: int | None = None
    round: int | None = None
    candidate: int | None = None
    t: float | None = None
    assumed_times: tuple[str, ...] = ()
    evidence: Evidence = field(default_factory=Evidence)
    # Optional `x_` fields (e.g. `x_text`, `x_text_message`, `x_also_clause`, `x_candidates`), kept through a round trip.
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @property
    def identity(self) -> Identity:
        return identity(self.kind, day=self.day, night=self.night, round=self.round, candidate=self.candidate,
                        seat=self.seat)

    @property
    def cameras(self) -> tuple[CameraFrames, ...]:
        """Per camera of a game filmed from several angles, the finding's frames there (() for one camera)."""
        raw = self.extra.get("x_cameras")
        return tuple(CameraFrames.from_json(c) for c in raw if isinstance(c, dict)) if isinstance(raw, list) else ()

    @property
    def frame(self) -> int | None:
        """The one frame that shows the finding, chosen by the audit (`x_frame`): what the app's card shows, the
        frame viewer steps to, a decision records and the case file prints. A report made before the audit chose
        one: its first evidence frame."""
        chosen = self.extra.get("x_frame")
        if isinstance(chosen, int) and not isinstance(chosen, bool):
            return chosen
        return int(self.evidence.frames[0]) if self.evidence.frames else None

    @property
    def text(self) -> str:
        """One sentence for the judge (falls back to the consequence's text)."""
        return str(self.extra.get("x_text") or self.consequence.text)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "kind": self.kind,
            "seat": self.seat,
            "seats": list(self.seats) if self.seats is not None else None,
            "day": self.day,
            "night": self.night,
            "round": self.round,
            "candidate": self.candidate,
            "t": _round_time(self.t),
            "clause": self.clause,
            "consequence": self.consequence.to_json(),
            "confidence": round(self.confidence, 3),
            "assumed_times": list(self.assumed_times),
            "evidence": {
                "frames": list(self.evidence.frames),
                "times": [_round_time(x) for x in self.evidence.times],
            },
        }
        data.update({k: v for k, v in self.extra.items() if k.startswith("x_")})
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Finding:
        seats = data.get("seats")
        return cls(
            kind=data["kind"],
            clause=data.get("clause"),
            consequence=FindingConsequence.from_json(data.get("consequence") or {"type": "none"}),
            confidence=float(data.get("confidence", 0.0)),
            seat=data.get("seat"),
            seats=tuple(seats) if seats is not None else None,
            day=data.get("day"),
            night=data.get("night"),
            round=data.get("round"),
            candidate=data.get("candidate"),
            t=data.get("t"),
            assumed_times=tuple(data.get("assumed_times") or ()),
            evidence=Evidence.from_json(data.get("evidence") or {}),
            extra={k: v for k, v in data.items() if k.startswith("x_")},
        )


def about(f: Finding | Mapping[str, Any]) -> str:
    """Whom or what a finding (or an exported row, or an appeal's evidence) is about, as every place labels it:
    `seat 9`, `seats 1, 9`; a count_mismatch is about the count for its candidate or lift vote, never a seat
    (the seats it lists are only those whose hands differ from the protocol's voters)."""
    if isinstance(f, Finding):
        kind, seat, seats, candidate, lifted = f.kind, f.seat, f.seats, f.candidate, f.extra.get("x_candidates")
    else:
        kind, seat, seats, candidate = f.get("kind"), f.get("seat"), f.get("seats"), f.get("candidate")
        lifted = f.get("x_candidates") or f.get("candidates")
    if kind == "count_mismatch":
        if candidate is not None:
            return _("the count for candidate {candidate}", candidate=candidate)
        if isinstance(lifted, list | tuple) and lifted:
            return _("the count for lifting {seats}", seats=", ".join(map(str, lifted)))
        return _("the count")
    if seat is not None:
        return _("seat {seat}", seat=seat)
    if isinstance(seats, str):  # an exported row keeps its seats as text
        seats = seats.split()
    if seats:
        joined = ", ".join(map(str, seats))
        return _("seat {seat}", seat=joined) if len(seats) == 1 else _("seats {seats}", seats=joined)
    return _("the count")


@dataclass(frozen=True)
class VoteOutcome:
    """What the vote gave by the protocol's counts and what it would give by the video's."""

    protocol: str | None
    video: str | None

    @property
    def changed(self) -> bool:
        return self.protocol is not None and self.video is not None and self.protocol != self.video

    def to_json(self) -> dict[str, Any]:
        return {"protocol": self.protocol, "video": self.video, "changed": self.changed}


@dataclass(frozen=True)
class VoteReport:
    """One row of `votes[]`: a candidate's vote (or a lift vote) as the protocol and the video tell it.

    `video_voters` / `video_count` are the hands seen placed in time (None when the window has no
    times to look at); `silent_seats` (last candidate only) are the living, visible seats that placed
    no hand in the whole round, whose votes the profile may add to the last candidate.
    """

    kind: str  # "vote" | "lift"
    day: int
    round: int
    protocol_count: int | None
    protocol_voters: tuple[int, ...] | None
    video_voters: tuple[int, ...] | None
    silent_seats: tuple[int, ...]
    confidence: float
    outcome: VoteOutcome
    candidate: int | None = None
    candidates: tuple[int, ...] | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @property
    def video_count(self) -> int | None:
        return None if self.video_voters is None else len(self.video_voters)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "day": self.day, "round": self.round}
        if self.kind == "lift":
            data["candidates"] = list(self.candidates or ())
        else:
            data["candidate"] = self.candidate
        data.update(
            {
                "protocol_count": self.protocol_count,
                "protocol_voters": list(self.protocol_voters) if self.protocol_voters is not None else None,
                "video_voters": list(self.video_voters) if self.video_voters is not None else None,
                "video_count": self.video_count,
                "silent_seats": list(self.silent_seats),
                "confidence": round(self.confidence, 3),
                "outcome": self.outcome.to_json(),
            }
        )
        data.update({k: v for k, v in self.extra.items() if k.startswith("x_")})
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> VoteReport:
        def seats(key: str) -> tuple[int, ...] | None:
            value = data.get(key)
            return tuple(value) if value is not None else None

        outcome = data.get("outcome") or {}
        return cls(
            kind=data["kind"],
            day=data["day"],
            round=data["round"],
            candidate=data.get("candidate"),
            candidates=seats("candidates"),
            protocol_count=data.get("protocol_count"),
            protocol_voters=seats("protocol_voters"),
            video_voters=seats("video_voters"),
            silent_seats=tuple(data.get("silent_seats") or ()),
            confidence=float(data.get("confidence", 0.0)),
            outcome=VoteOutcome(outcome.get("protocol"), outcome.get("video")),
            extra={k: v for k, v in data.items() if k.startswith("x_")},
        )


@dataclass(frozen=True)
class AuditReport:
    """The whole `stopframe-audit/1` document."""

    video: str | None
    rules: str
    votes: tuple[VoteReport, ...]
    findings: tuple[Finding, ...]
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": AUDIT_FORMAT,
            "video": self.video,
            "rules": self.rules,
            "votes": [v.to_json() for v in self.votes],
            "findings": [f.to_json() for f in self.findings],
        }
        data.update({k: v for k, v in self.extra.items() if k.startswith("x_")})
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any], where: str | os.PathLike[str] = REPORT_LABEL) -> AuditReport:
        """A `stopframe-audit/1` report; UnreadableInput (exit 2) naming `where` when it is of another format."""
        check_format(data.get("format"), where, REPORT_LABEL, AUDIT_FORMAT)
        return cls(
            video=data.get("video"),
            rules=data.get("rules", ""),
            votes=tuple(VoteReport.from_json(v) for v in data.get("votes", [])),
            findings=tuple(Finding.from_json(f) for f in data.get("findings", [])),
            extra={k: v for k, v in data.items() if k.startswith("x_")},
        )

    def identities(self) -> set[Identity]:
        return {f.identity for f in self.findings}

    def at_file_precision(self) -> AuditReport:
        """The report as its file reads back (times to the millisecond, confidences to 3 places), so what the
        app shows, stores and exports is exactly what `stopframe audit` writes for the same game."""
        return AuditReport.from_json(self.to_json())


def _round_time(t: float | None) -> float | None:
    """Times to the millisecond: frame times at 25–60 fps stay exact, float noise goes."""
    return None if t is None else round(float(t), 3)


# ---------------------------------------------------------------- a finding's sentence in the reader's language

# A catalogue message and its values (`x_text_message`, docs/formats.md): the sentence a finding's `x_text` was
# made from, kept so that a reader in any language gets it in hers, with its times and seats.
Message = dict[str, Any]

_MAX_DEPTH = 4  # a message's values hold a few nested phrases at most; a deeper one in a file is not ours


def message(msgid: str, /, **values: Any) -> Message:
    """A catalogue message (mark its msgid with N_) with its values: numbers, text, nested messages, or a list of
    nested messages (read joined by "; ")."""
    return {"msgid": msgid, "values": values}


def message_n(singular: str, plural: str, n: int, /, **values: Any) -> Message:
    """A message for `n` things, in the plural form the reader's language needs (`{n}` in it is the count)."""
    return {"msgid": singular, "plural": plural, "n": n, "values": values}


def phrase(context: str, msgid: str, /, **values: Any) -> Message:
    """A phrase whose words depend on where a sentence puts it (a catalogue entry with `context` as its msgctxt):
    «кандидатуру 5» after «за», a hand's form in the instrumental."""
    return {"msgid": msgid, "context": context, "values": values}


def said(msg: Any, depth: int = 0) -> str | None:
    """The message in the current language; None for anything that is no catalogue message (a file's own text,
    a message this Stopframe does not know), so the caller falls back to what it has."""
    if depth > _MAX_DEPTH:
        return None
    if isinstance(msg, list):
        parts = [said(m, depth + 1) if isinstance(m, dict) else str(m) for m in msg]
        return None if any(p is None for p in parts) else "; ".join(p for p in parts if p is not None)
    if not isinstance(msg, Mapping) or not isinstance(msg.get("msgid"), str):
        return None
    msgid, context, raw = msg["msgid"], msg.get("context"), msg.get("values") or {}
    if not isinstance(raw, Mapping) or (context is not None and not isinstance(context, str)):
        return None
    if catalogue("en").get(msgid, context=context) is None:
        return None  # only our own sentences are formatted: a file's text is never a format string
    values: dict[str, Any] = {}
    for name, value in raw.items():
        shown = _value(value, depth + 1)
        if shown is None:
            return None
        values[str(name)] = shown
    try:
        if "plural" in msg:
            n = msg.get("n")
            if not isinstance(n, int) or isinstance(n, bool) or not isinstance(msg["plural"], str):
                return None
            return ngettext(msgid, msg["plural"], n, **values)
        if context is not None:
            return term(context, msgid, msgid).format_map(values)
        return _(msgid, **values)
    except (KeyError, IndexError, ValueError, AttributeError):
        return None


def _value(value: Any, depth: int) -> str | None:
    """A message's value as the reader writes it: a time to two decimals with her decimal mark."""
    if isinstance(value, dict | list):
        return said(value, depth)
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, float):
        return number(value, 2, fixed=True)
    return str(value)


def english(msg: Message) -> str:
    """The message in English: what the audit report keeps as its text (`x_text`, a note), whoever runs it."""
    with using("en"):
        return said(msg) or ""
