"""The live table in the reader's words: a seat's hand, where a tapped «Стоп» was placed, one line per vote for the
command line. Apart from pipeline.live so that the table's bookkeeping and what a judge reads change separately."""

from __future__ import annotations

from contract.i18n import _, ngettext, number, term
from pipeline.live import LiveVote


def seat_state_words(state: str) -> str:
    """A seat's hand for the candidate, in the reader's words."""
    return term("live_hand", state)


def stop_words(vote: LiveVote) -> str | None:
    """How a tapped «Стоп» was placed, in the reader's words (None: not tapped, or no sound to listen to)."""
    if vote.tapped is None:
        return None
    if vote.heard is None:
        return _("Listening for «Stop» in the sound before the tap…")
    if vote.heard_before_s is None:
        return _("«Stop» was not heard in the sound before the tap: the vote closes at the tap.")
    return _("«Stop» heard {seconds} s before the tap: the vote closes at the word.",
             seconds=number(vote.heard_before_s, 1))


def count_line(vote: LiveVote) -> str:
    """One line for the command line: the vote, the video's count and voters, the judge's count."""
    voters = [s for s, st in vote.seats.items() if st == "in_time"]
    parts = [_("{vote}: video {count}", vote=vote.label, count=vote.video_count)]
    parts.append(ngettext("seat {seats}", "seats {seats}", len(voters), seats=", ".join(map(str, voters)))
                 if voters else _("no hand in time"))
    for state in ("late", "lifted", "early", "unseen"):
        seats = [s for s, st in vote.seats.items() if st == state]
        if seats:
            parts.append(f"{seat_state_words(state)}: {', '.join(map(str, seats))}")
    if vote.judge_count is not None:
        parts.append(_("judge {count}", count=vote.judge_count) + (" ✓" if vote.matches else " ✗"))
    if vote.heard_before_s is not None:
        parts.append(_("«Stop» heard {seconds} s before the tap", seconds=number(vote.heard_before_s, 1)))
    return " · ".join(parts)
