"""Tournament: a `stopframe tournament` folder — every game with its status and counts, the judges' record and
the players' fouls — and any game's Vote audit one click away.

Why the record is rebuilt on every visit: the judges' decisions are made later, game by game, in the Vote audit;
`review.cases.tournament.rolled_up` reads them from the decisions database (the same one the Vote audit writes)
with each game's audit and protocol from the folder, so nothing is looked at again and the record is current.
"""

from __future__ import annotations

import json
from collections import Counter
from datetime import datetime
from pathlib import Path
from typing import Any

import pandas as pd
import streamlit as st

from contract import i18n
from contract.errors import StopframeError
from contract.i18n import _, ngettext
from contract.jsonio import write_json
from pipeline.tournament import observations_path, read_progress
from review.cases.store import data_dir
from review.cases.tournament import Tournament, TournamentGame, load_tournament, rolled_up
from review.game.profiles import PROFILES
from stopframe_app import state, words
from stopframe_app.decisions import md
from stopframe_app.game import Game, GameSpec
from stopframe_app.views.open_game import is_folder, pasted

REPORT = "tournament.json"
FOLDER = "tournament_folder"  # the open tournament's folder (plain session state)
SAID = "tournament_said"  # why the last open (of a folder or a game) failed
MAX_RECENT = 8


def recent_path() -> Path:
    return data_dir() / "tournaments" / "recent.json"


