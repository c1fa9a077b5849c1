"""The tournament report from audits and decisions (no video): counts, the judges' record, the players',
its validator and loader, and its HTML and CSV views."""

from __future__ import annotations

import copy
import csv
import html
import io
import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from contract.errors import EXIT_INVALID, EXIT_UNREADABLE, StopframeError
from pipeline.audit import audit_game
from review.audit.findings import AuditReport
from review.cases.store import Store
from review.cases.tournament import (
    GameRun,
    Tournament,
    build_tournament_report,
    load_tournament,
    rolled_up,
    standing_findings,
    validate_tournament,
)
from review.cases.tournament_views import tournament_csv, tournament_html

FIX = Path(__file__).parents[1] / "fixtures" / "audit" / "day_vote"
THRESHOLD = 0.89
CREATED = "2026-12-02T18:00:00Z"


@pytest.fixture(scope="module")
def report() -> AuditReport:
    return audit_game(protocol=f"{FIX}.protocol.json", seats=f"{FIX}.seats.json",
                      observations=f"{FIX}.observations.json").at_file_precision()


def _protocol(judge: str | None, table: str | None = "1", nick: str | None = None) -> dict:
    data = json.loads(Path(f"{FIX}.protocol.json").read_text())
    data["game"] = {"id": f"G-{judge}-{table}", "judge": judge, "table": table}
    if nick is not None:
        data["players"][1]["nickname"] = nick  # seat 2, who has a double vote in the fixture
    return data


def _runs(report: AuditReport) -> list[GameRun]:
    return [
        GameRun(id="g1", status="audited", files={"protocol": "/x/g1.protocol.json"}, protocol=_protocol("Ivanov"),
                report=report, audit="games/g1.audit.json", store_id="s1"),
        GameRun(id="g2", status="reused", files={}, protocol=_protocol("Ivanov", "2"), report=report,
                audit="games/g2.audit.json", store_id="s2"),
        GameRun(id="g3", status="audited", files={}, protocol=_protocol(None, None), report=report,
                audit="games/g3.audit.json", store_id="s3"),
        GameRun(id="g4", status="failed", files={}, protocol=_protocol("Petrova"), error="g4.mp4: not a video."),
    ]


def test_games_count_findings_by_kind_and_band_and_judges_by_name(report):
    t = build_tournament_report(_runs(report), threshold=THRESHOLD, created=CREATED)
    g1 = t.game("g1")
    assert g1.judge == "Ivanov" and g1.table == "1" and g1.votes == len(report.votes)
    assert sum(g1.by_kind.values()) == g1.findings == len(report.findings)
    assert sum(g1.by_confidence.values()) == g1.findings
    assert g1.by_kind["count_mismatch"] == sum(1 for f in report.findings if f.kind == "count_mismatch")
    assert g1.decided is None and g1.confirmed is None  # no decisions were read: null, never 0
    g3 = t.game("g3")
    assert g3.judge is None and g3.table is None
    assert t.game("g4").status == "failed" and t.game("g4").votes == 0
    judges = {j.judge: j for j in t.judges}
    assert judges["Ivanov"].games == 2 and judges["Ivanov"].game_ids == ["g1", "g2"]
    assert judges["Ivanov"].suggestions_per_game == g1.suggestions
    assert judges["Ivanov"].missed is None and judges["Ivanov"].missed_per_game is None
    assert judges["Ivanov"].miscounted_votes == 2 * g1.by_kind["count_mismatch"]
    assert judges["Petrova"].failed == 1 and judges["Petrova"].suggestions_per_game is None
    assert [j.judge for j in t.judges][-1] is None  # the games whose protocol names no judge come last
    assert t.totals == {"games": 4, "audited": 2, "reused": 1, "failed": 1, "findings": 3 * g1.findings,
                        "suggestions": 3 * g1.suggestions}


def test_players_get_what_the_consequences_say(report):
    t = build_tournament_report(_runs(report)[:1], threshold=THRESHOLD, created=CREATED)
    by_seat = {p.seat: p for p in t.players}
    expected = {f.seat: f.consequence for f in report.findings if f.seat is not None and f.confidence >= THRESHOLD}
    assert set(by_seat) == set(expected)
    for seat, cons in expected.items():
        p = by_seat[seat]
        assert (p.fouls, p.warnings, p.fines, p.removals) == tuple(int(cons.type == k) for k in ("foul", "warning", "fine", "removal"))
        assert p.points == round(cons.points or 0.0, 2) and p.game == "g1" and p.nickname == f"P{seat}"


