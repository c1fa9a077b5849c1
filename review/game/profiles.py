"""The four rule profiles (rfm, mafclub, lvi2015, showtime) as plain frozen data.

Every parameter is a `Cited` value: the value the software applies, the clause of the rulebook that says so,
and, where the rulebook contradicts itself, the second clause (`also`) with a note on which one the profile follows.
Rulebooks live in `../shared/rules/` (see `../shared/RULES.md`):

- `rfm`: `003_90dbcc835839dac8.txt`, numbered clauses (`rfm 4.4.7`).
- `mafclub`: `000_db8ea1e1516725ce.txt`, numbered clauses (`mafclub 2.4.5`).
- `lvi2015`: `001_b06c0694019848d2.txt`; sections 3-6 are numbered, an unnumbered paragraph is cited by its section
  and place (`lvi2015 5.3`, `lvi2015 6.6` = the closing paragraph of section 6); the unnumbered opening part is cited
  by the paragraph's first words (`lvi2015 «Первый день»`, `lvi2015 «перестрелка»`).
- `showtime`: `004_65a7b4ee0a1d0e6c.txt`, no numbers: `showtime ¶N` is the file's N-th line (the title is ¶1).

Where a profile is silent, the parameter says so in its text and cites the nearest clause; the software then
reports the fact with consequence "none" rather than inventing a penalty.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from contract.errors import InvalidInput
from contract.i18n import N_, _, language
from contract.observations import POSES

# Player offences a vote or a night can show (spec §4's finding kinds, plus gesturing during the vote).
OFFENCE_KINDS = (
    "late_vote",
    "early_hand",
    "lifted_early",
    "no_vote",
    "double_vote",
    "wrong_form",
    "gesture",
    "night_hand",
)

# Finding kinds that are no player's offence: `offence()` answers them with type "none" and the clause at stake.
JUDGE_ERROR_KINDS = ("count_mismatch", "shot_mismatch", "check_mismatch", "cannot_see")

# Night hands with clauses of their own: a red seat's hand in the shooting (a faked shot) and a broken night pose.
# The `night_hand` offence is about hints (rfm 5.12.7); both findings still have kind `night_hand`.
NIGHT_RULE_KINDS = ("red_hand", "pose")

# How a result is reviewed: a written procedure with evidence and deadline (rfm 7), a club member's protest
# decided by the table (showtime ¶42), or none written (the chief judge decides on the video).
APPEAL_PROCEDURES = ("formal", "protest", "chief_judge")

# What an appeal's decision can be (review.cases.appeals).
OUTCOMES = ("result_stands", "result_changed", "replay", "points_adjusted")

CONSEQUENCE_TYPES = ("foul", "fine", "warning", "removal", "not_counted", "counted_for_last", "none")

# The rule texts below are catalogue msgids (marked with `N_`, not translated here: the language is chosen per run);
# files keep them in English and the places that show them translate with `rule_words`. Two are made of parts:
FOURTH_FOUL = N_("{rule}; as the player's 4th foul it removes him without a last word ({clause}).")
FORM_ACCEPTED = N_("{profile} accepts this form of vote.")


@dataclass(frozen=True, eq=False)
class Cited:
    """One rule parameter: its value, the clause that gives it, and a sentence a judge can read.

    It compares equal to its plain value and is as truthy as it, so `profile.vote_closer == "stop"` and
    `if profile.silent_vote_to_last:` read naturally; `.clause` says why.
    """

    value: Any
    clause: str
    text: str = ""
    also: str | None = None  # the second clause where the rulebook contradicts itself

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Cited):
            return (self.value, self.clause, self.text, self.also) == (other.value, other.clause, other.text, other.also)
        return self.value == other

    def __hash__(self) -> int:
        return hash((repr(self.value), self.clause))

    def __bool__(self) -> bool:
        return bool(self.value)

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True)
class Consequence:
    """What an offence costs under a profile (spec §4's `consequence`)."""

    type: str  # foul | fine | warning | removal | not_counted | counted_for_last | none
    clause: str  # "rfm 4.4.7"
    text: str  # one English sentence a judge reads: a catalogue msgid, shown with `rule_words`
    points: float | None = None  # for fines (and rfm's removal, 5.12: -1.2), negative
    also: str | None = None  # second clause where the rulebook contradicts itself ("rfm 5.10.1")


@dataclass(frozen=True)
class Ground:
    """A reason a profile's rulebook accepts for reviewing a result, and the decisions it can lead to."""

    clause: str
    kind: str  # cognitive | technical | replay | protest | other
    text: str
    outcomes: tuple[str, ...] = OUTCOMES
    findings: tuple[str, ...] = ()  # the finding kinds this ground is suggested for (each kind in one ground)
    points: float | None = None  # the rulebook's adjustment for this ground (rfm 7.1.1.4–7.1.1.7: 1.2)


@dataclass(frozen=True)
class Profile:
    """A rule profile: every field is a `Cited` parameter except the identity, the consequence tables (offences,
    judge errors, night rules) and the appeal grounds, which carry their clauses themselves. A profile answers
    every finding kind, night rule and appeal question itself (checked when it is built): nothing is looked up
    by profile id elsewhere, and nothing falls back to another profile."""

    id: str
    title: str
    rulebook: str  # file name in ../shared/rules/
    phase_order: Cited  # night 0, day 1, voting, night 1, day 2, ... (game time only moves forward)
    # --- voting (the table in RULES.md) ---
    vote_closer: Cited  # "stop" | "spasibo": the word whose onset is the cutoff
    lift_deadline: Cited  # "announced" | "cutoff": until when a placed hand must stay
    vote_forms: Cited  # frozenset of poses that count as a vote
    silent_vote_to_last: Cited  # bool: a player who places no hand votes for the last candidate
    repeated_vote: Cited  # "first" (only the first vote counts) | None (the rulebook does not say)
    most_votes: Cited  # the candidate with most votes leaves
    vote_order: Cited  # candidates are voted in the order they were nominated
    offences: tuple[tuple[str, Consequence], ...]
    fourth_foul_offences: tuple[tuple[str, Consequence], ...]  # replacements when the foul would be the 4th
    lifted_after_cutoff: Consequence  # a hand lifted between the cutoff and the announced count
    judge_errors: tuple[tuple[str, Consequence], ...]  # JUDGE_ERROR_KINDS: no penalty, the clause that makes it matter
    # --- candidates ---
    single_day1: Cited  # "no_vote": a single candidate on day 1 stays without a vote
    single_later: Cited  # "vote" | "leaves": a single candidate on a later day
    nomination_pick: Cited  # "first" | "last": which of several names not yet nominated is accepted
    nominations_per_player: Cited  # int per day
    withdrawal: Cited  # bool: may a player withdraw his own nomination (in the same speech)
    # --- ties («автокатастрофа») ---
    tie_revote: Cited  # bool: a tie is revoted among the tied players
    tie_fewer_revote: Cited  # bool: a tie again but among fewer players is revoted once more
    lift_majority: Cited  # "table": the tied leave when more than half of the players at the table vote for it
    lift_all_banned: Cited  # bool: no lift vote that would lift everyone at the table
    lift_bans: tuple[Cited, ...]  # value (tied, at_table): lift vote not held
    three_split_night: Cited  # int | None: at this many players two splits end the day without a lift vote
    no_revote_at: Cited  # int | None: at this many players a tie is not revoted, everyone stays
    versions_exception: Cited  # bool: rfm 4.4.16 exception 1 (no lifting two of four)
    # --- fouls and removals ---
    speech_loss_at: Cited  # int: fouls after which the player loses his next speech
    speech_loss_when: Cited  # "next": the nearest speech not yet made | "current": the rest of the speech he is making
    removal_at: Cited  # int | None: the foul that removes the player (None: no such rule)
    removal_cancels: Cited  # "current_or_nearest" | "nearest_each" | "never"
    closing_nomination_exception: Cited  # bool: rfm 4.4.16 exception 2
    removed_last_word: Cited  # bool: a removed player has a last minute
    team_loss_clauses: Cited  # tuple of clause prefixes whose removal gives the other team the win
    # --- results ---
    red_win: Cited
    black_win: Cited  # ">=": blacks at least as many as reds (parity first arises as equality, except after a lift)
    all_leave: Cited  # "draw" | "black" | None: everyone leaves at once
    quiet_draw: Cited  # ("nights", 3) | ("nights_and_days", 3) | None
    misses_red_win: Cited  # int | None: this many misses in a row with no one voted out = red win
    surrender: Cited  # bool: the black team may concede
    # --- nights and best move ---
    shooting_calls: Cited  # "all" (1..10) | "living" (seats at the table, low to high)
    shooting: Cited  # all living blacks on one number kill; anything else is a miss
    don_check: Cited  # the judge shows the Don whether the seat is the Sheriff
    sheriff_check: Cited  # the judge shows the Sheriff whether the seat is black
    checks_from_night: Cited  # int: the first night with Don and Sheriff checks
    best_move: Cited  # bool | None: the player killed on night 1 names three (None: not in this rulebook)
    best_move_ban: Cited  # int | None: no best move if this many or more left by the day-1 vote
    best_move_points: Cited  # {"red": {3: .8, 2: .55}, "sheriff": {...}} | None
    night_rules: tuple[tuple[str, Consequence], ...]  # NIGHT_RULE_KINDS: a faked shot, a broken night pose
    # --- appeals on the result ---
    appeal_grounds: tuple[Ground, ...]  # in the order a chief judge reads them; every finding kind in one of them
    appeal_window: Cited  # float | None: seconds after the game an appeal may be filed (None: no limit written)
    appeal_late_technical: Cited  # bool: a technical error may be acted on without a timely appeal
    appeal_procedure: Cited  # one of APPEAL_PROCEDURES: what a change of the result needs
    appeal_replay: Cited  # one of APPEAL_PROCEDURES: what a replay needs, and its clause (rfm 7.2.1)

    def __post_init__(self) -> None:
        """A profile that leaves a finding kind, a night rule or an appeal unanswered is refused when it is built,
        naming the gap, so no lookup can fail (or fall back to another profile) later."""
        for name, kinds in (("offences", OFFENCE_KINDS), ("judge_errors", JUDGE_ERROR_KINDS),
                            ("night_rules", NIGHT_RULE_KINDS)):
            missing = [k for k in kinds if k not in dict(getattr(self, name))]
            if missing:
                raise ValueError(f"profile {self.id}: {name} has no consequence for {', '.join(missing)}")
        for kind in OFFENCE_KINDS + JUDGE_ERROR_KINDS:
            grounds = [g.clause for g in self.appeal_grounds if kind in g.findings]
            if len(grounds) != 1:
                raise ValueError(f"profile {self.id}: finding kind {kind} must ground exactly one appeal, not {grounds}")
        if self.appeal_procedure.value not in APPEAL_PROCEDURES:
            raise ValueError(f"profile {self.id}: unknown appeal procedure {self.appeal_procedure.value!r}")

    @property
    def accepted_forms(self) -> frozenset[str]:
        """Poses that count as a vote under this profile."""
        return self.vote_forms.value

    def offence(self, kind: str, *, prior_fouls: int = 0, after_cutoff: bool = False) -> Consequence:
        """What `kind` costs; `prior_fouls` = fouls the seat already has, `after_cutoff` for a lift after the cutoff.

        Always returns a Consequence (type "none" with the nearest clause where the profile is silent).
        """
        if kind in JUDGE_ERROR_KINDS:
            return dict(self.judge_errors)[kind]
        table = dict(self.offences)
        if kind not in table:
            raise ValueError(f"unknown offence kind {kind!r}; expected one of {', '.join(OFFENCE_KINDS + JUDGE_ERROR_KINDS)}")
        base = self.lifted_after_cutoff if kind == "lifted_early" and after_cutoff else table[kind]
        if base.type not in ("foul", "warning") or self.removal_at.value is None:
            return base
        if prior_fouls + 1 < self.removal_at.value:
            return base
        replacement = dict(self.fourth_foul_offences).get(kind)
        if replacement is not None:
            return replacement
        return Consequence(
            "removal", base.clause, FOURTH_FOUL.format(rule=base.text[:-1], clause=self.removal_at.clause), also=base.also
        )

    def form_accepted(self, clause: str) -> Consequence:
        """No penalty for a vote's form this profile accepts (a fist where the thumb is optional), at `clause`."""
        return Consequence("none", clause, FORM_ACCEPTED.format(profile=self.title))

    def night_rule(self, what: str) -> Consequence:
        """What a hand out of turn at night costs: `what` is one of NIGHT_RULE_KINDS."""
        rules = dict(self.night_rules)
        if what not in rules:
            raise ValueError(f"unknown night rule {what!r}; expected one of {', '.join(NIGHT_RULE_KINDS)}")
        return rules[what]

    def label(self) -> str:
        """The profile as a judge reads it: its rulebook's name in the reader's words, and its code (the
        protocol's `rules`, what a judge types on the command line)."""
        return f"{_(self.title)} · {self.id}"

    def appeal_ground_for(self, kind: str | None) -> Ground:
        """The ground a finding of `kind` most likely supports; the first ground for no finding or a kind none names."""
        return next((g for g in self.appeal_grounds if kind in g.findings), self.appeal_grounds[0])

    def parameters(self) -> dict[str, Cited]:
        """Every cited parameter by name, in declaration order."""
        return {name: value for name, value in vars(self).items() if isinstance(value, Cited)}


def _c(kind: str, clause: str, text: str, points: float | None = None, also: str | None = None) -> Consequence:
    return Consequence(kind, clause, text, points, also)


_RFM_CHANGE = ("result_stands", "result_changed", "replay")
_RFM_POINTS = ("result_stands", "points_adjusted")
_DQ_POINTS = 1.2  # rfm 7.1.1.4–7.1.1.7: a disqualifying foul's −1.2 taken off or added
_VIDEO_ERROR = Ground(
    "other",
    "other",
    N_("A judge's error seen on video (the rulebook writes no appeal procedure: the chief judge decides)."),
    findings=OFFENCE_KINDS + JUDGE_ERROR_KINDS,
)

RFM = Profile(
    id="rfm",
    title=N_("Federation tournament rules (РФМ)"),
    rulebook="003_90dbcc835839dac8.txt",
    phase_order=Cited("alternate", "rfm 4.6.1", N_("Days and nights alternate until one team wins (night 0 is the deal, 4.2).")),
    vote_closer=Cited("stop", "rfm 4.4.7", N_("The «С» of «Стоп» cuts the vote off; «Спасибо» also ends it (4.4.6).")),
    lift_deadline=Cited(
        "announced",
        "rfm 4.4.8",
        N_("A hand must stay until the judge announces the count (4.4.8); 5.9.5 and 5.10.3 speak of lifting before "
        "«Стоп» — the profile follows 4.4.8 and flags a lift between «Стоп» and the count with both clauses."),
        also="rfm 5.9.5",
    ),
    vote_forms=Cited(
        frozenset({"fist", "thumb_up_fist"}),
        "rfm 4.4.6",
        N_("A fist, vertical, on the table (4.4.6); a palm, a finger or an elbow is a wrong form (5.12.13)."),
    ),
    silent_vote_to_last=Cited(True, "rfm 4.4.10", N_("A player who does not vote votes for the last candidate.")),
    repeated_vote=Cited(None, "rfm 4.4.9", N_("Voting against two candidates is forbidden (4.4.9); which vote counts is not said.")),
    most_votes=Cited("most", "rfm 4.4.12", N_("The player with most votes leaves the game.")),
    vote_order=Cited("nomination", "rfm 4.4.4", N_("Candidates are voted on in the order they were nominated.")),
    offences=(
        ("late_vote", _c("not_counted", "rfm 4.4.7", N_("A hand placed at or after the «С» of «Стоп» is not counted."))),
        ("early_hand", _c("foul", "rfm 5.9.6", N_("A hand on the table before the candidate is named is a foul; the vote counts for this candidate."))),
        ("lifted_early", _c("foul", "rfm 4.4.8", N_("A hand lifted before the count is announced is a foul; the vote counts."), also="rfm 5.9.5")),
        (
            "no_vote",
            _c(
                "fine",
                "rfm 5.10.1",
                N_("No hand placed in the round: the vote goes to the last candidate (4.4.10) and a small fine −0.2 (5.10.1); "
                "4.4.10 calls it a foul instead — this profile follows 5.10.1."),
                points=-0.2,
                also="rfm 4.4.10",
            ),
        ),
        ("double_vote", _c("fine", "rfm 5.10.4", N_("Voting against several candidates breaks the voting order: a small fine −0.2."), points=-0.2)),
        (
            "wrong_form",
            _c("removal", "rfm 5.12.13", N_("Voting with a palm, a finger, an elbow or a faked hand is a disqualifying foul (−1.2)."), points=-1.2),
        ),
        ("gesture", _c("foul", "rfm 5.9.7", N_("Gesturing during the vote is a foul."))),
        ("night_hand", _c("removal", "rfm 5.12.7", N_("Signs at night (hints to the Don, Sheriff or first killed) are a disqualifying foul (−1.2)."), points=-1.2)),
    ),
    fourth_foul_offences=(
        ("early_hand", _c("fine", "rfm 5.10.2", N_("A hand placed before the vote that would be the 4th foul: a small fine −0.2 instead; the vote counts."), points=-0.2)),
        ("lifted_early", _c("fine", "rfm 5.10.3", N_("A hand lifted early that would be the 4th foul: a small fine −0.2 instead; the vote counts."), points=-0.2)),
        ("gesture", _c("fine", "rfm 5.11.3", N_("Gesturing during the vote that would be the 4th foul: a big fine −0.5 instead."), points=-0.5)),
    ),
    lifted_after_cutoff=_c(
        "foul",
        "rfm 4.4.8",
        N_("A hand lifted after «Стоп» but before the count: a foul under 4.4.8 (hold until the count), none under 5.9.5 "
        "(lifting before «Стоп») — the rulebook contradicts itself; this profile follows 4.4.8."),
        also="rfm 5.9.5",
    ),
    judge_errors=(
        ("count_mismatch", _c("none", "rfm 7.1.2.3", N_("A wrong count not corrected during the vote is a judge's technical error."))),
        ("shot_mismatch", _c("none", "rfm 7.1.2.4", N_("A wrongly announced kill or miss is a judge's technical error."))),
        ("check_mismatch", _c("none", "rfm 7.1.2.1", N_("A wrong check answer shown is a judge's technical error."))),
        ("cannot_see", _c("none", "rfm 4.4.22", N_("The video must show the votes and nights; this seat cannot be seen."))),
    ),
    single_day1=Cited("no_vote", "rfm 4.4.11", N_("A single candidate on day 1 is not voted on and stays.")),
    single_later=Cited("vote", "rfm 4.4.11", N_("On later days any number of candidates is voted on, a single one too.")),
    nomination_pick=Cited("first", "rfm 4.4.2", N_("Of several names the first not yet nominated that day is accepted; no withdrawal.")),
    nominations_per_player=Cited(1, "rfm 4.4.3", N_("One nomination per player per day.")),
    withdrawal=Cited(False, "rfm 4.4.2", N_("A nomination may not be withdrawn.")),
    tie_revote=Cited(True, "rfm 4.4.13", N_("Tied players get 30 s each, then a revote among them only (4.4.13.1: in nomination order).")),
    tie_fewer_revote=Cited(True, "rfm 4.4.13.2", N_("A tie again among fewer candidates: 30 s each and another revote among those.")),
    lift_majority=Cited(
        "table",
        "rfm 4.4.13.3",
        N_("The same tie again: «Кто за то, чтобы все игроки покинули игру?» — a majority for: all tied leave; against or even: all stay."),
    ),
    lift_all_banned=Cited(True, "rfm 4.4.18", N_("No vote to lift everyone at the table.")),
    lift_bans=(
        Cited((5, 10), "rfm 4.4.19", N_("No vote to lift five players at ten.")),
        Cited((4, 8), "rfm 4.4.20", N_("No vote to lift four players at eight.")),
        Cited((3, 6), "rfm 4.4.21", N_("No vote to lift three players at six.")),
    ),
    three_split_night=Cited(3, "rfm 4.4.13.4", N_("At three players, after the table splits twice, night falls without a lift vote.")),
    no_revote_at=Cited(None, "rfm 4.4.13", N_("A tie is always revoted.")),
    versions_exception=Cited(
        True,
        "rfm 4.4.16",
        N_("Exception 1: a black removed at six, at night or after the vote's result, forbids lifting two players at four."),
    ),
    speech_loss_at=Cited(3, "rfm 5.5", N_("Three fouls: the player loses his next speech but may still nominate.")),
    speech_loss_when=Cited("next", "rfm 5.5", N_("The nearest own minute is lost; one already spoken today means tomorrow's.")),
    removal_at=Cited(4, "rfm 5.6", N_("The 4th foul removes the player at once, without a last word (also 5.12.3).")),
    removal_cancels=Cited(
        "current_or_nearest",
        "rfm 4.4.16",
        N_("A removal during the day's discussion or before the current vote's result is known cancels the nearest or "
        "current vote; otherwise (at night, after the result) the vote stands (also 5.7)."),
    ),
    closing_nomination_exception=Cited(
        True,
        "rfm 4.4.16",
        N_("Exception 2: from day 2, if nobody was nominated before the circle's closing speaker nominates the only "
        "candidate, later removals do not cancel that result."),
    ),
    removed_last_word=Cited(False, "rfm 5.6", N_("A removed player leaves at once without a last word.")),
    team_loss_clauses=Cited(("rfm 5.13", "rfm 5.19"), "rfm 5.13", N_("These removals give the offender's team the loss (also 5.19).")),
    red_win=Cited("red", "rfm 1.4", N_("Red wins when every black player is out.")),
    black_win=Cited(">=", "rfm 1.4", N_("Black wins when blacks are as many as reds at the table, or more.")),
    all_leave=Cited("draw", "rfm 5.22", N_("If everyone still in the game leaves at once, the game is a draw.")),
    quiet_draw=Cited(
        ("nights", 3),
        "rfm 4.7.1",
        N_("Draw: three shooting nights in a row (night, day, night, day, night) with misses, and nobody leaving the table "
        "during the days between."),
    ),
    misses_red_win=Cited(None, "rfm 4.7.1", N_("Misses lead to a draw (4.7.1), not a win.")),
    surrender=Cited(False, "rfm 1.4", N_("The rulebook has no surrender.")),
    shooting_calls=Cited("all", "rfm 4.5.3", N_("The judge calls every number 1 to 10 each night.")),
    shooting=Cited("all_same", "rfm 4.5.4", N_("All blacks shoot the same number: that player is killed; otherwise a miss (4.5.5).")),
    don_check=Cited("sheriff", "rfm 4.5.7", N_("The judge shows the Don whether the seat he points at is the Sheriff.")),
    sheriff_check=Cited("black", "rfm 4.5.8", N_("The judge shows the Sheriff whether the seat he points at is black or red.")),
    checks_from_night=Cited(1, "rfm 4.5.9", N_("One check a night each for the Don and the Sheriff, except the first (deal) night.")),
    best_move=Cited(True, "rfm 4.5.10", N_("The player killed on the first shooting night names three players as black (also 6.6.1).")),
    best_move_ban=Cited(2, "rfm 6.6.9", N_("No best move if two or more players left by the day-1 vote.")),
    best_move_points=Cited(
        {"red": {3: 0.8, 2: 0.55}, "sheriff": {3: 0.7, 2: 0.45}},
        "rfm 6.6.2",
        N_("Red player: +0.8 for three blacks, +0.55 for two (6.6.2–6.6.3); Sheriff: +0.7 / +0.45 (6.6.4–6.6.5)."),
    ),
    night_rules=(
        (
            "red_hand",
            _c(
                "removal",
                "rfm 5.12.10",
                N_("Breaking the night behaviour — a red player raising a hand during the shooting — is a disqualifying foul (−1.2)."),
                points=-1.2,
            ),
        ),
        (
            "pose",
            _c(
                "warning",
                "rfm 4.5.12",
                N_("Out of the night pose (arms crossed on the shoulders): the judge asks the table to take the pose; after two "
                "warnings the player is removed (also 4.5.12.1)."),
            ),
        ),
    ),
    appeal_grounds=(
        Ground("rfm 7.1.1.1", "cognitive", N_("A disqualifying foul on the critical round was missed: the player stayed "
               "and his team won."), _RFM_CHANGE),
        Ground("rfm 7.1.1.2", "cognitive", N_("The judge did not record a ППК (win of the opposite team), and the other "
               "team won."), _RFM_CHANGE),
        Ground("rfm 7.1.1.4", "cognitive", N_("A disqualifying foul wrongly given on a non-critical round, and the "
               "player's team lost: no replay, the −1.2 is taken off."), _RFM_POINTS, points=_DQ_POINTS),
        Ground("rfm 7.1.1.5", "cognitive", N_("A disqualifying foul wrongly given on the critical round, and the "
               "player's team lost: the −1.2 is taken off (a replay is possible, 7.2.2)."), (*_RFM_POINTS, "replay"),
               points=_DQ_POINTS),
        Ground("rfm 7.1.1.6", "cognitive", N_("A disqualifying foul not given on a non-critical round: no replay, "
               "−1.2 is added."), _RFM_POINTS, findings=("wrong_form", "night_hand"), points=_DQ_POINTS),
        Ground("rfm 7.1.1.7", "cognitive", N_("A disqualifying foul not given on the critical round: −1.2 is added; the "
               "chief judge may change the result."), OUTCOMES, points=_DQ_POINTS),
        Ground("rfm 7.1.2.1", "technical", N_("A wrong check answer was shown to the Don or the Sheriff, not corrected at "
               "night, and it affected the outcome."), _RFM_CHANGE, findings=("check_mismatch",)),
        Ground("rfm 7.1.2.2", "technical", N_("A player whose leaving would have ended the game did not leave on the "
               "vote, and the other team won."), _RFM_CHANGE),
        Ground("rfm 7.1.2.3", "technical", N_("The judge miscounted a vote (or revote), did not correct it during the "
               "vote, and it affected the result."), _RFM_CHANGE,
               findings=("count_mismatch", "late_vote", "early_hand", "lifted_early", "no_vote", "double_vote",
                         "gesture", "cannot_see")),
        Ground("rfm 7.1.2.4", "technical", N_("The judge announced a miss or a kill wrongly."), _RFM_CHANGE,
               findings=("shot_mismatch",)),
        Ground("rfm 7.1.2.5", "technical", N_("A nomination was wrongly accepted, not corrected that day, and it affected "
               "the vote."), _RFM_CHANGE),
        Ground("rfm 7.1.2.6", "technical", N_("The candidates were listed in the wrong order for the vote, not corrected "
               "during it, and it affected the result."), _RFM_CHANGE),
        Ground("rfm 7.1.2.7", "technical", N_("The judge's gesture at the deal did not match the card, and it was not "
               "corrected before the next player was woken."), _RFM_CHANGE),
        Ground("rfm 7.1.2.8", "technical", N_("A phase was run out of order (a sub-phase skipped or run wrongly)."),
               _RFM_CHANGE),
        Ground("rfm 7.2.3", "replay", N_("The venue gave players an advantage (e.g. a screen showing the roles behind "
               "the judge)."), ("result_stands", "replay")),
    ),
    appeal_window=Cited(600.0, "rfm 7.3.6", N_("An appeal is filed within 10 minutes after the game.")),
    appeal_late_technical=Cited(
        True, "rfm 7.4", N_("The chief judge may change the result or order a replay for a technical error without an appeal.")
    ),
    appeal_procedure=Cited(
        "formal",
        "rfm 7.1.1.3",
        N_("A result is changed only with the video of the game or the vote in question, the side judge's testimony and "
        "the chief judge's agreement."),
    ),
    appeal_replay=Cited("formal", "rfm 7.2.1", N_("A replay needs the same: the video or the vote, the side judge, the chief judge.")),
)

MAFCLUB = Profile(
    id="mafclub",
    title=N_("ACTORS MAFIA CLUB sport rules (MafClub)"),
    rulebook="000_db8ea1e1516725ce.txt",
    phase_order=Cited("alternate", "mafclub 2.7.1", N_("Days and nights alternate until one team wins; the game starts with a night (2.1.2).")),
    vote_closer=Cited("spasibo", "mafclub 2.4.5", N_("A vote lasts about 1.5 s and ends with «Спасибо»; a hand with it or after it is not counted.")),
    lift_deadline=Cited(
        "announced",
        "mafclub 2.4.6",
        N_("A hand must stay until the count is announced (2.4.6); the warning of 2.4.8 names only a lift before or with "
        "«Спасибо» — the profile follows 2.4.6 and cites both for a lift after «Спасибо»."),
        also="mafclub 2.4.8",
    ),
    vote_forms=Cited(
        frozenset({"thumb_up_fist"}),
        "mafclub 2.4.6",
        N_("Only a fist with the thumb up, vertical, on the table counts; a plain fist is a wrong form (thumbs are hard to "
        "see on video: suggest, never change a count on this alone)."),
    ),
    silent_vote_to_last=Cited(True, "mafclub 2.4.10", N_("A player who does not vote votes for the last candidate.")),
    repeated_vote=Cited("first", "mafclub 2.4.9", N_("A player who votes more than once gets a warning; only his first vote counts.")),
    most_votes=Cited(
        "most",
        "mafclub 2.4.7",
        N_("The player with most votes leaves (2.4.7); 2.4.2 calls the outcome an «абсолютное большинство» — the profile "
        "follows 2.4.7, as 2.4.2 names a tie as the only other outcome."),
        also="mafclub 2.4.2",
    ),
    vote_order=Cited("nomination", "mafclub 2.4.4", N_("Candidates are voted on in the order they were nominated.")),
    offences=(
        ("late_vote", _c("not_counted", "mafclub 2.4.5", N_("A hand placed with «Спасибо» or after it is not counted."))),
        ("early_hand", _c("none", "mafclub 2.4.5", N_("The rulebook is silent on a hand placed before the candidate is called; voting starts with the call."))),
        ("lifted_early", _c("warning", "mafclub 2.4.8", N_("A hand lifted before or with «Спасибо» earns a warning; the vote counts."))),
        ("no_vote", _c("counted_for_last", "mafclub 2.4.10", N_("No hand placed in the round: the vote counts for the last candidate."))),
        ("double_vote", _c("warning", "mafclub 2.4.9", N_("Voting more than once earns a warning; only the first vote counts."))),
        ("wrong_form", _c("not_counted", "mafclub 2.4.6", N_("Only a vertical fist with the thumb up counts; this hand is not counted."))),
        ("gesture", _c("warning", "mafclub 2.4.1", N_("Any gesturing after the vote is announced earns a warning (also 3.3.4)."))),
        ("night_hand", _c("removal", "mafclub 3.8.8", N_("A red player raising a hand during the shooting to fake a shot is removed."))),
    ),
    fourth_foul_offences=(),
    lifted_after_cutoff=_c(
        "none",
        "mafclub 2.4.6",
        N_("A hand lifted after «Спасибо» but before the count breaks 2.4.6 (hold until the count), but the warning of 2.4.8 "
        "covers only a lift before or with «Спасибо»; the vote counts."),
        also="mafclub 2.4.8",
    ),
    judge_errors=(
        ("count_mismatch", _c("none", "mafclub 2.4.6", N_("The count must be of the votes properly placed; no penalty for a player."))),
        ("shot_mismatch", _c("none", "mafclub 2.5.2", N_("The shooting result as announced differs from the video."))),
        ("check_mismatch", _c("none", "mafclub 2.5.3", N_("The judge repeats the number shown before answering; it differs."))),
        ("cannot_see", _c("none", "mafclub 2.4.6", N_("This seat cannot be seen; nothing is assumed about its vote."))),
    ),
    single_day1=Cited("no_vote", "mafclub 2.4.3", N_("A single candidate on day 1 is not voted on and stays.")),
    single_later=Cited("leaves", "mafclub 2.4.3", N_("A single candidate on a later day leaves without a vote.")),
    nomination_pick=Cited(
        "last",
        "mafclub 2.3.12",
        N_("Of several names in one speech, the last one not yet nominated is accepted; a later one replaces the earlier."),
    ),
    nominations_per_player=Cited(1, "mafclub 2.3.5", N_("One candidate per player's speech (a later one replaces it, 2.3.12).")),
    withdrawal=Cited(True, "mafclub 2.3.9", N_("A player may withdraw his own nomination during the same speech (2.3.9–2.3.11).")),
    tie_revote=Cited(True, "mafclub 2.4.11", N_("Tied players get 30 s each, then a revote among them only.")),
    tie_fewer_revote=Cited(
        True, "mafclub 2.4.11", N_("Comment to 2.4.11: a tie among fewer players than before is discussed and revoted again.")
    ),
    lift_majority=Cited(
        "table",
        "mafclub 2.4.11",
        N_("The same tie again: a vote to lift all tied; they leave only if most players vote for it; even: they stay."),
    ),
    lift_all_banned=Cited(False, "mafclub 2.7.2.2", N_("Lifting everyone at the table is allowed; it ends the game in a draw.")),
    lift_bans=(),
    three_split_night=Cited(None, "mafclub 2.4.11", N_("No special rule for three players.")),
    no_revote_at=Cited(None, "mafclub 2.4.11", N_("A tie is always revoted.")),
    versions_exception=Cited(False, "mafclub 3.12", N_("No such exception.")),
    speech_loss_at=Cited(3, "mafclub 3.4", N_("The 3rd warning: the player loses his next speech, may still nominate (3.4.1: except tie and last words).")),
    speech_loss_when=Cited("next", "mafclub 3.4", N_("The next speech is lost; a 3rd warning during one's speech lets him finish it.")),
    removal_at=Cited(4, "mafclub 3.5", N_("The 4th warning excludes the player without a last word.")),
    removal_cancels=Cited(
        "nearest_each",
        "mafclub 3.12",
        N_("Each removal cancels the nearest vote (3.12.4: two removals, two votes), except for a player already killed or "
        "voted out; during a vote not yet decided it cancels that vote (3.12.1), after it the next one (3.12.2); on day 1 "
        "with one candidate, day 1's vote is the one cancelled (3.12.3)."),
    ),
    closing_nomination_exception=Cited(False, "mafclub 3.12", N_("No such exception.")),
    removed_last_word=Cited(False, "mafclub 3.10", N_("A removed player leaves at once without a word or gesture (also 3.5).")),
    team_loss_clauses=Cited((), "mafclub 3.13", N_("The gravest breaches lead to a replay (3.13), not a team loss.")),
    red_win=Cited("red", "mafclub 2.7.1", N_("Red wins when every black player is out.")),
    black_win=Cited(">=", "mafclub 2.7.1", N_("Black wins when as many reds as blacks remain at the table.")),
    all_leave=Cited("draw", "mafclub 2.7.2.2", N_("Everyone lifted at once on the last day is a draw.")),
    quiet_draw=Cited(
        ("nights_and_days", 3),
        "mafclub 2.7.2.1",
        N_("Draw: three shooting nights and three days in a row, starting with a night, with nobody leaving."),
    ),
    misses_red_win=Cited(None, "mafclub 2.7.2.1", N_("Quiet nights lead to a draw, not a win.")),
    surrender=Cited(True, "mafclub 2.7.1", N_("Comment to 2.7.1: the black team may concede if all its remaining players say so.")),
    shooting_calls=Cited("living", "mafclub 2.5.2", N_("The judge calls the seats still at the table, low to high.")),
    shooting=Cited("all_same", "mafclub 2.5.2", N_("All blacks shoot on one number: that player is killed; otherwise a miss.")),
    don_check=Cited("sheriff", "mafclub 2.5.3", N_("The judge nods «ДА» if the seat is the Sheriff, «НЕТ» otherwise.")),
    sheriff_check=Cited("black", "mafclub 2.5.4", N_("The judge nods «ДА» if the seat is black, «НЕТ» otherwise.")),
    checks_from_night=Cited(1, "mafclub 2.5.3", N_("The Don and the Sheriff check one player each from the first shooting night (2.2.3–2.2.4).")),
    best_move=Cited(True, "mafclub 2.6.1", N_("The player killed on the first night names three blacks, whatever his role.")),
    best_move_ban=Cited(None, "mafclub 2.6.1", N_("No restriction.")),
    best_move_points=Cited(
        {"red": {3: 2.0, 2: 1.0, 1: 0.5}, "sheriff": {3: 2.0, 2: 1.0, 1: 0.5}},
        "mafclub 2.6.3",
        N_("A red player gets 2 points for three blacks named, 1 for two, 0.5 for one."),
    ),
    night_rules=(
        ("red_hand", _c("removal", "mafclub 3.8.8", N_("A red player raising a hand during the shooting to fake a shot is removed."))),
        (
            "pose",
            _c(
                "none",
                "mafclub 2.5.1",
                N_("All players take the night pose; the rulebook names no penalty for leaving it (3.8 removes for peeking, "
                "touching and hints)."),
            ),
        ),
    ),
    appeal_grounds=(
        Ground("mafclub 3.13", "replay", N_("An automatic replay for the gravest violations (an oath, bribery, "
               "blackmail or threats)."), ("result_stands", "replay")),
        _VIDEO_ERROR,
    ),
    appeal_window=Cited(None, "mafclub 3.8.12", N_("A protest may not be announced before the game ends; no deadline after it is written.")),
    appeal_late_technical=Cited(False, "mafclub 3.8.12", N_("Nothing is written on reviewing a result without a protest.")),
    appeal_procedure=Cited(
        "chief_judge", "mafclub 3.8.12", N_("No appeal procedure is written: the chief judge decides, changing a result only on video.")
    ),
    appeal_replay=Cited("chief_judge", "mafclub 3.13", N_("Automatic replays for the gravest violations; otherwise the chief judge decides.")),
)

LVI2015 = Profile(
    id="lvi2015",
    title=N_("Tournament ЛВИ-2015 (MAF CLUB Khmelnytskyi)"),
    rulebook="001_b06c0694019848d2.txt",
    phase_order=Cited("alternate", "lvi2015 «Обсуждение второго дня»", N_("Nights and days alternate until one team wins.")),
    vote_closer=Cited("spasibo", "lvi2015 5.3", N_("A hand placed with «спасибо» or after it is not accepted.")),
    lift_deadline=Cited("cutoff", "lvi2015 5.3", N_("A vote counts when the hand touched the table and stayed until «спасибо».")),
    vote_forms=Cited(
        frozenset(POSES), "lvi2015 5.3", N_("Any hand touching the table counts; the rulebook names no form.")
    ),
    silent_vote_to_last=Cited(True, "lvi2015 5.4", N_("A player who does not vote votes for the last candidate.")),
    repeated_vote=Cited(None, "lvi2015 5.2", N_("Voting for more than one candidate is forbidden; which vote counts is not said.")),
    most_votes=Cited("most", "lvi2015 «Первый день»", N_("The player with most votes leaves the game.")),
    vote_order=Cited(
        "nomination", "lvi2015 «Первый день»", N_("The rulebook names no order; candidates are voted in nomination order as elsewhere.")
    ),
    offences=(
        ("late_vote", _c("not_counted", "lvi2015 5.3", N_("A hand placed with «спасибо» or after it is not accepted."))),
        ("early_hand", _c("none", "lvi2015 5.3", N_("The rulebook is silent on a hand placed before the candidate is named."))),
        ("lifted_early", _c("not_counted", "lvi2015 5.3", N_("A hand not held until «спасибо» is not accepted."))),
        ("no_vote", _c("counted_for_last", "lvi2015 5.4", N_("No hand placed in the round: the vote goes to the last candidate."))),
        ("double_vote", _c("none", "lvi2015 5.2", N_("Voting for two candidates is forbidden; no penalty is written (a warning is the judge's call, 6.5)."))),
        ("wrong_form", _c("none", "lvi2015 5.3", N_("Any hand touching the table counts; the rulebook names no form."))),
        ("gesture", _c("warning", "lvi2015 6.4", N_("Excessive gesturing (4.7.6) earns a warning."))),
        ("night_hand", _c("removal", "lvi2015 3.4", N_("Anything beyond night behaviour at night is a removal."))),
    ),
    fourth_foul_offences=(),
    lifted_after_cutoff=_c("none", "lvi2015 5.3", N_("A hand need only stay until «спасибо»; lifting it afterwards is allowed.")),
    judge_errors=(
        ("count_mismatch", _c("none", "lvi2015 5.3", N_("The count must be of the hands held until «спасибо»; no penalty for a player."))),
        ("shot_mismatch", _c("none", "lvi2015 «Вторая и последующие ночи»", N_("The shooting result as announced differs from the video."))),
        ("check_mismatch", _c("none", "lvi2015 «Затем ведущий обращается к Дону»", N_("The check answer recorded differs from the number shown (the Sheriff's: «Далее ведущий объявляет»)."))),
        ("cannot_see", _c("none", "lvi2015 5.3", N_("This seat cannot be seen; nothing is assumed about its vote."))),
    ),
    single_day1=Cited("no_vote", "lvi2015 «Первый день»", N_("A single candidate on day 1 is not voted on.")),
    single_later=Cited("vote", "lvi2015 «Первый день»", N_("On later days any number of candidates is voted on.")),
    nomination_pick=Cited(
        "first",
        "lvi2015 5.1",
        N_("One candidate per player (5.1, «Первый день»); the rulebook does not say which of several names counts: the first stands."),
    ),
    nominations_per_player=Cited(1, "lvi2015 5.1", N_("One nomination per player, during his own minute.")),
    withdrawal=Cited(False, "lvi2015 5.1", N_("The rulebook provides no withdrawal; a nomination stands.")),
    tie_revote=Cited(True, "lvi2015 «перестрелка»", N_("Tied players get 30 s each (4.6), then a revote.")),
    tie_fewer_revote=Cited(
        False, "lvi2015 «перестрелка»", N_("The rulebook does not distinguish a tie among fewer: any tie again goes to the lift vote.")
    ),
    lift_majority=Cited(
        "table",
        "lvi2015 «перестрелка»",
        N_("A tie again: «Кто за то, чтобы все голосуемые покинули игру?» — a majority for: they leave; against or even: they stay."),
    ),
    lift_all_banned=Cited(False, "lvi2015 «перестрелка»", N_("No ban is written.")),
    lift_bans=(),
    three_split_night=Cited(None, "lvi2015 «перестрелка»", N_("No special rule for three players.")),
    no_revote_at=Cited(4, "lvi2015 «перестрелка»", N_("With four players at the table a tie is not revoted: everyone stays and night falls.")),
    versions_exception=Cited(False, "lvi2015 «перестрелка»", N_("No such exception.")),
    speech_loss_at=Cited(
        3, "lvi2015 6.6", N_("The 3rd warning received during the player's own speech ends his word until the end of the round.")
    ),
    speech_loss_when=Cited("current", "lvi2015 6.6", N_("The 3rd warning received during the player's own speech ends that speech; nothing else is written.")),
    removal_at=Cited(None, "lvi2015 6.6", N_("No removal for a 4th warning is written.")),
    removal_cancels=Cited("never", "lvi2015 «Первый день»", N_("The rulebook does not cancel a vote after a removal.")),
    closing_nomination_exception=Cited(False, "lvi2015 «Первый день»", N_("No such exception.")),
    removed_last_word=Cited(True, "lvi2015 «Первый день»", N_("The rulebook does not deny a removed player a last word.")),
    team_loss_clauses=Cited((), "lvi2015 4.7", N_("No team loss is written.")),
    red_win=Cited("red", "lvi2015 «Игра заканчивается»", N_("Red wins when every mafioso is out.")),
    black_win=Cited(">=", "lvi2015 «Игра заканчивается»", N_("Black wins when as many players of both teams remain.")),
    all_leave=Cited(None, "lvi2015 «Игра заканчивается»", N_("The rulebook does not say what happens when everyone leaves at once.")),
    quiet_draw=Cited(None, "lvi2015 «Игра заканчивается»", N_("No draw is written.")),
    misses_red_win=Cited(None, "lvi2015 «Игра заканчивается»", N_("No rule on misses.")),
    surrender=Cited(False, "lvi2015 «Игра заканчивается»", N_("No surrender is written.")),
    shooting_calls=Cited(
        "living",
        "lvi2015 «Вторая и последующие ночи»",
        N_("The judge calls «номера игроков по очереди» — read as the players still in the game."),
    ),
    shooting=Cited(
        "all_same", "lvi2015 «Вторая и последующие ночи»", N_("All mafiosi shoot on one number: hit; otherwise a miss (also 3.2).")
    ),
    don_check=Cited("sheriff", "lvi2015 «Затем ведущий обращается к Дону»", N_("The judge confirms or denies the Don's guess of the Sheriff.")),
    sheriff_check=Cited("black", "lvi2015 «Далее ведущий объявляет»", N_("The Sheriff looks for black players, one a night.")),
    checks_from_night=Cited(1, "lvi2015 «Первая ночь»", N_("On the first night the Don and the Sheriff only show themselves.")),
    best_move=Cited(None, "lvi2015 «Вторая и последующие ночи»", N_("This rulebook has no best move.")),
    best_move_ban=Cited(None, "lvi2015 «Вторая и последующие ночи»", N_("This rulebook has no best move.")),
    best_move_points=Cited(None, "lvi2015 «Вторая и последующие ночи»", N_("This rulebook has no best move.")),
    night_rules=(
        (
            "red_hand",
            _c("removal", "lvi2015 3.4", N_("Anything beyond night behaviour at night — here a red hand raised in the shooting — is a removal.")),
        ),
        ("pose", _c("removal", "lvi2015 3.4", N_("Anything beyond night behaviour at night is a removal."))),
    ),
    appeal_grounds=(_VIDEO_ERROR,),
    appeal_window=Cited(None, "lvi2015 4.7.9", N_("Arguing with the judge during the game is a removal; no review after it is written.")),
    appeal_late_technical=Cited(False, "lvi2015 4.7.9", N_("Nothing is written on reviewing a result.")),
    appeal_procedure=Cited(
        "chief_judge", "lvi2015 4.7.9", N_("No appeal procedure is written: the chief judge decides, changing a result only on video.")
    ),
    appeal_replay=Cited("chief_judge", "lvi2015 4.7.9", N_("No replay is written: the chief judge decides on the video.")),
)

SHOWTIME = Profile(
    id="showtime",
    title=N_("Club SHOWTIME rules"),
    rulebook="004_65a7b4ee0a1d0e6c.txt",
    phase_order=Cited("alternate", "showtime ¶8", N_("The game has two periods, day and night, the first night being the deal.")),
    vote_closer=Cited("spasibo", "showtime ¶10", N_("A hand placed with «Спасибо» or after it is not counted.")),
    lift_deadline=Cited(
        "cutoff",
        "showtime ¶10",
        N_("The rulebook only says a hand lifted «во время голосования» earns a remark; read as until «Спасибо»."),
    ),
    vote_forms=Cited(
        frozenset({"thumb_up_fist"}), "showtime ¶3", N_("Players vote by touching the table with a fist, thumb up.")
    ),
    silent_vote_to_last=Cited(False, "showtime ¶10", N_("Only hands placed before «Спасибо» count; no rule gives a silent vote to anyone.")),
    repeated_vote=Cited(None, "showtime ¶27", N_("Voting more than once earns a remark; which vote counts is not said.")),
    most_votes=Cited("most", "showtime ¶11", N_("The player with most votes leaves the game.")),
    vote_order=Cited("nomination", "showtime ¶10", N_("Candidates are voted on in the order they were nominated.")),
    offences=(
        ("late_vote", _c("not_counted", "showtime ¶10", N_("A hand placed with «Спасибо» or after it is not counted."))),
        ("early_hand", _c("none", "showtime ¶10", N_("The rulebook is silent on a hand placed before the candidate is named."))),
        ("lifted_early", _c("warning", "showtime ¶10", N_("A hand lifted during the vote earns a remark; the vote counts."))),
        ("no_vote", _c("none", "showtime ¶10", N_("The rulebook gives no rule for a player who does not vote; only placed hands count."))),
        ("double_vote", _c("warning", "showtime ¶27", N_("Voting more than once («многократное голосование») earns a remark."))),
        ("wrong_form", _c("not_counted", "showtime ¶10", N_("Only a hand placed the proper way (a fist, thumb up, ¶3) counts."), also=None)),
        ("gesture", _c("warning", "showtime ¶22", N_("Gesturing that disturbs other players earns a remark."))),
        ("night_hand", _c("removal", "showtime ¶38", N_("Gesturing at night outside one's own turn is a reason for removal."))),
    ),
    fourth_foul_offences=(),
    lifted_after_cutoff=_c("none", "showtime ¶10", N_("The remark is for lifting during the vote; after «Спасибо» nothing is written.")),
    judge_errors=(
        ("count_mismatch", _c("none", "showtime ¶10", N_("The count must be of the hands placed before «Спасибо»; no penalty for a player."))),
        ("shot_mismatch", _c("none", "showtime ¶13", N_("The shooting result as announced differs from the video."))),
        ("check_mismatch", _c("none", "showtime ¶4", N_("The check answer recorded differs from the number shown."))),
        ("cannot_see", _c("none", "showtime ¶42", N_("This seat cannot be seen; a protest may need the video (¶42)."))),
    ),
    single_day1=Cited("no_vote", "showtime ¶10", N_("A single candidate on the first round is not voted on.")),
    single_later=Cited("leaves", "showtime ¶10", N_("On any later round a single candidate leaves without a vote.")),
    nomination_pick=Cited("last", "showtime ¶10", N_("A player may name several; the last properly nominated one is accepted.")),
    nominations_per_player=Cited(1, "showtime ¶10", N_("One standing nomination per player (the last one named).")),
    withdrawal=Cited(True, "showtime ¶10", N_("«Отзываю игрока номер…» — «Отозвано».")),
    tie_revote=Cited(True, "showtime ¶12", N_("Tied players get 30 s each, then a revote among them.")),
    tie_fewer_revote=Cited(False, "showtime ¶12", N_("The rulebook does not distinguish a tie among fewer: any tie again goes to the lift vote.")),
    lift_majority=Cited(
        "table",
        "showtime ¶12",
        N_("A tie again: «Кто за то, чтобы оба (трое…) покинули игру?» — a majority for: they leave; split evenly: they stay."),
    ),
    lift_all_banned=Cited(False, "showtime ¶19", N_("No ban; everyone leaving at once (0=0) is a black win.")),
    lift_bans=(),
    three_split_night=Cited(None, "showtime ¶12", N_("No special rule for three players.")),
    no_revote_at=Cited(None, "showtime ¶12", N_("A tie is always revoted.")),
    versions_exception=Cited(False, "showtime ¶12", N_("No such exception.")),
    speech_loss_at=Cited(3, "showtime ¶31", N_("3 remarks: the player skips the next round's speech and may only nominate (30 s at three players).")),
    speech_loss_when=Cited("next", "showtime ¶31", N_("The player skips the next round of discussion.")),
    removal_at=Cited(
        None, "showtime ¶33", N_("A 4th remark is among the reasons a player *may* be removed; the removal is not automatic.")
    ),
    removal_cancels=Cited(
        "never",
        "showtime ¶10",
        N_("A removal does not cancel the vote: a player removed during it loses his vote unless he had already voted properly."),
    ),
    closing_nomination_exception=Cited(False, "showtime ¶10", N_("No such exception.")),
    removed_last_word=Cited(False, "showtime ¶40", N_("A removed player has no last word.")),
    team_loss_clauses=Cited((), "showtime ¶42", N_("No team loss is written (a protest decides after the game).")),
    red_win=Cited("red", "showtime ¶18", N_("Red wins when every black player is out.")),
    black_win=Cited(">=", "showtime ¶19", N_("Black wins when as many reds as blacks remain, also 0 = 0.")),
    all_leave=Cited("black", "showtime ¶19", N_("Everyone left at once (0 = 0) is a black win.")),
    quiet_draw=Cited(None, "showtime ¶18", N_("No draw: misses lead to a red win (¶18).")),
    misses_red_win=Cited(3, "showtime ¶18", N_("Three misses in a row with no one voted out on the days between: red wins.")),
    surrender=Cited(False, "showtime ¶18", N_("No surrender is written.")),
    shooting_calls=Cited("living", "showtime ¶13", N_("The judge calls the numbers of the players at the table.")),
    shooting=Cited("all_same", "showtime ¶13", N_("All blacks shoot at once on one number: that player is killed.")),
    don_check=Cited("sheriff", "showtime ¶6", N_("A nod means the seat is the Sheriff, a shake a civilian.")),
    sheriff_check=Cited("black", "showtime ¶4", N_("Thumb up: the seat is red; thumb down: black.")),
    checks_from_night=Cited(1, "showtime ¶9", N_("On the first night the judge only meets the Don and the Sheriff.")),
    best_move=Cited(None, "showtime ¶15", N_("This rulebook has no best move; the killed player has one minute.")),
    best_move_ban=Cited(None, "showtime ¶15", N_("This rulebook has no best move.")),
    best_move_points=Cited(None, "showtime ¶15", N_("This rulebook has no best move.")),
    night_rules=(
        (
            "red_hand",
            _c("removal", "showtime ¶38", N_("Gesturing at night outside one's own turn (a red hand in the shooting) is a reason for removal.")),
        ),
        ("pose", _c("removal", "showtime ¶38", N_("Gesturing at night outside one's own turn is a reason a player may be removed."))),
    ),
    appeal_grounds=(
        Ground("showtime ¶42", "protest", N_("A club member's protest after the game: the game annulled, replayed or its "
               "result changed, decided by the table's vote."), ("result_stands", "result_changed", "replay"),
               findings=OFFENCE_KINDS + JUDGE_ERROR_KINDS),
    ),
    appeal_window=Cited(None, "showtime ¶42", N_("A protest is made after the game; no deadline is written.")),
    appeal_late_technical=Cited(False, "showtime ¶42", N_("Nothing is written on reviewing a result without a protest.")),
    appeal_procedure=Cited(
        "protest", "showtime ¶42", N_("Only a club member may protest; the table's vote accepts it (his whole team and an opponent).")
    ),
    appeal_replay=Cited("protest", "showtime ¶42", N_("A replay is one of the protest's outcomes, decided the same way.")),
)

PROFILES: dict[str, Profile] = {p.id: p for p in (RFM, MAFCLUB, LVI2015, SHOWTIME)}


def _rule_texts(profile: Profile) -> set[str]:
    """Every rule text of a profile: its title, the parameters', consequences' and appeal grounds' sentences."""
    out = {profile.title}

    def take(value: object) -> None:
        if isinstance(value, Cited | Consequence | Ground):
            out.add(value.text)
        elif isinstance(value, tuple):
            for item in value:
                take(item)

    for value in vars(profile).values():
        take(value)
    return out


# Every sentence the profiles hold: each one a catalogue msgid.
RULE_TEXTS: frozenset[str] = frozenset(text for p in PROFILES.values() for text in _rule_texts(p) if text)


def _parts(msgid: str) -> re.Pattern[str]:
    """A pattern that reads a made-up sentence (FOURTH_FOUL, FORM_ACCEPTED) back into its `{name}` parts."""
    pieces = re.split(r"\{(\w+)\}", msgid)
    return re.compile("^" + "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+)" for i, p in enumerate(pieces)) + "$")


