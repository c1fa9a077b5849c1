"""The rules engine: replays a protocol under its rule profile, event by event.

`step(profile, state, index, event)` is a pure function: it returns a new `GameState` and the problems the
event shows (where the protocol disagrees with the rules). `replay(data)` folds it over the events.

What a protocol may leave out (times, voters, speeches, eliminations, whole vote records) is never a problem:
missing facts make the state "incomplete" and the checks that would need them are skipped.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from contract.i18n import _, ngettext, term
from review.game.gamestate import BLACK_ROLES, SEATS, GameState, Poll, initial_state, pos_of, sane, stage_of
from review.game.problems import ENDS_GAME, REMOVAL_DUE, Problem
from review.game.profiles import Profile, get_profile, pick_nomination
from review.game.voting import Outcome, VoteContext, lift_outcome, outcome_words, vote_outcome, with_silent

__all__ = [
    "GameState",
    "Outcome",
    "Replay",
    "VoteContext",
    "finish",
    "initial_state",
    "lift_outcome",
    "replay",
    "step",
    "vote_outcome",
    "with_silent",
]

# Events that move the game on: a 4th foul's removal must come before any of them (an `elimination` event
# with cause "removal" may stand for the removal itself, so it is not one of them).
_ACTIONS = frozenset({"phase", "nomination", "withdrawal", "vote", "lift_vote", "shooting", "check", "speech", "result"})
# Events that make no sense once the game is over.
_PLAY = frozenset({"phase", "nomination", "withdrawal", "vote", "lift_vote", "shooting", "check"})


@dataclass
class Replay:
    """What a replay tells: the problems, who left and how, the result, and each vote's context."""

    problems: list[Problem]
    eliminations: list[dict[str, Any]]
    result: str | None
    final: GameState
    vote_contexts: dict[int, VoteContext]
    outcomes: dict[int, Outcome]

    @property
    def notes(self) -> list[Problem]:
        """Remarks that are no problem, each with its path and clause (a concession accepted, mafclub 2.7.1)."""
        return list(self.final.notes)

    @property
    def result_clause(self) -> str | None:
        return self.final.result_clause

    @property
    def result_reason(self) -> str | None:
        """The result in words: which fact of the game gives it."""
        return self.final.result_why

    def to_json(self) -> dict[str, Any]:
        """`stopframe replay --json` (spec §6) plus fouls, lost speeches and each round's outcome."""
        s = self.final
        return {
            "eliminations": [dict(e) for e in self.eliminations],
            "result": self.result,
            "result_clause": s.result_clause,
            "result_reason": s.result_why,
            "notes": [n.to_json() for n in s.notes],
            "problems": [p.to_json() for p in self.problems],
            "at_table": sorted(s.at_table),
            "fouls": {str(k): v for k, v in sorted(s.fouls.items())},
            "fines": {str(k): v for k, v in sorted(s.fines.items())},
            "lost_speech": {str(k): v for k, v in sorted(s.lost_speech.items())},
            "votes": [
                {"event": i, "text": o.text, "leaving": list(o.leaving), "clause": o.clause}
                for i, o in sorted(self.outcomes.items())
            ],
        }


# ----------------------------------------------------------------------------------------------- replay


def replay(data: dict[str, Any], profile: Profile | None = None) -> Replay:
    """Replay a protocol dict (format already sound) under `profile` (default: the protocol's rules)."""
    profile = profile or get_profile(data.get("rules", ""))
    state = initial_state(data)
    problems: list[Problem] = []
    for index, event in enumerate(data.get("events") or []):
        state, found = step(profile, state, index, event)
        problems.extend(found)
    state, found = finish(profile, state)
    problems.extend(found)
    return Replay(problems, state.eliminations, state.result, state, state.contexts, state.outcomes)


def step(profile: Profile, state: GameState, index: int, event: dict[str, Any]) -> tuple[GameState, list[Problem]]:
    """Apply one event: the new state and the problems it shows. `state` is not changed."""
    s = state.copy()
    run = _Run(profile, s, index, sane(event))
    run.apply()
    return s, run.problems


def finish(profile: Profile, state: GameState) -> tuple[GameState, list[Problem]]:
    """After the last event: a 4th foul still waiting for its removal is a problem."""
    s = state.copy()
    run = _Run(profile, s, -1, {})
    run.check_pending_removals()
    return s, run.problems


