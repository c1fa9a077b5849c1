"""Every profile owns its rules: each answers every finding kind the audit can produce, every night rule and
every appeal question with a consequence or ground and the clause of its own rulebook; nothing falls back to
another profile, and an unknown profile is an error naming it."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from contract.errors import InvalidInput
from review.audit.findings import FINDING_KINDS
from review.audit.night import audit_nights, night_windows
from review.cases.appeals import (
    _PROCEDURES,
    AppealCase,
    Decision,
    checks,
    grounds_for,
    suggested_ground,
)
from review.game.profiles import (
    APPEAL_PROCEDURES,
    CONSEQUENCE_TYPES,
    JUDGE_ERROR_KINDS,
    NIGHT_RULE_KINDS,
    OFFENCE_KINDS,
    OUTCOMES,
    PROFILES,
    RFM,
    Consequence,
    Profile,
    get_profile,
)
from review.game.protocol import RULE_PROFILES, validate

EACH = pytest.mark.parametrize("profile", list(PROFILES.values()), ids=list(PROFILES))
RULES = Path(__file__).parents[3] / "shared" / "rules"


def own_clause(profile: Profile, clause: str) -> bool:
    return clause.startswith(profile.id + " ")


def answered(profile: Profile, c: Consequence) -> None:
    assert isinstance(c, Consequence) and c.type in CONSEQUENCE_TYPES and c.text.strip()
    assert own_clause(profile, c.clause), c
    assert c.also is None or own_clause(profile, c.also), c


def test_the_profiles_answer_every_kind_the_audit_can_produce() -> None:
    """review.audit.findings lists what the day and night audits report; each is an offence or a judge's error."""
    assert set(FINDING_KINDS) <= set(OFFENCE_KINDS + JUDGE_ERROR_KINDS)


@EACH
def test_every_finding_kind_has_a_consequence_and_a_clause_of_its_own_rulebook(profile: Profile) -> None:
    for kind in OFFENCE_KINDS + JUDGE_ERROR_KINDS:
        for prior in (0, 3):
            answered(profile, profile.offence(kind, prior_fouls=prior))
    answered(profile, profile.offence("lifted_early", after_cutoff=True))


@EACH
def test_judge_errors_cost_no_player_anything(profile: Profile) -> None:
    assert {profile.offence(k).type for k in JUDGE_ERROR_KINDS} == {"none"}


@EACH
def test_every_night_rule_has_a_consequence_and_a_clause_of_its_own_rulebook(profile: Profile) -> None:
    for what in NIGHT_RULE_KINDS:
        answered(profile, profile.night_rule(what))
    with pytest.raises(ValueError, match="'wink'.*red_hand, pose"):
        profile.night_rule("wink")


@EACH
def test_every_finding_kind_suggests_exactly_one_of_the_profiles_own_grounds(profile: Profile) -> None:
    for kind in OFFENCE_KINDS + JUDGE_ERROR_KINDS:
        (ground,) = [g for g in profile.appeal_grounds if kind in g.findings]
        assert suggested_ground(profile.id, kind) == ground.clause
    assert suggested_ground(profile.id, None) == profile.appeal_grounds[0].clause


@EACH
def test_every_appeal_ground_is_cited_and_can_be_decided(profile: Profile) -> None:
    """Each ground cites its rulebook (or says it is the chief judge's own call); every outcome it allows passes
    the checks of the profile's procedure without an error, and a ground of another profile allows nothing."""
    assert profile.appeal_procedure.value in APPEAL_PROCEDURES and profile.appeal_replay.value in APPEAL_PROCEDURES
    for g in profile.appeal_grounds:
        assert own_clause(profile, g.clause) or g.clause == g.kind == "other", g
        assert g.text.strip() and g.outcomes and set(g.outcomes) <= set(OUTCOMES), g
        case = AppealCase("", "g1", profile.id, "seat 1", "a claim", g.clause, 0.0, 0.0)
        for outcome in g.outcomes:
            (own,) = [c for c in checks(case, Decision(outcome, "why", "Chief")) if c.clause == g.clause and
                      c.text.startswith("this ground allows")]
            assert own.ok, (g.clause, outcome)
    foreign = next(p for p in PROFILES.values() if p.id != profile.id).appeal_grounds[0]
    if foreign.clause not in {g.clause for g in profile.appeal_grounds}:
        case = AppealCase("", "g1", profile.id, "seat 1", "a claim", foreign.clause, 0.0, 0.0)
        assert not next(c for c in checks(case, Decision("result_stands", "why", "Chief"))
                        if c.clause == foreign.clause).ok