_FOURTH_FOUL_PARTS = _parts(FOURTH_FOUL)
_FORM_ACCEPTED_PARTS = _parts(FORM_ACCEPTED)


def rule_words(text: Any) -> str:
    """A profile's rule text as files and findings keep it (the English msgid) in the reader's language.

    The made-up sentences (a 4th foul's removal, a form a profile accepts) are read back into their parts and each part
    translated. A text that is none of the profiles' (a file from another version) is shown as written in English and
    left out ("") in another language: the page still shows the consequence's type, never English among Russian.
    """
    text = str(text or "")
    if text in RULE_TEXTS:
        return _(text)
    fourth = _FOURTH_FOUL_PARTS.match(text)
    if fourth and fourth["rule"] + "." in RULE_TEXTS:
        rule = _(fourth["rule"] + ".")
        return _(FOURTH_FOUL, rule=rule[:-1] if rule.endswith(".") else rule, clause=fourth["clause"])
    accepted = _FORM_ACCEPTED_PARTS.match(text)
    if accepted and accepted["profile"] in RULE_TEXTS:
        return _(FORM_ACCEPTED, profile=_(accepted["profile"]))
    return text if language() == "en" else ""


def get_profile(profile_id: str) -> Profile:
    """The profile named `profile_id`; InvalidInput naming the id when there is none."""
    try:
        return PROFILES[profile_id]
    except (KeyError, TypeError):
        known = ", ".join(PROFILES)
        raise InvalidInput(_("unknown rule profile {value}; known profiles: {known}", value=_shown(profile_id),
                             known=known)) from None