def test_decisions_roll_up_into_the_judges_record(report, tmp_path):
    store = Store(tmp_path / "d.sqlite")
    late, double = (next(f for f in report.findings if f.kind == k) for k in ("late_vote", "double_vote"))
    miscount = next(f for f in report.findings if f.kind == "count_mismatch")
    store.decide("s1", late, "confirmed", reason="seen", who="chief", expected_version=0)
    store.decide("s1", double, "rejected", reason="one vote", who="chief", expected_version=0)
    store.decide("s1", miscount, "edited", reason="count 4", who="chief", expected_version=0,
                 edited={"consequence": {"type": "none"}})
    t = build_tournament_report(_runs(report), decisions=lambda r: store.decisions(r.store_id), threshold=THRESHOLD,
                                created=CREATED)
    g1, g2 = t.game("g1"), t.game("g2")
    assert (g1.decided, g1.confirmed) == (3, 2) and (g2.decided, g2.confirmed) == (0, 0)
    ivanov = next(j for j in t.judges if j.judge == "Ivanov")
    assert ivanov.decided_games == 1 and ivanov.missed == 2 and ivanov.missed_per_game == 2.0
    standing = standing_findings(report, store.decisions("s1"), THRESHOLD)
    assert double not in standing and all(f.seat != double.seat or f.kind != "double_vote" for f in standing)
    assert double.seat not in {p.seat for p in t.players if p.game == "g1" and p.fines}  # rejected: no fine
    assert any(p.seat == double.seat and p.fines for p in t.players if p.game == "g2")  # undecided: still counts


def test_rolled_up_reads_the_games_back_and_adds_new_decisions(report, tmp_path):
    (tmp_path / "games").mkdir()
    proto = tmp_path / "g1.protocol.json"
    proto.write_text(json.dumps(_protocol("Ivanov")))
    (tmp_path / "games" / "g1.audit.json").write_text(json.dumps(report.to_json()))
    run = GameRun(id="g1", status="audited", files={"protocol": str(proto)}, protocol=_protocol("Ivanov"), report=report,
                  audit="games/g1.audit.json", store_id="s1")
    before = build_tournament_report([run], threshold=THRESHOLD, created=CREATED)
    store = Store(tmp_path / "d.sqlite")
    store.decide("s1", report.findings[0], "confirmed", reason="seen", who="chief", expected_version=0)
    after = rolled_up(before, tmp_path, lambda r: store.decisions(r.store_id), created=CREATED)
    assert after.game("g1").confirmed == 1 and after.judges[0].missed == 1
    assert after.game("g1").by_kind == before.game("g1").by_kind


def test_the_document_validates_round_trips_and_loads(report, tmp_path):
    data = build_tournament_report(_runs(report), threshold=THRESHOLD, created=CREATED).to_json()
    assert data["format"] == "stopframe-tournament/1"
    assert validate_tournament(data) == []
    path = tmp_path / "tournament.json"
    path.write_text(json.dumps(data))
    assert load_tournament(path).to_json() == data
    assert Tournament.from_json(data).to_json() == data


@pytest.mark.parametrize(("change", "path"), [
    (lambda d: d["games"][0].update(status="done"), "games[0].status"),
    (lambda d: d["games"][0].pop("judge"), "games[0].judge: missing"),
    (lambda d: d["games"][0].update(votes=-1), "games[0].votes: must not be negative"),
    (lambda d: d["games"][0].update(audit="/etc/passwd"), "games[0].audit"),
    (lambda d: d["games"][0]["by_kind"].update(late_vote=99), "games[0].by_kind"),
    (lambda d: d["games"][3].update(error=None), "games[3].error"),
    (lambda d: d["games"][1].update(id="g1"), "games[1].id"),
    (lambda d: d["judges"][0]["game_ids"].append("g9"), "judges[0].game_ids[2]"),
    (lambda d: d["players"][0].update(seat="2"), "players[0].seat: must be a whole number"),
    (lambda d: d["confidence_bands"].update(high=2), "confidence_bands.high"),
])
def test_the_validator_names_each_problem_by_its_path(report, change, path):
    data = build_tournament_report(_runs(report), threshold=THRESHOLD, created=CREATED).to_json()
    bad = copy.deepcopy(data)
    change(bad)
    problems = validate_tournament(bad)
    assert any(p.startswith(path) for p in problems), problems


def test_the_loader_refuses_another_major_version_and_a_broken_document(report, tmp_path):
    data = build_tournament_report(_runs(report), threshold=THRESHOLD, created=CREATED).to_json()
    path = tmp_path / "t.json"
    path.write_text(json.dumps({**data, "format": "stopframe-tournament/2"}))
    with pytest.raises(StopframeError) as exc:
        load_tournament(path)
    assert exc.value.exit_code == EXIT_UNREADABLE and "version 1" in str(exc.value)
    path.write_text(json.dumps({**data, "format": "stopframe-tournament/1.3"}))
    assert load_tournament(path).games  # a minor version reads
    data["games"][0]["status"] = "maybe"
    path.write_text(json.dumps(data))
    with pytest.raises(StopframeError) as exc:
        load_tournament(path)
    assert exc.value.exit_code == EXIT_INVALID and "games[0].status" in str(exc.value) and str(path) in str(exc.value)


HOSTILE_JUDGE = '<script>alert("j")</script>'
FORMULA_NICK = "=HYPERLINK(\"http://x\",\"y\")"


