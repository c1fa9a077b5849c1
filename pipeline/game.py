"""The game under its rules, as the command line and the app show it: the replay, each voting round with
the outcome the rules give, and a round's outcome under other counts (the judge's decisions).

Both callers come here rather than to the rules engine, so what a round decides is worked out one way.
"""

from __future__ import annotations

from typing import Any

from review.game.engine import Replay, replay
from review.game.profiles import Profile, get_profile
from review.game.voting import Outcome, lift_outcome, vote_outcome


def replay_game(data: dict[str, Any], profile: Profile | None = None) -> Replay:
    """The replay of a protocol of sound shape under `profile` (the protocol's own rules where None)."""
    return replay(data, profile)


def vote_rounds(data: dict[str, Any], game: Replay) -> list[dict[str, Any]]:
    """Each voting round with its counts and the outcome the rules give (from the replay's vote contexts)."""
    contexts = game.vote_contexts
    if not contexts:
        return []
    profile = get_profile(data["rules"])
    rounds: dict[tuple[int, int, str], dict[str, Any]] = {}
    for index in sorted(contexts):
        ctx, event = contexts[index], data["events"][index]
        entry = rounds.setdefault((ctx.day, ctx.round, ctx.kind), {
            "day": ctx.day, "round": ctx.round, "kind": ctx.kind, "candidates": list(ctx.candidates),
            "living": list(ctx.living), "counts": [], "_ctx": ctx})
        if ctx.kind == "lift":
            entry["yes"] = event["count"]
        else:
            entry["counts"].append({"candidate": event["candidate"], "count": event["count"]})
    out = []
    for entry in rounds.values():
        ctx = entry.pop("_ctx")
        if entry["kind"] == "lift":
            outcome = lift_outcome(profile, ctx, entry.get("yes", 0))
        else:
            outcome = vote_outcome(profile, ctx, {c["candidate"]: c["count"] for c in entry["counts"]})
        entry["outcome"], entry["leaving"] = outcome.text, list(outcome.leaving)
        entry["clause"] = outcome.clause
        out.append(entry)
    return out


def outcome_with(profile: Profile, game: Replay, event_index: int, counts: dict[int, int]) -> Outcome | None:
    """The voting round ending at event `event_index` decided on `counts` per candidate; None where the
    replay could not place that vote."""
    ctx = game.vote_contexts.get(event_index)
    return vote_outcome(profile, ctx, counts) if ctx is not None else None