def pick_nomination(profile: Profile, named: list[int], already: set[int] | frozenset[int]) -> int | None:
    """Which of the seats a player `named` in one speech is accepted, given those `already` nominated that day.

    rfm 4.4.2: the first not yet nominated; mafclub 2.3.12 and showtime ¶10: the last not yet nominated.
    The engine asks it when a speech brings a second name, so the profile's `nomination_pick` decides which stands.
    """
    fresh = [seat for seat in named if seat not in already]
    if not fresh:
        return None
    return fresh[0] if profile.nomination_pick.value == "first" else fresh[-1]


def best_move_points(profile: Profile, role: str | None, blacks_named: int) -> float | None:
    """Points for a best move naming `blacks_named` black players, or None where the profile gives none."""
    table = profile.best_move_points.value
    if table is None or role is None:
        return None
    team = "sheriff" if role == "sheriff" else ("red" if role == "civilian" else None)
    if team is None:
        return 0.0
    return table[team].get(blacks_named, 0.0)


def lift_ban(profile: Profile, tied: int, at_table: int) -> Cited | None:
    """The clause that forbids a vote to lift `tied` players with `at_table` seated, or None if it may be held."""
    if profile.lift_all_banned.value and tied >= at_table:
        return profile.lift_all_banned
    for ban in profile.lift_bans:
        if ban.value == (tied, at_table):
            return ban
    return None


def _shown(value: Any) -> str:
    """A profile id as a judge reads it: "rfm2" in quotes, or what kind of value it was."""
    if isinstance(value, str):
        return f'"{value[:30]}"'
    return "null" if value is None else _("of the wrong kind ({kind})", kind=type(value).__name__)
