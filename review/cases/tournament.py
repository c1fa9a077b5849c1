"""The tournament report (`stopframe-tournament/1`): every game's audit rolled up by game, judge and player.

    build_tournament_report(runs, decisions=…) -> Tournament     from audit reports (+ decisions), no video
    load_tournament(path) -> Tournament                          checked in full; unknown major version refused
    validate_tournament(data) -> list[str]                       every problem, with its JSON path

Why here: the chief judge's questions — which tables and judges need a second look, what the rules would
have given each player — are questions about findings and decisions, not pixels. The runner
(pipeline.tournament) audits the games; this module only counts. A game's *standing* findings are the ones a
judge confirmed (as edited, if edited) plus the undecided ones at or above the calibrated threshold; a
rejected finding never counts.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Self

from contract.errors import InvalidInput, StopframeError
from contract.i18n import N_, _
from contract.jsonio import format_problem, read_document, read_json
from review.audit.findings import FINDING_KINDS, AuditReport, Finding, finding_key
from review.audit.tally import less_sure
from review.cases.store import Decision

TOURNAMENT_FORMAT = "stopframe-tournament/1"
STATUSES = ("audited", "reused", "failed")
BANDS = ("high", "medium", "low")
MEDIUM_FROM = 0.5  # confidence bands: `high` from the calibrated default threshold up, `medium` from 0.5, `low` below
NOT_A_VIOLATION = ("cannot_see",)  # a stretch nobody could see is a note, not a suggestion
FILE_ROLES = ("video", "protocol", "seats", "observations", "marks", "source")


# ------------------------------------------------------------------------------------------ the input


@dataclass(frozen=True)
class GameRun:
    """One game as the runner left it: its files, its protocol, its audit (None when it failed)."""

    id: str
    status: str
    files: Mapping[str, str | None]
    protocol: Mapping[str, Any] | None = None
    report: AuditReport | None = None
    audit: str | None = None  # the audit file, relative to the tournament folder
    error: str | None = None
    fingerprint: str | None = None
    store_id: str | None = None  # the key the judges' decisions on this game are kept under (review.cases.store)
    seconds: float | None = None
    windows: int | None = None


# ------------------------------------------------------------------------------------------ the report


class _Row:
    """A row of one of the report's lists (a dataclass): written as its fields, read back by their names."""

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        return cls(**{f.name: data[f.name] for f in fields(cls)})


@dataclass(frozen=True)
class TournamentGame(_Row):
    """One row of `games[]`."""

    id: str
    game_id: str | None
    tournament: str | None
    date: str | None
    table: str | None
    judge: str | None
    rules: str | None
    status: str
    error: str | None
    audit: str | None
    files: dict[str, str | None]
    store_id: str | None
    fingerprint: str | None
    votes: int
    findings: int
    suggestions: int
    by_kind: dict[str, int]
    by_confidence: dict[str, int]
    changed_outcomes: int
    decided: int | None
    confirmed: int | None
    seconds: float | None
    windows: int | None


@dataclass(frozen=True)
class JudgeRecord(_Row):
    """One row of `judges[]`: a judge's games and what their audits and decisions say."""

    judge: str | None
    games: int
    failed: int
    game_ids: list[str]
    suggestions: int
    suggestions_per_game: float | None
    decided_games: int
    missed: int | None
    missed_per_game: float | None
    miscounted_votes: int


@dataclass(frozen=True)
class PlayerRecord(_Row):
    """One row of `players[]`: what the rules would have given one seat of one game."""

    nickname: str | None
    game: str
    seat: int
    fouls: int
    warnings: int
    fines: int
    removals: int
    points: float
    findings: int