class _Run:
    """One event applied to a (private copy of the) state; collects the problems."""

    def __init__(self, profile: Profile, state: GameState, index: int, event: dict[str, Any]) -> None:
        self.p = profile
        self.s = state
        self.i = index
        self.e = event
        self.problems: list[Problem] = []

    # -------------------------------------------------------------------------------------- helpers

    def problem(self, field_name: str | None, message: str, clause: str | None, index: int | None = None,
                code: str = "") -> None:
        where = f"events[{self.i if index is None else index}]"
        self.problems.append(Problem(f"{where}.{field_name}" if field_name else where, message, clause, code))

    @property
    def miscount(self) -> str:
        """The clause a count that does not add up breaks (rfm 7.1.2.3: a judge's technical error)."""
        return self.p.offence("count_mismatch").clause

    def out_clause(self, seat: int) -> str | None:
        return self.s.out.get(seat, {}).get("clause")

    def require_seated(self, seat: int, field_name: str, doing: str) -> bool:
        """`doing` is what the seat cannot do once out, a code of the catalogue's "cannot_do" terms."""
        if seat in self.s.at_table:
            return True
        how = self.s.out.get(seat)
        left = _(" (left by {cause})", cause=_cause(how["cause"])) if how else ""
        self.problem(field_name, _("seat {seat} is out of the game{left} and cannot {doing}.", seat=seat, left=left,
                                   doing=term("cannot_do", doing)), self.out_clause(seat))
        return False

    def advance(self, target: int) -> bool:
        """Move game time forward to `target`, running each phase's end; False if it is already past."""
        s = self.s
        if target < s.pos:
            return False
        while s.pos < target:
            self.leave(s.pos)
            s.pos += 1
            self.arrive(s.pos)
        return True

    # ------------------------------------------------------------------------------------ dispatch

    def apply(self) -> None:
        kind = self.e.get("type")
        if kind in _ACTIONS:
            self.check_pending_removals()
        if self.s.result is not None and kind in _PLAY and not self.same_night_check(kind):
            self.problem(None, _("the game was already over: {result}.", result=_result_words(self.s.result)),
                         self.s.result_clause, code=ENDS_GAME)
            return
        handler = getattr(self, f"on_{kind}", None)
        if handler is not None:
            handler()

    def same_night_check(self, kind: str) -> bool:
        """The Don's and Sheriff's checks still happen in the night whose shooting decided the game."""
        night = self.e.get("night")
        return kind == "check" and self.s.over_at == self.s.pos and isinstance(night, int) and self.s.pos == pos_of("night", night)

    def check_pending_removals(self) -> None:
        for seat, foul_index in sorted(self.s.pending_removal.items()):
            self.problem(
                None,
                _("seat {seat}'s foul no. {n} removes him at once, but no removal follows.", seat=seat,
                  n=self.p.removal_at.value),
                self.p.removal_at.clause,
                index=foul_index,
                code=REMOVAL_DUE,
            )
            del self.s.pending_removal[seat]
            if seat in self.s.at_table and self.s.result is None:
                self.eliminate(seat, "removal", self.p.removal_at.clause)
                self.after_removal(seat)
                self.check_win()

    # ---------------------------------------------------------------------------------- game time

    def leave(self, pos: int) -> None:
        stage, n = stage_of(pos)
        if stage == "night" and n >= 1 and n not in self.s.shootings:
            self.s.incomplete = True  # the night's shooting is not in the protocol
            self.s.streak = 0
        elif stage == "voting":
            self.end_day(n)

    def arrive(self, pos: int) -> None:
        stage, n = stage_of(pos)
        s = self.s
        s.speaker = None
        if stage == "day":
            s.nominations.setdefault(n, [])
            s.nominated_by.setdefault(n, set())
            s.day_left, s.day_voted_out, s.day_closed, s.spoke = [], [], False, set()
            self.set_circle(n)
        elif stage == "voting":
            self.start_voting(n)
        else:
            s.night_left = []
            s.poll = None

    def set_circle(self, day: int) -> None:
        """Who opens and closes the day's circle (rfm 4.3.2): day 1 from seat 1, then the next one on."""
        s = self.s
        seated = sorted(s.at_table)
        if not seated:
            return
        previous = s.opener.get(day - 1)
        start = 1 if previous is None else previous % 10 + 1
        ring = [(start - 1 + k) % 10 + 1 for k in range(10)]
        opener = next(seat for seat in ring if seat in s.at_table)
        s.opener[day] = opener
        s.closer[day] = next(seat for seat in reversed(ring) if seat in s.at_table and seat != opener) if len(seated) > 1 else opener

    def on_phase(self) -> None:
        stage, number = self.e.get("phase"), self.e.get("number")
        if stage not in ("night", "day", "voting") or not isinstance(number, int):
            return
        if stage != "night" and number < 1:
            message = (_("there is no day {n}: day 1 follows night 0.", n=number) if stage == "day"
                       else _("there is no voting {n}: day 1 follows night 0.", n=number))
            self.problem("number", message, self.p.phase_order.clause)
            return
        target = pos_of(stage, number)
        if not self.advance(target):
            now, n = stage_of(self.s.pos)
            self.problem("number", _("{phase} cannot start {during}: phases go forward only.",
                                     phase=_phase(stage, number), during=_during(now, n)), self.p.phase_order.clause)

    # ------------------------------------------------------------------------------------- day

    def enter_day(self, day: int, what: str) -> bool:
        """Bring the game to day `day`'s discussion; a problem if it is already past it."""
        if not isinstance(day, int) or day < 1:
            return False
        if self.advance(pos_of("day", day)) and self.s.pos == pos_of("day", day):
            return True
        now, n = stage_of(self.s.pos)
        message = (_("a nomination for day {day} {during}: nominations belong to the day's discussion.", day=day,
                     during=_during(now, n)) if what == "nomination" else
                   _("a withdrawal for day {day} {during}: nominations belong to the day's discussion.", day=day,
                     during=_during(now, n)))
        self.problem("day", message, self.p.nominations_per_player.clause)
        return False

    def on_speech(self) -> None:
        seat, kind, day = self.e.get("seat"), self.e.get("kind"), self.e.get("day")
        if isinstance(day, int) and day >= 1 and kind in ("day", "tie"):
            self.advance(pos_of("day" if kind == "day" else "voting", day))
        if seat not in SEATS:
            return
        if kind == "last":
            if seat in self.s.at_table and isinstance(day, int) and self.s.pos == pos_of("day", day):
                self.advance(pos_of("voting", day))  # a last word on day d: the day's discussion is over
            how = self.s.out.get(seat)
            if how is None:
                self.problem("seat", _("seat {seat} is still in the game and has no last minute.", seat=seat),
                             self.p.most_votes.clause)
            elif how["cause"] == "removal" and not self.p.removed_last_word.value:
                self.problem("seat", _("seat {seat} was removed and has no last word.", seat=seat),
                             self.p.removed_last_word.clause)
            return
        if self.require_seated(seat, "seat", "speak"):
            self.s.speaker = seat
            if kind == "day":
                self.s.spoke.add(seat)

    def on_nomination(self) -> None:
        s, p = self.s, self.p
        day, by, target = self.e.get("day"), self.e.get("by"), self.e.get("target")
        if not self.enter_day(day, "nomination"):
            return
        if by not in SEATS or target not in SEATS:
            return
        if not self.require_seated(by, "by", "nominate"):
            return
        if not self.require_seated(target, "target", "be_nominated"):
            return
        standing = s.nominations[day]
        if any(t == target for _, t in standing):
            self.problem("target", _("seat {seat} is already nominated on day {day}.", seat=target, day=day),
                         p.nomination_pick.clause)
            return
        own = [pair for pair in standing if pair[0] == by]
        if own or by in s.nominated_by[day]:
            # A second name in the same speech: the profile picks which stands (rfm 4.4.2 the first, mafclub
            # 2.3.12 and showtime ¶10 the last not yet nominated); in another speech it is refused outright.
            others = {t for b, t in standing if b != by}
            kept = pick_nomination(p, [t for _, t in own] + [target], others) if s.speaker == by else None
            if kept != target:
                self.problem("by", _("seat {seat} already nominated on day {day}: one nomination per player a day.",
                                     seat=by, day=day), p.nominations_per_player.clause)
                return
            for pair in own:
                standing.remove(pair)
        standing.append((by, target))
        s.nominated_by[day].add(by)
        s.speaker = by

    def on_withdrawal(self) -> None:
        s, p = self.s, self.p
        day, by, target = self.e.get("day"), self.e.get("by"), self.e.get("target")
        if not self.enter_day(day, "withdrawal"):
            return
        if not p.withdrawal.value:
            self.problem(None, _("a nomination may not be withdrawn under these rules."), p.withdrawal.clause)
            return
        if by not in SEATS or not self.require_seated(by, "by", "withdraw"):
            return
        if (by, target) not in s.nominations[day]:
            self.problem("target", _("seat {seat} has no standing nomination of seat {target} to withdraw.", seat=by,
                                     target=target), p.withdrawal.clause)
            return
        if s.speaker != by:
            self.problem(None, _("seat {seat} may withdraw only a nomination made in his current speech.", seat=by),
                         p.withdrawal.clause)
            return
        s.nominations[day].remove((by, target))

    # ------------------------------------------------------------------------------------- voting

    def start_voting(self, day: int) -> None:
        """The day's discussion is over: decide whether and on whom the day votes."""
        s, p = self.s, self.p
        named = s.implied[day] if day in s.implied else [t for _, t in s.nominations.get(day, [])]
        candidates = tuple(t for t in named if t in s.at_table)
        poll = Poll(day=day, status="none")
        s.poll = poll
        if s.cancel_today or s.cancel_pending:
            why_clause = p.removal_cancels.clause
            if s.cancel_pending:
                s.cancel_pending -= 1
            s.cancel_today = False
            poll.status, poll.why, poll.clause = "cancelled", _("a removal cancelled this day's vote"), why_clause
            return
        if not candidates:
            poll.why, poll.clause = _("nobody was nominated on day {day}", day=day), p.vote_order.clause
            return
        living = tuple(sorted(s.at_table))
        if len(candidates) == 1:
            rule = p.single_day1 if day == 1 else p.single_later
            if rule.value == "no_vote":
                poll.why, poll.clause = _("a single candidate on day {day} is not voted on", day=day), rule.clause
                poll.outcome = Outcome(f"no vote: single candidate on day {day}", (), "no_vote", (), rule.clause)
                return
            if rule.value == "leaves":
                seat = candidates[0]
                poll.why, poll.clause = _("a single candidate on day {day} leaves without a vote", day=day), rule.clause
                poll.outcome = Outcome(f"seat {seat} leaves without a vote", (seat,), "leave", (), rule.clause)
                poll.status = "done"
                self.eliminate(seat, "vote", rule.clause)
                self.check_win()
                return
        poll.status, poll.expect, poll.round = "open", "vote", 1
        poll.candidates, poll.living = candidates, living

    def enter_voting(self, day: Any, what: str) -> Poll | None:
        if not isinstance(day, int) or day < 1:
            return None
        if not self.advance(pos_of("voting", day)) or self.s.pos != pos_of("voting", day) or self.s.poll is None:
            now, n = stage_of(self.s.pos)
            message = (_("a vote for day {day} {during}.", day=day, during=_during(now, n)) if what == "vote"
                       else _("a lift vote for day {day} {during}.", day=day, during=_during(now, n)))
            self.problem("day", message, self.p.vote_order.clause)
            return None
        return self.s.poll

    def refuse_vote(self, poll: Poll, what: str) -> bool:
        """A vote event where the rules hold none: say why; True if refused."""
        if poll.status == "open":
            return False
        if poll.status in ("none", "cancelled"):
            message = (_("no vote is held on day {day}: {why}.", day=poll.day, why=poll.why) if what == "vote"
                       else _("no lift vote is held on day {day}: {why}.", day=poll.day, why=poll.why))
            self.problem(None, message, poll.clause)
        elif poll.status == "done" and poll.outcome is not None:
            self.problem(None, _("the voting of day {day} was already decided: {outcome}.", day=poll.day,
                                 outcome=outcome_words(poll.outcome.text)), poll.outcome.clause)
        else:
            self.problem(None, _("the voting of day {day} is over.", day=poll.day), self.p.most_votes.clause)
        return True

    def check_voters(self, poll: Poll) -> list[int] | None:
        voters = self.e.get("voters")
        if not isinstance(voters, list):
            return None
        seen: set[int] = set()
        for j, v in enumerate(voters):
            if v in seen:
                self.problem(f"voters[{j}]", _("seat {seat} is listed twice.", seat=v), self.p.repeated_vote.clause)
            elif v not in self.s.at_table:
                self.require_seated(v, f"voters[{j}]", "vote")
            seen.add(v)
        return [v for v in voters if isinstance(v, int)]

    def on_vote(self) -> None:
        p, s = self.p, self.s
        poll = self.enter_voting(self.e.get("day"), "vote")
        if poll is None:
            return
        poll.recorded = True
        if self.refuse_vote(poll, "vote"):
            return
        if poll.expect == "lift":
            self.problem(None, _("a lift vote on {seats} is due, not another round.", seats=_seats(poll.candidates)),
                         p.lift_majority.clause)
            return
        candidate, count, rnd = self.e.get("candidate"), self.e.get("count"), self.e.get("round")
        if candidate not in poll.candidates:
            self.problem("candidate", _("seat {seat} is not a candidate in round {round} (candidates: {seats}).",
                                        seat=candidate, round=poll.round, seats=_seats(poll.candidates)),
                         p.vote_order.clause)
            return
        if candidate in poll.counts:
            self.problem("candidate", _("seat {seat} was already voted on in round {round}.", seat=candidate,
                                        round=poll.round), p.vote_order.clause)
            return
        if isinstance(rnd, int) and rnd != poll.round:
            self.problem("round", _("this is round {round} of day {day}, not {given}.", round=poll.round, day=poll.day,
                                    given=rnd), p.tie_revote.clause)
        expected = next(c for c in poll.candidates if c not in poll.counts)
        if candidate != expected:
            self.problem("candidate", _("seat {seat} is voted on before seat {other} (nomination order).", seat=expected,
                                        other=candidate), p.vote_order.clause)
        if not isinstance(count, int):
            return
        voters = self.check_voters(poll)
        is_last = candidate == poll.candidates[-1]
        s.contexts[self.i] = VoteContext(
            poll.day, poll.round, "vote", poll.candidates, poll.living, is_last,
            "first" if poll.round == 1 else "revote", candidate, s.versions_ban,
        )
        total = sum(poll.counts.values()) + count
        if total > len(poll.living):
            self.problem("count", ngettext("{n} vote in round {round} but only {players} players may vote.",
                                           "{n} votes in round {round} but only {players} players may vote.", total,
                                           round=poll.round, players=len(poll.living)), self.miscount)
        poll.counts[candidate] = count
        poll.events[candidate] = self.i
        poll.voters[candidate] = voters
        if voters is not None and not (is_last and p.silent_vote_to_last.value):
            counted = set(voters)
            if p.repeated_vote.value == "first":
                earlier = {v for c, vs in poll.voters.items() if c != candidate and vs for v in vs}
                counted -= earlier
            if count != len(counted):
                self.problem("count", _voters_differ(count, len(counted)), self.miscount)
        if len(poll.counts) == len(poll.candidates):
            self.close_round(poll)

    def close_round(self, poll: Poll) -> None:
        """Every candidate of the round has a count: check the last one's arithmetic, then decide."""
        p = self.p
        last = poll.candidates[-1]
        last_index = poll.events[last]
        if p.silent_vote_to_last.value and not poll.removal_in_round:
            others = sum(poll.counts[c] for c in poll.candidates[:-1])
            due = len(poll.living) - others
            listed = poll.voters[last]
            if 0 <= due != poll.counts[last]:
                self.problem(
                    "count", _("the last candidate's count must include the silent players' votes: "
                               "{players} players − {others} for the others = {due}, not {count}.",
                               players=len(poll.living), others=others, due=due, count=poll.counts[last]),
                    p.silent_vote_to_last.clause, index=last_index,
                )
            elif all(poll.voters[c] is not None for c in poll.candidates):
                voted = {v for c in poll.candidates for v in poll.voters[c] or []}
                silent = set(poll.living) - voted
                if listed is not None and poll.counts[last] != len(set(listed)) + len(silent):
                    self.problem(
                        "count", _("the count {count} differs from the {listed} voters listed plus {silent} silent "
                                   "players.", count=poll.counts[last], listed=len(set(listed)), silent=len(silent)),
                        p.silent_vote_to_last.clause, index=last_index,
                    )
            elif listed is not None and poll.counts[last] < len(set(listed)):
                self.problem("count", _("the count {count} is less than the {listed} voters listed.",
                                        count=poll.counts[last], listed=len(set(listed))), self.miscount, index=last_index)
        ctx = self.s.contexts.get(last_index) or VoteContext(
            poll.day, poll.round, "vote", poll.candidates, poll.living, True, "first", last, self.s.versions_ban
        )
        outcome = vote_outcome(p, ctx, poll.counts)
        self.apply_outcome(poll, outcome, "vote", last_index)

    def apply_outcome(self, poll: Poll, outcome: Outcome, cause: str, index: int) -> None:
        s = self.s
        s.outcomes[index] = outcome
        poll.outcome = outcome
        if outcome.next == "revote":
            poll.round += 1
            poll.candidates, poll.living = outcome.tied, tuple(sorted(s.at_table))
            poll.counts, poll.events, poll.voters, poll.removal_in_round = {}, {}, {}, False
            return
        if outcome.next == "lift":
            poll.expect, poll.candidates, poll.living = "lift", outcome.tied, tuple(sorted(s.at_table))
            return
        poll.status, poll.expect = "done", None
        for seat in outcome.leaving:
            self.eliminate(seat, cause, outcome.clause)
        if poll.day == 1:
            s.day1_vote_leavers += len(outcome.leaving)
        if len(outcome.leaving) > 1 and not s.at_table:
            self.all_left()
        self.check_win()

    def on_lift_vote(self) -> None:
        p, s = self.p, self.s
        poll = self.enter_voting(self.e.get("day"), "lift_vote")
        if poll is None:
            return
        poll.recorded = True
        if poll.status == "done" and poll.outcome is not None and poll.outcome.next == "stay" and poll.outcome.tied:
            self.problem(None, _("no lift vote is held: {outcome}.", outcome=outcome_words(poll.outcome.text)), poll.outcome.clause)
            return
        if self.refuse_vote(poll, "lift_vote"):
            return
        if poll.expect != "lift":
            self.problem(None, _("no lift vote is due: round {round} of day {day} is being voted.", round=poll.round,
                                 day=poll.day), p.lift_majority.clause)
            return
        candidates = self.e.get("candidates")
        if not isinstance(candidates, list) or sorted(candidates) != sorted(poll.candidates):
            self.problem("candidates", _("the tie was between {seats}.", seats=_seats(poll.candidates)),
                         p.lift_majority.clause)
        count = self.e.get("count")
        if not isinstance(count, int):
            return
        voters = self.check_voters(poll)
        if count > len(poll.living):
            self.problem("count", ngettext("{n} vote but only {players} players may vote.",
                                           "{n} votes but only {players} players may vote.", count,
                                           players=len(poll.living)), self.miscount)
        if voters is not None and count != len(set(voters)):
            self.problem("count", _voters_differ(count, len(set(voters))), self.miscount)
        rnd = self.e.get("round")
        ctx = VoteContext(poll.day, rnd if isinstance(rnd, int) else poll.round + 1, "lift", poll.candidates, poll.living,
                          False, "lift", None, s.versions_ban)
        s.contexts[self.i] = ctx
        self.apply_outcome(poll, lift_outcome(p, ctx, count), "lift", self.i)

    def end_day(self, day: int) -> None:
        """The day's voting phase ends (night falls, or the result is announced)."""
        s, p = self.s, self.p
        if s.day_closed:
            return
        s.day_closed = True
        s.lost_speech = {seat: lost for seat, lost in s.lost_speech.items() if lost > day}  # served
        poll = s.poll
        if poll is not None and poll.status == "open":
            if not poll.recorded:
                poll.status = "unrecorded"  # a paper protocol without vote counts: unknown, not wrong
                s.incomplete = True
            else:
                self.problem(None, self.unfinished(poll), p.tie_revote.clause if poll.round > 1 or poll.expect == "lift"
                             else p.vote_order.clause)
                poll.status = "unfinished"
                s.incomplete = True
        if poll is not None:
            s.polls[day] = poll.status
        self.count_quiet_day(day)

    def unfinished(self, poll: Poll) -> str:
        if poll.expect == "lift":
            return _("day {day}'s repeated tie ({seats}) needs a lift vote.", day=poll.day, seats=_seats(poll.candidates))
        missing = [c for c in poll.candidates if c not in poll.counts]
        if poll.round > 1 and not poll.counts:
            return _("day {day}'s tie ({seats}) needs revote round {round}.", day=poll.day, seats=_seats(poll.candidates),
                     round=poll.round)
        return _("day {day}, round {round}: no vote on seat(s) {seats}.", day=poll.day, round=poll.round,
                 seats=_seats(missing))

    # -------------------------------------------------------------------------------------- night

    def on_shooting(self) -> None:
        p, s = self.p, self.s
        night, target = self.e.get("night"), self.e.get("target")
        if not isinstance(night, int):
            return
        if night < 1:
            self.problem("night", _("there is no shooting on night 0 (the deal and the mafia's meeting)."),
                         p.shooting.clause)
            return
        if not self.advance(pos_of("night", night)) or s.pos != pos_of("night", night):
            now, n = stage_of(s.pos)
            self.problem("night", _("a shooting for night {night} {during}.", night=night, during=_during(now, n)),
                         p.shooting.clause)
            return
        if night in s.shootings:
            self.problem(None, _("night {night} already has its shooting.", night=night), p.shooting.clause)
            return
        removed_tonight = s.out.get(target, {}).get("cause") == "removal" and s.out[target].get("night") == night
        if removed_tonight:
            # rfm 5.17: a player removed during the night and shot is announced as "removed and killed"
            s.shootings[night] = target
            s.streak = 0
            return
        if target is not None and not self.require_seated(target, "target", "be_killed"):
            target = None
        self.check_shots(target)
        s.shootings[night] = target
        if target is None:
            self.count_miss()
        else:
            self.eliminate(target, "shot", p.shooting.clause)
            self.check_win()

    def check_shots(self, target: int | None) -> None:
        shots = self.e.get("shots")
        if not isinstance(shots, dict) or not self.s.roles_known:
            return
        blacks = [seat for seat in sorted(self.s.at_table) if self.s.is_black(seat)]
        aims = [shots.get(str(seat), shots.get(seat)) for seat in blacks]
        if not blacks or any(a is None for a in aims):
            return  # not every living black's shot is recorded
        derived = aims[0] if len(set(aims)) == 1 and aims[0] in self.s.at_table else None
        if derived != target:
            said = _("a miss") if target is None else _("seat {seat} killed", seat=target)
            gives = _("a miss") if derived is None else _("seat {seat} killed", seat=derived)
            self.problem("target", _("the shots recorded give {gives}, not {said}.", gives=gives, said=said),
                         self.p.shooting.clause)

    def on_check(self) -> None:
        p, s = self.p, self.s
        night, by, target, result = (self.e.get(k) for k in ("night", "by", "target", "result"))
        if not isinstance(night, int) or by not in ("don", "sheriff"):
            return
        rule = p.don_check if by == "don" else p.sheriff_check
        if night < p.checks_from_night.value:
            self.problem("night", _("no checks on night {night}.", night=night), p.checks_from_night.clause)
            return
        if not self.advance(pos_of("night", night)) or s.pos != pos_of("night", night):
            now, n = stage_of(s.pos)
            self.problem("night", _("a check for night {night} {during}.", night=night, during=_during(now, n)),
                         rule.clause)
            return
        if (night, by) in s.checks:
            message = (_("the don already checked on night {night}: one check a night.", night=night) if by == "don"
                       else _("the sheriff already checked on night {night}: one check a night.", night=night))
            self.problem("by", message, p.checks_from_night.clause)
            return
        s.checks.add((night, by))
        checker = next((seat for seat in SEATS if s.roles.get(seat) == by), None)
        if checker is not None and checker not in s.at_table:
            message = (_("the Don (seat {seat}) is out of the game and cannot check.", seat=checker) if by == "don"
                       else _("the Sheriff (seat {seat}) is out of the game and cannot check.", seat=checker))
            self.problem("by", message, self.out_clause(checker))
        role = s.roles.get(target) if target in SEATS else None
        if role is None:
            return
        truth = ("sheriff" if role == "sheriff" else "not_sheriff") if by == "don" else ("black" if role in BLACK_ROLES else "red")
        if result != truth:
            self.problem("result", _('seat {seat} is {role}: the answer should have been "{truth}".', seat=target,
                                     role=term("engine_role", role, role), truth=term("check_answer", truth, truth)), rule.clause)

    def on_best_move(self) -> None:
        p, s = self.p, self.s
        seat = self.e.get("seat")
        if p.best_move.value is None or seat not in SEATS:
            return  # this rulebook has no best move: nothing to check
        s.best_moves += 1
        if s.best_moves > 1:
            self.problem(None, _("a second best move: only the player killed on night 1 has one."), p.best_move.clause)
            return
        if 1 in s.shootings:
            victim = s.shootings[1]
            if victim != seat:
                whom = (_("nobody was killed on night 1") if victim is None
                        else _("seat {seat} was killed on night 1", seat=victim))
                self.problem("seat", _("seat {seat} has no best move: {whom}.", seat=seat, whom=whom), p.best_move.clause)
                return
        elif s.pos <= pos_of("night", 1) - 1:
            self.problem(None, _("a best move before night 1's shooting."), p.best_move.clause)
            return
        ban = p.best_move_ban.value
        if ban is not None and s.day1_vote_leavers >= ban:
            self.problem(None, ngettext("no best move: {n} player left by the day-1 vote.",
                                        "no best move: {n} players left by the day-1 vote.", s.day1_vote_leavers),
                         p.best_move_ban.clause)

    # ---------------------------------------------------------------------------- fouls and removals

    def on_foul(self) -> None:
        p, s = self.p, self.s
        seat = self.e.get("seat")
        if seat not in SEATS:
            return
        s.fouls[seat] = s.fouls.get(seat, 0) + 1
        if s.fouls[seat] == p.speech_loss_at.value and seat in s.at_table:
            self.lose_speech(seat)
        removal = p.removal_at.value
        if removal is not None and s.fouls[seat] == removal and seat in s.at_table and s.result is None:
            s.pending_removal[seat] = self.i

    def lose_speech(self, seat: int) -> None:
        """Which day's speech the foul that reached the ladder's step costs (rfm 5.5, mafclub 3.4, showtime ¶31:
        the nearest one not yet spoken; lvi2015 6.6: the rest of the speech he is making, if he is speaking)."""
        s = self.s
        stage, n = stage_of(s.pos)
        if self.p.speech_loss_when.value == "current":
            if stage == "day" and s.speaker == seat:
                s.lost_speech[seat] = n
            return
        if stage == "night":
            s.lost_speech[seat] = n + 1
        elif stage == "day" and seat not in s.spoke:
            s.lost_speech[seat] = n
        else:
            s.lost_speech[seat] = n + 1

    def on_fine(self) -> None:
        seat, points = self.e.get("seat"), self.e.get("points")
        if seat in SEATS and isinstance(points, int | float):
            self.s.fines[seat] = round(self.s.fines.get(seat, 0.0) + points, 6)

    def on_removal(self) -> None:
        seat = self.e.get("seat")
        if seat not in SEATS:
            return
        self.remove(seat, self.e.get("clause"))

    def remove(self, seat: int, clause: str | None) -> None:
        """A removal from the table, with the votes it cancels and the result it may give."""
        s = self.s
        s.pending_removal.pop(seat, None)
        if seat not in s.at_table or s.result is not None:
            return  # already out (mafclub 3.12 (А)/(Б)) or after the deciding event (rfm 5.15)
        own = clause if clause and clause.startswith(self.p.id + " ") else None
        self.eliminate(seat, "removal", own or self.p.removed_last_word.clause)
        self.after_removal(seat)
        if clause:
            self.team_loss(seat, clause)
        self.check_win()

    def after_removal(self, seat: int) -> None:
        """Which vote a removal cancels (rfm 4.4.16 / 5.7, mafclub 3.12) and rfm 4.4.16's exception 1."""
        s, p = self.s, self.p
        stage, n = stage_of(s.pos)
        poll = s.poll if stage == "voting" else None
        decided = poll is not None and poll.status in ("done", "none", "cancelled", "unrecorded", "unfinished")
        if poll is not None and poll.status == "open":
            poll.removal_in_round = True
        rule = p.removal_cancels.value
        if rule == "current_or_nearest":
            if len(s.at_table) + 1 == 6 and s.is_black(seat) and (stage == "night" or decided):
                s.versions_ban = True
            if stage != "night" and self.closing_exception(n):
                return  # exception 2: the day's result is decided
            if stage == "day":
                s.cancel_today = True
            elif poll is not None and poll.status == "open":
                self.cancel(poll)
        elif rule == "nearest_each":
            if poll is not None and poll.status == "open":
                self.cancel(poll)  # 3.12.1
            else:
                s.cancel_pending += 1  # 3.12, 3.12.2, 3.12.4

    def closing_exception(self, day: int) -> bool:
        """rfm 4.4.16 exception 2: from day 2, the only candidate was named by the circle's closing speaker."""
        if not self.p.closing_nomination_exception.value or day < 2:
            return False
        standing = self.s.nominations.get(day, [])
        return len(standing) == 1 and standing[0][0] == self.s.closer.get(day)

    def cancel(self, poll: Poll) -> None:
        poll.status, poll.expect = "cancelled", None
        poll.why, poll.clause = _("a removal cancelled this day's vote"), self.p.removal_cancels.clause

    def team_loss(self, seat: int, clause: str) -> None:
        """rfm 5.13 / 5.19: the offender's team loses."""
        prefixes = self.p.team_loss_clauses.value
        black = self.s.is_black(seat)
        if self.s.result is not None or black is None or not any(clause == c or clause.startswith(c + ".") for c in prefixes):
            return
        why = (_("seat {seat}'s removal ({clause}) costs the black team the game", seat=seat, clause=clause) if black
               else _("seat {seat}'s removal ({clause}) costs the red team the game", seat=seat, clause=clause))
        self.conclude(("red" if black else "black"), clause, why)

    # -------------------------------------------------------------------------------- eliminations

    def eliminate(self, seat: int, cause: str, clause: str | None) -> None:
        s = self.s
        stage, n = stage_of(s.pos)
        when = "night" if stage == "night" else "day"
        record = {"seat": seat, "cause": cause, when: n}
        s.at_table.discard(seat)
        s.out[seat] = {"cause": cause, "clause": clause, when: n}
        s.eliminations.append(record)
        s.lost_speech.pop(seat, None)
        if stage == "night":
            s.night_left.append(seat)
            if cause == "shot":
                s.streak = 0
        else:
            s.day_left.append(seat)
            if cause in ("vote", "lift"):
                s.day_voted_out.append(seat)

    def conclude(self, result: str, clause: str | None, why: str | None = None) -> None:
        self.s.result, self.s.result_clause, self.s.over_at = result, clause, self.s.pos
        self.s.result_why = why

    def note(self, field_name: str | None, message: str, clause: str | None) -> None:
        """A remark that is no problem: the protocol is valid, and the replay says how it read it."""
        where = f"events[{self.i}]"
        self.s.notes = (*self.s.notes, Problem(f"{where}.{field_name}" if field_name else where, message, clause))

    def check_win(self) -> None:
        """After everyone leaving at one moment has left: red when no black is left, black at parity."""
        s, p = self.s, self.p
        if s.result is not None or not s.at_table or not s.roles_known:
            return
        blacks = sum(1 for seat in s.at_table if s.is_black(seat))
        if blacks == 0:
            self.conclude("red", p.red_win.clause, _("every black player is out of the game"))
        elif blacks >= len(s.at_table) - blacks:
            reds = len(s.at_table) - blacks
            self.conclude("black", p.black_win.clause,
                          _("{blacks} and {reds} are at the table: as many blacks as reds, or more",
                            blacks=_players(blacks, "black"), reds=_players(reds, "red")))

    def all_left(self) -> None:
        """Everyone at the table left at once (a lift vote of all)."""
        rule = self.p.all_leave
        if rule.value is not None:
            self.conclude(rule.value, rule.clause, _("everyone at the table left at once"))

    def on_elimination(self) -> None:
        s, p = self.s, self.p
        seat, cause = self.e.get("seat"), self.e.get("cause")
        stage, n = stage_of(s.pos)
        # Without its day or night, an elimination belongs to the voting or the night now running, or the next one.
        day = self.e.get("day", n + 1 if stage == "night" else n)
        night = self.e.get("night", max(n, 1))
        if s.result is None and cause in ("vote", "lift") and isinstance(day, int) and day >= 1:
            self.advance(pos_of("voting", day))
        elif s.result is None and cause == "shot" and isinstance(night, int) and night >= 1:
            self.advance(pos_of("night", night))
        for k, record in enumerate(s.eliminations):
            if record["seat"] == seat and k not in s.confirmed:
                s.confirmed.add(k)
                if record["cause"] != cause:
                    self.problem("cause", _("seat {seat} left by {cause}, not by {given}.", seat=seat,
                                            cause=_cause(record["cause"]), given=_cause(cause)), s.out[seat]["clause"])
                return
        if seat in s.out:
            self.problem("seat", _("seat {seat}'s elimination is already recorded.", seat=seat), s.out[seat]["clause"])
            return
        if seat not in SEATS or cause not in ("vote", "lift", "shot", "removal") or s.result is not None:
            if s.result is not None:
                self.problem("seat", _("seat {seat} cannot leave: the game was already over.", seat=seat),
                             s.result_clause, code=ENDS_GAME)
            return
        if self.unrecorded_fact(cause, day, night):
            before = len(s.eliminations)
            if cause == "removal":
                self.remove(seat, None)
            else:
                self.eliminate(seat, cause, p.most_votes.clause if cause != "shot" else p.shooting.clause)
                self.check_win()
            s.confirmed.update(range(before, len(s.eliminations)))
            return
        self.problem("seat", _("the rules do not give seat {seat}'s elimination by {cause} here.", seat=seat,
                               cause=_cause(cause)), self.why_not(cause))

    def unrecorded_fact(self, cause: str, day: Any, night: Any) -> bool:
        """Whether an elimination can be taken as a fact the protocol did not otherwise record."""
        s = self.s
        if cause in ("vote", "lift"):
            poll = s.poll if s.poll is not None and s.poll.day == day else None
            status = poll.status if poll is not None else s.polls.get(day)
            if poll is not None and poll.recorded:
                return False
            return status in ("open", "unrecorded") or (status == "none" and not s.nominations_recorded)
        if cause == "shot":
            return isinstance(night, int) and night >= 1 and night not in s.shootings
        return cause == "removal"

    def why_not(self, cause: str) -> str:
        return {"shot": self.p.shooting.clause, "removal": self.p.removal_cancels.clause}.get(cause, self.p.most_votes.clause)

    # ------------------------------------------------------------------------------------ draws

    def count_miss(self) -> None:
        s, p = self.s, self.p
        if p.quiet_draw.value is not None:
            kind, needed = p.quiet_draw.value
            if kind == "nights":
                s.streak += 1
                if s.streak >= needed:
                    self.conclude("draw", p.quiet_draw.clause, ngettext(
                        "{n} night in a row and the days between them with nobody leaving",
                        "{n} nights in a row and the days between them with nobody leaving", needed))
        elif p.misses_red_win.value is not None:
            s.streak += 1
            if s.streak >= p.misses_red_win.value:
                self.conclude("red", p.misses_red_win.clause, ngettext(
                    "{n} miss in a row with nobody voted out on the days between",
                    "{n} misses in a row with nobody voted out on the days between", p.misses_red_win.value))

    def count_quiet_day(self, day: int) -> None:
        """At a day's end: a day where someone left breaks the quiet streak (mafclub: count quiet night+day pairs)."""
        s, p = self.s, self.p
        if p.quiet_draw.value is not None:
            kind, needed = p.quiet_draw.value
            if kind == "nights":
                if s.day_left:
                    s.streak = 0
            else:
                night = day - 1
                quiet = night in s.shootings and s.shootings[night] is None and not s.night_left and not s.day_left
                s.streak = s.streak + 1 if quiet else 0
                if s.streak >= needed and s.result is None:
                    self.conclude("draw", p.quiet_draw.clause, ngettext(
                        "{n} night and {n} day in a row, from a night, with nobody leaving",
                        "{n} nights and {n} days in a row, from a night, with nobody leaving", needed))
        elif p.misses_red_win.value is not None and s.day_voted_out:
            s.streak = 0

    # ------------------------------------------------------------------------------------ result

    def on_result(self) -> None:
        s, p = self.s, self.p
        winner = self.e.get("winner")
        if winner not in ("red", "black", "draw"):
            return  # a format problem, reported by `validate`
        stage, n = stage_of(s.pos)
        if s.result is None and stage in ("day", "voting"):
            self.advance(pos_of("voting", n))  # the result closes the day: its voting ends here
            self.end_day(n)
        if s.announced_result is not None:
            self.problem("winner", _("the result was already announced."), s.result_clause or p.red_win.clause)
            return
        s.announced_result = winner
        if s.result is not None:
            if winner != s.result:
                self.problem("winner", _("the rules give {result}, not {announced}.", result=_result_words(s.result),
                                         announced=_result_words(winner)), s.result_clause, code=ENDS_GAME)
            return
        blacks = sum(1 for seat in s.at_table if s.is_black(seat))
        reds = len(s.at_table) - blacks
        if p.surrender.value and winner == "red":
            if s.roles_known and blacks:
                concession = _("accepted only as the black team's concession (the comment to {ref}: every black player "
                               "left says «Я сдаюсь» or visibly agrees)", ref=p.surrender.clause.split(" ", 1)[-1])
                still = _players(blacks, "black")
                self.conclude("red", p.surrender.clause, _("{blacks} still at the table: {concession}", blacks=still,
                                                           concession=concession))
                self.note("winner", _("A red win while {blacks} are still at the table is {concession}.", blacks=still,
                                      concession=concession), p.surrender.clause)
            else:
                self.conclude("red", p.surrender.clause, _("as announced: the protocol does not say who is black, "
                                                           "and the black team may concede"))
            return
        if s.incomplete or (not s.roles_known and winner != "draw"):
            self.conclude(winner, {"red": p.red_win, "black": p.black_win}.get(winner, p.quiet_draw).clause,
                          _("as announced: the protocol lacks facts the rules need to derive it"))
            return
        if winner == "draw":
            self.problem("winner", _("no draw rule applies here."), p.quiet_draw.clause)
            return
        if winner == "red" and blacks:
            self.problem("winner", _("a red win is recorded while {blacks} are still at the table: {red_win}, and "
                                     "{surrender}", blacks=_players(blacks, "black"),
                                     red_win=_clause_text(p.red_win.text).rstrip("."),
                                     surrender=_clause_text(p.surrender.text)),
                         p.red_win.clause)
            return
        self.problem("winner", _("the rules give no result yet: {blacks} black and {reds} red players are at the table.",
                                 blacks=blacks, reds=reds), p.red_win.clause, code=ENDS_GAME)


