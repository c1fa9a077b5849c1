"""Voting arithmetic under a profile: who leaves after a round, a tie, or a lift vote.

Pure functions of the round's context and its counts, shared by the engine (protocol counts) and the
audit (counts the video supports), so both tell the same story for the same numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

from contract.i18n import N_, sentence_reader
from review.game.profiles import Profile, lift_ban

# An outcome keeps its English sentence (`Outcome.text`: the audit and review.cases read it back); where a judge
# reads it inside another sentence, `outcome_words` gives it as the catalogue message it stands for ({seat},
# {day}, {n} a number; {seats} numbers joined by ", ").
OUTCOME_MSGIDS = (
    N_("no vote: single candidate on day {day}"), N_("seat {seat} leaves without a vote"), N_("seat {seat} leaves"),
    N_("seats {seats} leave"), N_("tie {seats}: all stay, no revote at {n}"), N_("tie {seats}: revote"),
    N_("tie {seats}: all stay, no lift vote"), N_("tie {seats}: lift vote"), N_("all stay"),
)


_read_outcome = sentence_reader(OUTCOME_MSGIDS)


def outcome_words(text: str) -> str:
    """An outcome's sentence in the reader's language; any other text as it is."""
    return _read_outcome(text) or text


@dataclass(frozen=True)
class VoteContext:
    """Everything a vote's outcome depends on besides the counts.

    `candidates` are this round's, in voting order; `living` the seats at the table who may vote when the
    round began; `stage` is "first" (round 1), "revote" (a round after a tie) or "lift" (the lift-all vote).
    """

    day: int
    round: int
    kind: str  # "vote" | "lift"
    candidates: tuple[int, ...]
    living: tuple[int, ...]
    is_last_candidate: bool
    stage: str  # "first" | "revote" | "lift"
    candidate: int | None = None  # the seat this vote event is about (None for a lift vote)
    versions_ban: bool = False  # rfm 4.4.16 exception 1 applies: no lifting two of four


@dataclass(frozen=True)
class Outcome:
    """What a round decides. `next`: leave | revote | lift | stay | no_vote; `tied` for revote and lift."""

    text: str
    leaving: tuple[int, ...]
    next: str
    tied: tuple[int, ...] = ()
    clause: str | None = None


def _seats(seats: tuple[int, ...] | list[int]) -> str:
    return ", ".join(str(s) for s in seats)


def with_silent(profile: Profile, ctx: VoteContext, counts: dict[int, int]) -> dict[int, int]:
    """The counts with the silent players' votes given to the last candidate where the profile says so.

    The last candidate gets at least everyone at the table who did not vote for another candidate
    (rfm 4.4.10, mafclub 2.4.10, lvi2015 5.4), so hand counts and announced counts give the same result.
    """
    result = {c: counts.get(c, 0) for c in ctx.candidates}
    if ctx.kind == "vote" and profile.silent_vote_to_last.value and ctx.candidates:
        last = ctx.candidates[-1]
        others = sum(result[c] for c in ctx.candidates[:-1])
        result[last] = max(result[last], len(ctx.living) - others)
    return result


def vote_outcome(profile: Profile, ctx: VoteContext, counts: dict[int, int]) -> Outcome:
    """The outcome of one voting round with `counts` per candidate (hands seen or announced)."""
    if ctx.kind != "vote":
        raise ValueError("vote_outcome is for voting rounds; use lift_outcome for a lift vote")
    candidates = ctx.candidates
    if len(candidates) == 1 and ctx.round == 1:
        rule = profile.single_day1 if ctx.day == 1 else profile.single_later
        seat = candidates[0]
        if rule.value == "no_vote":
            return Outcome(f"no vote: single candidate on day {ctx.day}", (), "no_vote", (), rule.clause)
        if rule.value == "leaves":
            return Outcome(f"seat {seat} leaves without a vote", (seat,), "leave", (), rule.clause)
    final = with_silent(profile, ctx, counts)
    top = max(final.values())
    tied = tuple(c for c in candidates if final[c] == top)
    if len(tied) == 1:
        return Outcome(f"seat {tied[0]} leaves", tied, "leave", (), profile.most_votes.clause)
    at_table = len(ctx.living)
    label = f"tie {_seats(tied)}"
    if profile.no_revote_at.value == at_table:
        return Outcome(f"{label}: all stay, no revote at {at_table}", (), "stay", tied, profile.no_revote_at.clause)
    fewer = len(tied) < len(candidates)
    if ctx.round == 1 or (fewer and profile.tie_fewer_revote.value):
        clause = profile.tie_revote.clause if ctx.round == 1 else profile.tie_fewer_revote.clause
        return Outcome(f"{label}: revote", (), "revote", tied, clause)
    if profile.three_split_night.value == at_table:
        return Outcome(f"{label}: all stay, no lift vote", (), "stay", tied, profile.three_split_night.clause)
    ban = lift_ban(profile, len(tied), at_table)
    if ban is None and ctx.versions_ban and profile.versions_exception.value and (len(tied), at_table) == (2, 4):
        ban = profile.versions_exception
    if ban is not None:
        return Outcome(f"{label}: all stay, no lift vote", (), "stay", tied, ban.clause)
    return Outcome(f"{label}: lift vote", (), "lift", tied, profile.lift_majority.clause)


def lift_outcome(profile: Profile, ctx: VoteContext, yes: int) -> Outcome:
    """The lift-all vote: the tied leave when more than half of the players at the table vote for it."""
    if 2 * yes > len(ctx.living):
        who = "seat" if len(ctx.candidates) == 1 else "seats"
        verb = "leaves" if len(ctx.candidates) == 1 else "leave"
        return Outcome(f"{who} {_seats(ctx.candidates)} {verb}", tuple(ctx.candidates), "leave", (), profile.lift_majority.clause)
    return Outcome("all stay", (), "stay", (), profile.lift_majority.clause)
