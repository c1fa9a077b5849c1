"""`stopframe tournament`'s closing table in the reader's words: a Russian organiser reads each game's status as
«проверена», never the report's code `audited`."""

from __future__ import annotations

from pathlib import Path

from test_tournament_cli import _run, games  # noqa: F401 - games: the fixture (three games from saved observations)

from contract import i18n
from review.cases.tournament import load_tournament
from stopframe_cli.tournament import summary


def test_the_summary_says_each_games_status_in_words(games: Path, tmp_path: Path) -> None:  # noqa: F811
    out = tmp_path / "out"
    assert _run(games, out) == 0
    t = load_tournament(out / "tournament.json")
    with i18n.using("ru"):
        table = summary(t).splitlines()
    rows = [line for line in table[1:] if line.split()[0] in {g.id for g in t.games}]
    assert len(rows) == 3 and all("проверена" in row and "audited" not in row for row in rows), table