def _players(n: int, team: str) -> str:
    """«2 чёрных игрока» / "2 black players": the count in the plural form the language needs."""
    if team == "black":
        return ngettext("{n} black player", "{n} black players", n)
    return ngettext("{n} red player", "{n} red players", n)


def _result_words(result: Any) -> str:
    words = {"red": _("a red win"), "black": _("a black win"), "draw": _("a draw")}
    return words.get(result, repr(result))


def _clause_text(text: str) -> str:
    """A profile's sentence (catalogued where the engine quotes it) as part of a sentence: lower-case first letter."""
    words = _(text)
    return words[:1].lower() + words[1:]


def _seats(seats: Any) -> str:
    """Seat numbers as a list: 3, 5, 7."""
    return ", ".join(map(str, seats))


def _cause(cause: Any) -> str:
    """How a seat left (vote, lift, shot, removal), as the sentence «… left by {cause}» needs it."""
    return term("left_by", cause)


def _during(stage: str, n: int) -> str:
    """The game time an event came at: «во время ночи 2» / "during night 2"."""
    if stage == "night":
        return _("during night {n}", n=n)
    if stage == "voting":
        return _("during voting {n}", n=n)
    return _("during day {n}", n=n)


def _phase(stage: str, n: int) -> str:
    """A phase of the game named as the subject of a sentence: «ночь 2» / "night 2"."""
    if stage == "night":
        return _("night {n}", n=n)
    if stage == "voting":
        return _("voting {n}", n=n)
    return _("day {n}", n=n)


def _voters_differ(count: int, listed: int) -> str:
    return ngettext("the count {count} differs from the {n} voter listed.",
                    "the count {count} differs from the {n} voters listed.", listed, count=count)
