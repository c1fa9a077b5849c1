"""How far apart the spoken parts of a game lie: facts of the game's pace that the listener (vision) and the
alignment of a protocol to its video (review) both reason with."""

ROUND_SPAN_S = 20.0  # the most between two closing words of one vote round: the count announced and the next
# candidate named take seconds, while a speech the judge thanks a player for lasts a minute, a tied player's half one
DAY_GAP_S = 20.0  # the least time between two days' votes: a last word, a night, the next day's speeches