@dataclass(frozen=True)
class Tournament:
    """The whole `stopframe-tournament/1` document."""

    created: str
    folder: str | None
    code_version: str | None
    threshold: float
    games: tuple[TournamentGame, ...]
    judges: tuple[JudgeRecord, ...]
    players: tuple[PlayerRecord, ...]
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @property
    def totals(self) -> dict[str, int]:
        by_status = Counter(g.status for g in self.games)
        return {"games": len(self.games), **{s: by_status.get(s, 0) for s in STATUSES},
                "findings": sum(g.findings for g in self.games), "suggestions": sum(g.suggestions for g in self.games)}

    def game(self, game_id: str) -> TournamentGame | None:
        return next((g for g in self.games if g.id == game_id), None)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": TOURNAMENT_FORMAT, "created": self.created, "folder": self.folder,
            "code_version": self.code_version,
            "confidence_bands": {"high": self.threshold, "medium": MEDIUM_FROM},
            "totals": self.totals,
            "games": [g.to_json() for g in self.games],
            "judges": [j.to_json() for j in self.judges],
            "players": [p.to_json() for p in self.players],
        }
        data.update({k: v for k, v in self.extra.items() if k.startswith("x_")})
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Tournament:
        return cls(
            created=data["created"], folder=data["folder"], code_version=data["code_version"],
            threshold=float(data["confidence_bands"]["high"]),
            games=tuple(TournamentGame.from_json(g) for g in data["games"]),
            judges=tuple(JudgeRecord.from_json(j) for j in data["judges"]),
            players=tuple(PlayerRecord.from_json(p) for p in data["players"]),
            extra={k: v for k, v in data.items() if k.startswith("x_")},
        )


# ------------------------------------------------------------------------------------------ building


def band(confidence: float, threshold: float) -> str:
    """The confidence band a finding falls in (see MEDIUM_FROM)."""
    if round(confidence, 3) >= round(threshold, 3):  # as review.audit.tally.less_sure: at the file's precision
        return "high"
    return "medium" if confidence >= MEDIUM_FROM else "low"


def standing_findings(report: AuditReport, decisions: Mapping[str, Decision] | None, threshold: float) -> list[Finding]:
    """The findings that count: confirmed ones as the judge decided them, undecided ones at or above the
    threshold; rejected ones and notes (cannot_see) never."""
    kept = []
    for f in report.findings:
        if f.kind in NOT_A_VIOLATION:
            continue
        d = (decisions or {}).get(finding_key(f))
        if d is not None:
            if d.stands:
                kept.append(d.effective_finding)
        elif not less_sure(f, threshold):
            kept.append(f)
    return kept