def _hostile(report: AuditReport) -> Tournament:
    runs = [
        GameRun(id="g&1", status="audited", files={}, protocol=_protocol(HOSTILE_JUDGE, "+1", nick=FORMULA_NICK),
                report=report, audit="games/g&1.audit.json"),
        GameRun(id="g2", status="failed", files={}, protocol=_protocol("@judge", "-"), error="-g2.mp4: not a <video>."),
    ]
    return build_tournament_report(runs, threshold=THRESHOLD, created=CREATED)


def test_html_is_self_contained_escaped_and_sortable(report):
    page = tournament_html(_hostile(report))
    assert HOSTILE_JUDGE not in page and html_escaped(HOSTILE_JUDGE) in page
    assert "<video>" not in page and "g&amp;1" in page
    assert not re.search(r"<(script|link|img)[^>]*\b(src|href)=", page)  # nothing loaded from anywhere
    assert "http://" not in page.replace(html_escaped(FORMULA_NICK), "").replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert page.count("<svg") == 2 and 'class="sortable"' in page and "addEventListener('click'" in page
    assert "None" not in page and "not given" in page  # nulls are worded
    assert page.count("<script>") == 1


def html_escaped(text: str) -> str:
    return html.escape(text)


def test_csv_reads_in_the_judges_words(report):
    """The organiser opens tournament.csv in Excel: its header and each game's status are words, never codes."""
    from contract import i18n

    with i18n.using("ru"):
        text = tournament_csv(_hostile(report), ";")
    header, first = list(csv.reader(io.StringIO(text.lstrip("\ufeff")), delimiter=";"))[:2]
    assert header[:3] == ["игра", "номер игры", "турнир"] and "голос после «Стоп»" in header
    assert "находки: уверенно" in header and not [h for h in header if "_" in h]
    assert first[header.index("статус")] in ("проверена", "проверена ранее", "ошибка")


def test_csv_neutralises_formulas_and_keeps_numbers(report):
    text = tournament_csv(_hostile(report))
    assert text.startswith("\ufeff")
    rows = list(csv.DictReader(io.StringIO(text.lstrip("\ufeff"))))
    g1, g2 = rows
    assert g1["judge"] == HOSTILE_JUDGE  # no formula: kept as it is
    assert g1["table"] == "'+1" and g2["judge"] == "'@judge" and g2["table"] == "'-" and g2["error"].startswith("'-g2.mp4")
    assert g1["votes"] == str(len(report.votes)) and g1["findings"] == str(len(report.findings))
    raw = text.splitlines()[1]
    assert f",{len(report.votes)},{len(report.findings)}," in raw  # numbers unquoted, no ' in front
    assert "None" not in text


@pytest.mark.parametrize("separator", [",", ";"])
def test_csv_for_either_separator_holds_no_formula(report, separator):
    """`;` for Excel in a Russian locale (a fraction then carries a decimal comma), `,` otherwise: under either, every
    field a spreadsheet may split out of a cell is safe, and the BOM is there for Cyrillic."""
    hostile = _hostile(report)
    timed = build_tournament_report([replace(GameRun(id="g3", status="audited", files={}, protocol=_protocol("J", "2"),
                                                     report=report, audit="games/g3.audit.json"), seconds=41.25)],
                                    threshold=THRESHOLD, created=CREATED)
    text = tournament_csv(hostile, separator)
    assert text.startswith("\ufeff")
    rows = list(csv.DictReader(io.StringIO(text.lstrip("\ufeff")), delimiter=separator))
    g1, g2 = rows
    assert g1["table"] == "'+1" and g2["judge"] == "'@judge" and g2["error"].startswith("'-g2.mp4")
    for row in rows:
        for cell in row.values():
            for field in (cell, *cell.split(","), *cell.split(";")):
                assert not field.startswith(("=", "+", "@")) and not re.match(r"-\D", field), (separator, cell)
    row = next(csv.DictReader(io.StringIO(tournament_csv(timed, separator).lstrip("\ufeff")), delimiter=separator))
    assert row["audit time (s)"] == ("41,25" if separator == ";" else "41.25")
    with pytest.raises(ValueError):
        tournament_csv(report, "\t")


def test_the_charts_legends_name_only_their_own_series_in_russian(report):
    """The findings chart's legend names the three confidence bands, the judges' chart only its one series: in
    Russian every word of both is Russian (a chart with one series once listed the bands as «medium», «low»)."""
    from contract import i18n

    with i18n.using("ru"):
        page = tournament_html(build_tournament_report(_runs(report), threshold=THRESHOLD, created=CREATED))
    legends = re.findall(r'<text x="\d+(?:\.\d+)?" y="\d+">([^<]*)</text>', page)
    assert {"уверенно", "возможно", "сомнительно", "предложений на игру"} <= set(legends)
    assert not [t for t in legends if re.search(r"[A-Za-z]{3,}", t)]