def recent_folders() -> list[str]:
    """The tournament folders opened before, newest first (those still there)."""
    try:
        listed = json.loads(recent_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return [p for p in listed if isinstance(p, str) and (Path(p) / REPORT).is_file()][:MAX_RECENT] \
        if isinstance(listed, list) else []


def _remember(folder: str) -> None:
    write_json(recent_path(), [folder, *[p for p in recent_folders() if p != folder]][:MAX_RECENT])


def folder_of(typed: str) -> Path:
    """The tournament folder from what the judge typed: the folder the tournament's audit wrote, or its
    tournament.json."""
    path = Path(pasted(typed)).expanduser()
    return path.parent if path.name == REPORT else path


def _not_a_run(folder: Path) -> str:
    """Why `folder` is not a tournament's results, told by what is there (nothing, a file, another folder), and
    which folder to give instead."""
    where = words.t("Give the folder the tournament's audit wrote its results to (it holds {report}).", report=REPORT)
    if is_folder(folder):
        return words.t("Not opened: there is no {report} in {folder}.", report=REPORT, folder=folder) + " " + where
    if folder.exists():
        return words.t("Not opened: {folder} is a file, not a tournament's folder.", folder=folder) + " " + where
    return words.t("Not opened: there is no folder {folder}.", folder=folder)


def _open_folder(typed: str | None) -> None:
    st.session_state.pop(SAID, None)
    if not (typed or "").strip():
        st.session_state[SAID] = _("Give the tournament folder first: the folder the tournament's audit wrote its "
                                   "results to.")
        return
    folder = folder_of(typed or "")
    if not (folder / REPORT).is_file():
        st.session_state[SAID] = _not_a_run(folder)
        return
    try:
        load_tournament(folder / REPORT)
    except StopframeError as exc:
        st.session_state[SAID] = words.t("Not opened: {why}", why=exc)
        return
    st.session_state[FOLDER] = str(folder.resolve())
    _remember(str(folder.resolve()))


def _decisions(run: Any) -> dict[str, Any] | None:
    return state.store().decisions(run.store_id) if run.store_id else None


def load(folder: Path) -> Tournament:
    """The report with the decisions made since, rolled up (the file on disk is not changed)."""
    report = load_tournament(folder / REPORT)
    return rolled_up(report, folder, _decisions, created=report.created)


def _text(value: Any) -> str:
    return _("not given") if value is None or value == "" else str(value)


def _status(g: TournamentGame) -> str:
    if g.status == "failed":
        return _("failed: {why}", why=g.error or _("no reason was recorded"))  # the run's own sentence
    return _("audited") if g.status == "audited" else _("audited in an earlier run")


def game_rows(t: Tournament) -> pd.DataFrame:
    """One row per game, in words; the counts stay numbers so the table sorts by them."""
    rows = []
    for g in t.games:
        audited = g.status != "failed"
        rows.append({
            _("game"): g.id, _("table"): _text(g.table), _("judge"): _text(g.judge), _("date"): _text(g.date),
            _("rules"): words.profile_label(g.rules) if g.rules in PROFILES else _text(g.rules),  # the rulebook named
            _("status"): _status(g), _("votes"): g.votes, _("findings"): g.findings,
            _("suggestions"): g.suggestions,
            _("by kind"): ", ".join(f"{words.kind(k)} {n}" for k, n in g.by_kind.items()) or _("none"),
            _("sure / maybe / unsure"): "{high} / {medium} / {low}".format(**g.by_confidence),
            _("outcomes changed"): g.changed_outcomes,
            _("decided"): _text(g.decided) if audited else _("not audited"),
            _("confirmed"): _text(g.confirmed) if audited else _("not audited"),
        })
    return pd.DataFrame(rows)


def judge_rows(t: Tournament) -> pd.DataFrame:
    rows = []
    for j in t.judges:
        rows.append({
            _("judge"): _text(j.judge), _("games"): j.games, _("failed"): j.failed, _("suggestions"): j.suggestions,
            _("suggestions per game"): words.number(j.suggestions_per_game) if j.suggestions_per_game is not None
            else _("no game audited"),
            _("games decided"): j.decided_games,
            _("violations missed (confirmed)"): _text(j.missed) if j.missed is not None else _("no decisions yet"),
            _("missed per decided game"): words.number(j.missed_per_game) if j.missed_per_game is not None
            else _("no decisions yet"),
            _("miscounted votes"): j.miscounted_votes,
        })
    return pd.DataFrame(rows)


def made_at(created: str) -> str:
    """When the run wrote its report, as the reader writes a date, in this computer's time: «7 декабря 2026 г.,
    03:50» (the file keeps UTC, 2026-12-07T00:50:44Z); as written where it cannot be read."""
    try:
        at = datetime.fromisoformat(created.strip())
    except (AttributeError, ValueError):
        return str(created)
    if at.tzinfo is not None:
        at = at.astimezone()
    return f"{i18n.date(at.date())}, {at:%H:%M}"


def player_rows(t: Tournament) -> pd.DataFrame:
    rows = [{_("player"): _text(p.nickname), _("game"): p.game, _("seat"): p.seat, _("fouls"): p.fouls,
             _("warnings"): p.warnings, _("fines"): p.fines, _("removals"): p.removals, _("points"): words.number(p.points),
             _("findings"): p.findings} for p in t.players]
    return pd.DataFrame(rows)


def spec_of(g: TournamentGame, folder: Path | None = None) -> GameSpec:
    """The game as the app opens it: the tournament's protocol (the converted one for a club file), its seat
    map, its video, the observations the run used (those given to it, else those its audit made from the video,
    kept in `folder`, the tournament's OUT) and the run's audit report, so its findings and the hands on the
    frames open as the run found them, with no second analysis."""
    f = g.files
    audit = folder / g.audit if folder is not None and g.audit and (folder / g.audit).is_file() else None
    return GameSpec(str(f["protocol"]), f.get("video"), f.get("seats"), f.get("observations") or seen_by_run(g, folder),
                    g.rules, str(audit) if audit is not None else None)


def seen_by_run(g: TournamentGame, folder: Path | None) -> str | None:
    """The observations the run's audit made from the game's video (OUT/games/NAME.observations.json), or None
    where it kept none (a run before they were kept, or a game audited from given observations)."""
    if folder is None or g.status == "failed" or g.files.get("observations"):
        return None
    path = observations_path(folder / "games", g.id)
    return str(path) if path.is_file() else None


def name_of(t: Tournament, folder: Path) -> str:
    """The tournament's own name, as the report gives its games' (their protocols' game.tournament; the most
    common one where they differ), else the folder's name."""
    names = Counter(g.tournament.strip() for g in t.games if g.tournament and g.tournament.strip())
    return names.most_common(1)[0][0] if names else folder.name


def _open_game(t: Tournament, game_id: str, folder: Path) -> None:
    st.session_state.pop(SAID, None)
    g = t.game(game_id)
    if g is None or not g.files.get("protocol"):
        st.session_state[SAID] = words.t("Not opened: the game {game} has no protocol in the tournament.", game=game_id)
        return
    if state.try_open(spec_of(g, folder), "tournament"):
        st.session_state[state.VIEW] = "Vote audit"
    else:
        st.session_state[SAID] = words.md(state.open_error("tournament") or _("Not opened."))


def _progress(folder: Path) -> None:
    """A run still going: its games and vision windows done, and the time left (pipeline.tournament's file)."""
    p = read_progress(folder)  # a run whose process is gone (killed) reads as stopped, not running forever
    if p is None or not p.get("running"):
        return
    left = p.get("left_s")
    eta = ((", " + _("about {n} s left", n=max(1, round(left))) if left < 90 else
            ", " + _("about {n} min left", n=round(left / 60)))
           if isinstance(left, int | float) and not isinstance(left, bool) else "")
    games = ngettext("{done} of {n} game", "{done} of {n} games", int(p.get("games") or 0), done=p.get("games_done", 0))
    windows = ngettext("{done} of {n} vision window", "{done} of {n} vision windows", int(p.get("windows") or 0),
                       done=p.get("windows_done", 0))
    st.info(words.t("A run is going on: {games}, {windows}{eta}. Reload to see more.", games=games, windows=windows,
                    eta=eta))


def _chooser() -> None:
    with st.container(border=True):
        st.text_input(words.t("Tournament folder (where the tournament's audit wrote its results)"),
                      **state.kept_box("tournament_path"))
        st.button(words.t("Open"), key="tournament_open", on_click=lambda: _open_folder(st.session_state.get("tournament_path")))
        recent = [p for p in recent_folders() if p != st.session_state.get(FOLDER)]
        if recent:
            st.caption(words.t("Opened before:"))
            for i, p in enumerate(recent):
                st.button(words.md(p), key=f"tournament_recent_{i}", on_click=_open_folder, args=(p,))


def render(game: Game | None = None) -> None:
    st.header(words.t("Tournament"))
    _chooser()
    said = st.session_state.pop(SAID, None)
    if said:
        st.error(said)
    opened = st.session_state.get(FOLDER)
    if not opened:
        st.write(words.t("Open the folder the tournament's audit wrote its results to: every game's status and "
                         "counts, the judges' record and the players' fouls, and each game's Vote audit from here."))
        return
    folder = Path(opened)
    t = load(folder)
    totals = t.totals
    st.subheader(md(name_of(t, folder)))
    st.write(words.t("{games}: {audited} audited, {reused} from an earlier run, {failed} failed; {findings}, "
                     "{suggestions} (at or above {threshold} confidence). Made {created}.",
                     games=ngettext("{n} game", "{n} games", totals["games"]), audited=totals["audited"],
                     reused=totals["reused"], failed=totals["failed"],
                     findings=ngettext("{n} finding", "{n} findings", totals["findings"]),
                     suggestions=ngettext("{n} suggestion", "{n} suggestions", totals["suggestions"]),
                     threshold=words.number(t.threshold), created=made_at(t.created)))
    _progress(folder)
    st.markdown(words.t("**Games** (click a column to sort)"))
    st.dataframe(game_rows(t), hide_index=True, width="stretch", key="tournament_games")
    playable = [g.id for g in t.games if g.status != "failed"]
    if playable:
        cols = st.columns([3, 1])
        chosen = cols[0].selectbox(words.t("Game"), playable, key="tournament_game")
        cols[1].button(words.t("Open this game"), key="tournament_open_game", on_click=_open_game, args=(t, chosen, folder))
        picked = t.game(chosen)
        if picked is not None and not picked.files.get("observations") and seen_by_run(picked, folder) is None:
            st.caption(words.t("This game was audited from its video: its findings open as the tournament found them; "
                               "the hands on the frames need the video analysed once (Vote audit → Analyse the vote "
                               "windows)."))
    st.markdown(words.t("**Judges' record** (decisions made in each game's Vote audit count on the next visit)"))
    st.dataframe(judge_rows(t), hide_index=True, width="stretch", key="tournament_judges")
    st.markdown(words.t("**Players' fouls** (what the rules would have given, by the standing findings)"))
    players = player_rows(t)
    if players.empty:
        st.write(words.t("No player has a standing finding."))
    else:
        st.dataframe(players, hide_index=True, width="stretch", key="tournament_players")