def _text(value: Any) -> str | None:
    """A protocol's game field as text; empty or absent is None (rendered views say "not given")."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    return str(value)


def _game_row(run: GameRun, decisions: Mapping[str, Decision] | None, threshold: float) -> TournamentGame:
    proto = run.protocol or {}
    game = proto.get("game") if isinstance(proto.get("game"), Mapping) else {}
    report = run.report
    findings = report.findings if report else ()
    by_kind = Counter(f.kind for f in findings)
    by_band = Counter(band(f.confidence, threshold) for f in findings)
    suggestions = [f for f in findings if f.kind not in NOT_A_VIOLATION and not less_sure(f, threshold)]
    changed = sum(1 for v in (report.votes if report else ()) if v.outcome.changed)
    return TournamentGame(
        id=run.id, game_id=_text(game.get("id")), tournament=_text(game.get("tournament")), date=_text(game.get("date")),
        table=_text(game.get("table")), judge=_text(game.get("judge")),
        rules=(report.rules if report else _text(proto.get("rules"))),
        status=run.status, error=run.error, audit=run.audit,
        files={role: run.files.get(role) for role in FILE_ROLES}, store_id=run.store_id, fingerprint=run.fingerprint,
        votes=len(report.votes) if report else 0, findings=len(findings), suggestions=len(suggestions),
        by_kind={k: by_kind[k] for k in FINDING_KINDS if by_kind.get(k)},
        by_confidence={b: by_band.get(b, 0) for b in BANDS},
        changed_outcomes=changed,
        decided=None if decisions is None else len(decisions),
        confirmed=None if decisions is None else sum(1 for d in decisions.values() if d.stands and d.finding.kind not in NOT_A_VIOLATION),
        seconds=None if run.seconds is None else round(run.seconds, 2), windows=run.windows,
    )


def _players(run: GameRun, standing: Sequence[Finding]) -> list[PlayerRecord]:
    proto = run.protocol or {}
    names = {p["seat"]: _text(p.get("nickname")) for p in proto.get("players") or []
             if isinstance(p, Mapping) and isinstance(p.get("seat"), int)}
    by_seat: dict[int, list[Finding]] = {}
    for f in standing:
        if f.seat is not None:
            by_seat.setdefault(f.seat, []).append(f)
    rows = []
    for seat in sorted(by_seat):
        types = Counter(f.consequence.type for f in by_seat[seat])
        points = sum(f.consequence.points or 0.0 for f in by_seat[seat])
        rows.append(PlayerRecord(
            nickname=names.get(seat), game=run.id, seat=seat, fouls=types.get("foul", 0), warnings=types.get("warning", 0),
            fines=types.get("fine", 0), removals=types.get("removal", 0), points=round(points, 2),
            findings=len(by_seat[seat]),
        ))
    return rows


def _judges(games: Sequence[TournamentGame], standing: Mapping[str, Sequence[Finding]]) -> list[JudgeRecord]:
    by_judge: dict[str | None, list[TournamentGame]] = {}
    for g in games:
        by_judge.setdefault(g.judge, []).append(g)
    rows = []
    for judge in sorted(by_judge, key=lambda j: (j is None, j or "")):
        own = by_judge[judge]
        done = [g for g in own if g.status != "failed"]
        decided = [g for g in done if g.decided]
        suggestions = sum(g.suggestions for g in done)
        missed = sum(g.confirmed or 0 for g in decided)
        rows.append(JudgeRecord(
            judge=judge, games=len(own), failed=len(own) - len(done), game_ids=[g.id for g in own],
            suggestions=suggestions, suggestions_per_game=round(suggestions / len(done), 2) if done else None,
            decided_games=len(decided), missed=missed if decided else None,
            missed_per_game=round(missed / len(decided), 2) if decided else None,
            miscounted_votes=sum(1 for g in done for f in standing.get(g.id, ()) if f.kind == "count_mismatch"),
        ))
    return rows


def build_tournament_report(
    runs: Iterable[GameRun], *, decisions: Callable[[GameRun], Mapping[str, Decision] | None] | None = None,
    threshold: float, created: str, folder: str | None = None, code_version: str | None = None,
) -> Tournament:
    """The tournament from its games' runs. `decisions(run)` gives a game's saved decisions by finding key
    (None where no decisions database was read); `threshold` is the calibrated default confidence."""
    games, players, standing = [], [], {}
    for run in sorted(runs, key=lambda r: r.id):
        decided = decisions(run) if decisions is not None and run.report is not None else None
        games.append(_game_row(run, decided, threshold))
        if run.report is not None:
            standing[run.id] = standing_findings(run.report, decided, threshold)
            players += _players(run, standing[run.id])
    return Tournament(created=created, folder=folder, code_version=code_version, threshold=threshold,
                      games=tuple(games), judges=tuple(_judges(games, standing)), players=tuple(players))


def rolled_up(tournament: Tournament, out_dir: str | os.PathLike[str],
              decisions: Callable[[GameRun], Mapping[str, Decision] | None], *, created: str) -> Tournament:
    """The same tournament with the judges' decisions made since (the app's page): each game's audit and
    protocol read back from the tournament folder, nothing looked at again."""
    base = Path(out_dir)
    runs = []
    for g in tournament.games:
        report = protocol = None
        if g.audit is not None:
            report = AuditReport.from_json(read_document(base / g.audit, "audit report", "stopframe-audit/1"), base / g.audit)
        if g.files.get("protocol"):
            try:
                data = read_json(g.files["protocol"], "protocol")
            except StopframeError:  # a failed game's protocol may be the very file that could not be read
                data = None
            protocol = data if isinstance(data, dict) else None
        runs.append(GameRun(id=g.id, status=g.status, files=g.files, protocol=protocol, report=report, audit=g.audit,
                            error=g.error, fingerprint=g.fingerprint, store_id=g.store_id, seconds=g.seconds,
                            windows=g.windows))
    return build_tournament_report(runs, decisions=decisions, threshold=tournament.threshold, created=created,
                                   folder=tournament.folder, code_version=tournament.code_version)


# ------------------------------------------------------------------------------------------ checking

_TEXT, _INT, _NUM = (str,), (int,), (int, float)
_SIGNED = ("points",)  # fines and removals cost points: a sum below zero
_WORDS = {_TEXT: N_("text"), _INT: N_("a whole number"), _NUM: N_("a number"), (dict,): N_("an object"),
          (list,): N_("a list")}
_GAME_FIELDS: dict[str, tuple[tuple[type, ...], bool]] = {  # name -> (types, may be null)
    "id": (_TEXT, False), "game_id": (_TEXT, True), "tournament": (_TEXT, True), "date": (_TEXT, True),
    "table": (_TEXT, True), "judge": (_TEXT, True), "rules": (_TEXT, True), "status": (_TEXT, False),
    "error": (_TEXT, True), "audit": (_TEXT, True), "files": ((dict,), False), "store_id": (_TEXT, True),
    "fingerprint": (_TEXT, True), "votes": (_INT, False), "findings": (_INT, False), "suggestions": (_INT, False),
    "by_kind": ((dict,), False), "by_confidence": ((dict,), False), "changed_outcomes": (_INT, False),
    "decided": (_INT, True), "confirmed": (_INT, True), "seconds": (_NUM, True), "windows": (_INT, True),
}
_JUDGE_FIELDS: dict[str, tuple[tuple[type, ...], bool]] = {
    "judge": (_TEXT, True), "games": (_INT, False), "failed": (_INT, False), "game_ids": ((list,), False),
    "suggestions": (_INT, False), "suggestions_per_game": (_NUM, True), "decided_games": (_INT, False),
    "missed": (_INT, True), "missed_per_game": (_NUM, True), "miscounted_votes": (_INT, False),
}
_PLAYER_FIELDS: dict[str, tuple[tuple[type, ...], bool]] = {
    "nickname": (_TEXT, True), "game": (_TEXT, False), "seat": (_INT, False), "fouls": (_INT, False),
    "warnings": (_INT, False), "fines": (_INT, False), "removals": (_INT, False), "points": (_NUM, False),
    "findings": (_INT, False),
}
_TOP_FIELDS: dict[str, tuple[tuple[type, ...], bool]] = {
    "created": (_TEXT, False), "folder": (_TEXT, True), "code_version": (_TEXT, True),
    "confidence_bands": ((dict,), False), "totals": ((dict,), False),
    "games": ((list,), False), "judges": ((list,), False), "players": ((list,), False),
}


def _fields(obj: Any, spec: Mapping[str, tuple[tuple[type, ...], bool]], where: str) -> list[str]:
    """Problems of one object against its field list: missing fields, wrong types, negative counts."""
    if not isinstance(obj, dict):
        return [_("{path}: must be an object", path=where)]
    problems = []
    for name, (types, nullable) in spec.items():
        path = f"{where}.{name}" if where else name
        if name not in obj:
            problems.append(_("{path}: missing", path=path))
            continue
        value = obj[name]
        if value is None:
            if not nullable:
                problems.append(_("{path}: must not be null", path=path))
            continue
        if isinstance(value, bool) or not isinstance(value, types):
            problems.append(_("{path}: must be {what}", path=path, what=_(_WORDS[types])))
        elif types in (_INT, _NUM) and value < 0 and name not in _SIGNED:
            problems.append(_("{path}: must not be negative", path=path))
    return problems


def _counts(obj: Any, keys: Sequence[str], where: str) -> list[str]:
    if not isinstance(obj, dict):
        return []
    problems = [_("{path}: not a finding kind or band", path=f"{where}.{k}") for k in obj if k not in keys]
    problems += [_("{path}: must be a whole number, not negative", path=f"{where}.{k}") for k, v in obj.items()
                 if isinstance(v, bool) or not isinstance(v, int) or v < 0]
    return problems


def validate_tournament(data: Any) -> list[str]:
    """Every problem of a `stopframe-tournament/1` document as "path: message" (empty when it is right)."""
    if not isinstance(data, dict):
        return [_("the document must be a JSON object")]
    problem = format_problem(data.get("format"), "tournament report", TOURNAMENT_FORMAT)
    if problem is not None:
        return [f"format: {problem}"]
    problems = _fields(data, _TOP_FIELDS, "")
    bands = data.get("confidence_bands")
    if isinstance(bands, dict):
        for name in ("high", "medium"):
            v = bands.get(name)
            if isinstance(v, bool) or not isinstance(v, int | float) or not 0 <= v <= 1:
                problems.append(_("{path}: must be a number from 0 to 1", path=f"confidence_bands.{name}"))
    games = data.get("games") if isinstance(data.get("games"), list) else []
    ids: set[str] = set()
    for i, g in enumerate(games):
        where = f"games[{i}]"
        problems += _fields(g, _GAME_FIELDS, where)
        if not isinstance(g, dict):
            continue
        if g.get("status") not in STATUSES:
            problems.append(_("{path}: must be one of {known}", path=f"{where}.status", known=", ".join(STATUSES)))
        if g.get("status") == "failed" and not g.get("error"):
            problems.append(_("{path}: a failed game must say why", path=f"{where}.error"))
        if g.get("status") in ("audited", "reused") and not g.get("audit"):
            problems.append(_("{path}: an audited game must name its audit file", path=f"{where}.audit"))
        audit = g.get("audit")
        if isinstance(audit, str) and (Path(audit).is_absolute() or ".." in Path(audit).parts):
            problems.append(_("{path}: must be a path inside the tournament folder", path=f"{where}.audit"))
        if isinstance(g.get("id"), str):
            if g["id"] in ids:
                problems.append(_("{path}: repeats the game {game}", path=f"{where}.id", game=g["id"][:40]))
            ids.add(g["id"])
        files = g.get("files")
        if isinstance(files, dict):
            problems += [_("{path}: not a file role", path=f"{where}.files.{k}") for k in files if k not in FILE_ROLES]
            problems += [_("{path}: must be a path or null", path=f"{where}.files.{k}") for k, v in files.items()
                         if v is not None and not isinstance(v, str)]
        problems += _counts(g.get("by_kind"), FINDING_KINDS, f"{where}.by_kind")
        problems += _counts(g.get("by_confidence"), BANDS, f"{where}.by_confidence")
        if (isinstance(g.get("by_kind"), dict) and isinstance(g.get("findings"), int)
                and all(isinstance(v, int) for v in g["by_kind"].values()) and sum(g["by_kind"].values()) != g["findings"]):
            problems.append(_("{path}: the counts add up to {sum}, not findings {findings}", path=f"{where}.by_kind",
                              sum=sum(g["by_kind"].values()), findings=g["findings"]))
    for i, j in enumerate(data.get("judges") if isinstance(data.get("judges"), list) else []):
        problems += _fields(j, _JUDGE_FIELDS, f"judges[{i}]")
        if isinstance(j, dict) and isinstance(j.get("game_ids"), list):
            problems += [_("{path}: not a game of this tournament", path=f"judges[{i}].game_ids[{k}]")
                         for k, gid in enumerate(j["game_ids"]) if gid not in ids]
    for i, p in enumerate(data.get("players") if isinstance(data.get("players"), list) else []):
        problems += _fields(p, _PLAYER_FIELDS, f"players[{i}]")
        if isinstance(p, dict) and isinstance(p.get("game"), str) and p["game"] not in ids:
            problems.append(_("{path}: not a game of this tournament", path=f"players[{i}].game"))
    return problems


def load_tournament(path: str | os.PathLike[str]) -> Tournament:
    """Read a tournament report; UnreadableInput (exit 2) for another format or major version, InvalidInput
    (exit 1) naming the first problem's place otherwise."""
    data = read_document(path, "tournament report", TOURNAMENT_FORMAT)
    problems = validate_tournament(data)
    if problems:
        more = " " + _("(and {n} more)", n=len(problems) - 1) if len(problems) > 1 else ""
        raise InvalidInput(_("{path}: {problem}{more}.", path=path, problem=problems[0], more=more))
    return Tournament.from_json(data)
