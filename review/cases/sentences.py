"""The English sentences review/ keeps in its reports, put in the reader's words for every surface that shows them.

Why here: a vote's outcome (review.game.voting) and why a night's shooting or check is not what the protocol says
(review.audit.night) are written into the audit report in English, since other code reads them back; the app's
pages and the command line's tables both show them, so both ask this one reader (neither may import the other).
"""

from __future__ import annotations

import re
from typing import Any

from contract import i18n
from contract.i18n import N_
from review.game.voting import OUTCOME_MSGIDS

_CODE_KINDS = ("kind", "consequence", "outcome", "pose")
# A code stands alone: a name in a path or a file name (`sample_videos/`, `sample_game.mp4`) is the file's own
# and is shown as written.
_CODE = re.compile(r"(?<![\w./\\-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b(?![/\\-]|\.\w)")

# Each sentence as the catalogue message it stands for: its `{seat}`, `{day}`, `{n}` stand for a number,
# `{seats}` for numbers joined by ", ".
_REVIEW_MSGIDS = (
    *OUTCOME_MSGIDS,
    N_("no black at the table"), N_("seat {seat} did not shoot"), N_("seat {seat} shot on several numbers"),
    N_("seat {seat} fired outside the count"), N_("different numbers"),
    N_("the observations do not cover this stretch: not audited"),
    N_("the protocol's roles do not say who checked: not audited"),
    N_("seat {seat} is no longer at the table: no check to see"), N_("the camera cannot see seat {seat}'s raised hands"),
    N_("no number read on video"),
)
_read_review = i18n.sentence_reader(_REVIEW_MSGIDS)


def code_words(code: str) -> str:
    """An internal code (a finding kind, a consequence, an outcome, a pose) in the reader's words."""
    for context in _CODE_KINDS:
        words = i18n.term(context, code, "")
        if words:
            return words
    return code.replace("_", " ")


def _one(text: str) -> str:
    read = _read_review(text)
    if read is not None:
        return read
    return _CODE.sub(lambda m: code_words(m.group(0)), text)


def humanise(text: Any) -> str:
    """Free text from review/ in the reader's words: its known sentences from the catalogue (parts joined by
    `; ` each on its own), any internal code in it replaced by its words."""
    return "; ".join(_one(part) for part in str(text or "").split("; "))