def test_every_appeal_procedure_has_its_checks() -> None:
    assert set(_PROCEDURES) == set(APPEAL_PROCEDURES)


@EACH
def test_night_rule_and_ground_clauses_exist_in_the_rulebook(profile: Profile) -> None:
    """Numbered clauses start a line; ¶N is a line of the file; «words» occur in it (lvi2015 5.3 and the like sit
    in a numbered section: RULES.md's convention for its unnumbered paragraphs)."""
    if not RULES.exists():
        pytest.skip("../shared is absent: the rulebooks are not here")
    lines = (RULES / profile.rulebook).read_text(encoding="utf-8").splitlines()
    clauses = [profile.night_rule(w).clause for w in NIGHT_RULE_KINDS]
    clauses += [g.clause for g in profile.appeal_grounds if g.clause != "other"]
    for clause in clauses:
        ref = clause.split(" ", 1)[1]
        if ref.startswith("¶"):
            assert int(ref[1:]) <= len(lines), clause
        elif ref.startswith("«"):
            assert any(ref.strip("«»") in line for line in lines), clause
        else:
            section = ref if profile.id != "lvi2015" else ref.split(".")[0]
            assert any(re.match(re.escape(section) + r"(\.|\s|[^\d])", line) for line in lines), clause


# ---------------------------------------------------------------- a gap is refused where it is made


@pytest.mark.parametrize(
    ("field", "value", "gap"),
    [
        ("night_rules", (("red_hand", RFM.night_rule("red_hand")),), "night_rules has no consequence for pose"),
        ("judge_errors", (), "judge_errors has no consequence for count_mismatch"),
        ("offences", RFM.offences[1:], "offences has no consequence for late_vote"),
        ("appeal_grounds", RFM.appeal_grounds[:1], "finding kind late_vote must ground exactly one appeal"),
        ("appeal_grounds", RFM.appeal_grounds + RFM.appeal_grounds[8:9],
         "finding kind late_vote must ground exactly one appeal, not ['rfm 7.1.2.3', 'rfm 7.1.2.3']"),
    ],
)
def test_a_profile_with_an_unanswered_kind_cannot_be_built(field: str, value: object, gap: str) -> None:
    with pytest.raises(ValueError, match=re.escape(f"profile rfm: {gap}")):
        replace(RFM, **{field: value})


# ---------------------------------------------------------------- the registry and unknown profiles


def test_rule_profiles_of_the_protocol_are_the_profiles_registry() -> None:
    """spec §1: the protocol's `rules` names one of the profiles; the list is not written twice."""
    assert RULE_PROFILES == tuple(PROFILES) == ("rfm", "mafclub", "lvi2015", "showtime")
    assert all(get_profile(pid).id == pid for pid in RULE_PROFILES)


def test_an_unknown_profile_is_an_error_naming_it_never_another_profiles_rules() -> None:
    data = {"format": "stopframe-protocol/1", "rules": "rfm2", "players": [], "events": []}
    assert any('"rfm2"' in p.message for p in validate(data))
    case = AppealCase("", "g1", "rfm2", "seat 1", "a claim", "other", 0.0, 0.0)
    attempts = [
        lambda: get_profile("rfm2"),
        lambda: grounds_for("rfm2"),
        lambda: suggested_ground("rfm2", "count_mismatch"),
        lambda: case.deadline,
        lambda: checks(case, Decision("result_stands", "why", "Chief")),
        lambda: night_windows(data),
        lambda: audit_nights(data, {"format": "stopframe-observations/1", "fps": 25, "hands": []}),
    ]
    for attempt in attempts:
        with pytest.raises(InvalidInput, match='unknown rule profile "rfm2"; known profiles: rfm, mafclub'):
            attempt()
