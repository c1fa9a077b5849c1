"""Training: a trainee watches a vote (clip and frames, no overlay to give the answer away), enters the count,
the voters and the violations, and is scored with explanations citing the clauses; a trainer assembles
quiz sets from confirmed findings and sees the group's results."""

from __future__ import annotations

import time
from pathlib import Path

import altair as alt
import pandas as pd
import streamlit as st

from contract import i18n
from contract.errors import StopframeError
from contract.i18n import _, ngettext
from contract.seats import SeatMap, load_seat_map
from review.cases.training import (
    QUIZ_KINDS,
    Question,
    Response,
    mark,
    pick,
    questions_from_decisions,
    questions_from_truth,
)
from review.cases.training_store import QuizSet, new_attempt
from review.game.profiles import PROFILES
from stopframe_app import state, words
from stopframe_app.decisions import flash, md, show_flash
from stopframe_app.game import REPO, Game, GameSpec, complete_spec
from vision.overlay import draw_overlay, encode_jpeg

QUIZ = "quiz"  # session: {"set": id, "attempt": id, "i": position, "marked": {qid: Marked JSON}}
TRAINEE = "trainee"
SAMPLE_GAME = REPO / "sample_videos" / "game" / "sample_game"
SAMPLE_CLIPS = REPO / "sample_videos" / "clips"
SEAT_KINDS = [k for k in QUIZ_KINDS if k != "count_mismatch"]


def _truth_questions(stem: Path) -> list[Question]:
    files = [Path(f"{stem}{ext}") for ext in (".protocol.json", ".truth.json", ".mp4")]
    if not all(f.is_file() for f in files):
        return []
    return questions_from_truth(files[0], files[1], video=files[2])


@st.cache_resource(show_spinner=False)
def builtin_sets(signature: str, lang: str) -> list[QuizSet]:
    """The quizzes that work out of the box: ten votes of the bundled game, and every vote of the clips; made
    again in each language (`lang`), as their explanations are sentences a trainee reads."""
    book = state.training()
    out = []
    game = pick(_truth_questions(SAMPLE_GAME), 10)
    if game:
        out.append(book.save_set(_("Sample game — ten votes"), game, who="Stopframe", set_id="builtin-sample-game"))
    clips = [q for t in sorted(SAMPLE_CLIPS.glob("*.truth.json")) for q in _truth_questions(t.with_name(t.name[:-11]))]
    if clips:
        out.append(book.save_set(_("Sample clips — every vote"), clips, who="Stopframe", set_id="builtin-sample-clips"))
    return out


def all_sets() -> dict[str, QuizSet]:
    with st.spinner(_("Building the sample quizzes…")):
        builtin_sets(str(state.training().store.path), i18n.language())
    return {s.set_id: s for s in state.training().sets()}


def _start(set_id: str) -> None:
    if not str(st.session_state.get(TRAINEE) or "").strip():
        flash("error", _("Enter the trainee's name first (the «Trainee» box): answers are recorded per trainee."),
              "quiz_start")
        return
    st.session_state[QUIZ] = {"set": set_id, "attempt": new_attempt(), "i": 0, "marked": {}}


def _answer(q: Question, qs: QuizSet) -> None:
    s, quiz = st.session_state, st.session_state[QUIZ]
    violations = [(k, int(seat)) for k in SEAT_KINDS for seat in s.get(f"q_{q.qid}_{k}") or ()]
    if s.get(f"q_{q.qid}_miscount"):
        violations.append(("count_mismatch", None))
    response = Response(int(s.get(f"q_{q.qid}_count") or 0), tuple(sorted(s.get(f"q_{q.qid}_voters") or ())),
                        tuple(violations))
    marked = mark(q, response)
    try:
        state.training().record(quiz["attempt"], str(s.get(TRAINEE)), qs.set_id, q, response, marked)
    except StopframeError as exc:
        flash("error", str(exc), f"q_{q.qid}_submit")
        return
    quiz["marked"][q.qid] = marked.to_json()


def _next() -> None:
    st.session_state[QUIZ]["i"] += 1


def _quiz_seats(q: Question) -> SeatMap | None:
    """The seat map beside the vote's protocol (as a game opens it), so the trainee reads each seat's number on the
    picture; none where the game has no readable map (the stills are then shown bare, and the page says so)."""
    seats = complete_spec(GameSpec(q.protocol, q.video)).seats
    try:
        return load_seat_map(seats) if seats else None
    except StopframeError:
        return None


def _stills(q: Question) -> None:
    """Three frames — at the call, at «Стоп», at the count — with each seat's number on its zone (no hand marked:
    the trainee judges the hands), and the clip at normal and quarter speed."""
    if not q.video or not Path(q.video).is_file():
        st.info(words.t("The video of this vote is not on this computer."))
        return
    seat_map = _quiz_seats(q)
    if seat_map is None:
        st.caption(words.t("No seat map beside this game's protocol: the pictures show no seat numbers."))
    moments = ((_("the candidate is named"), q.t), ("«Стоп»", q.cutoff), (_("the count is announced"), q.announced))
    with state.video_file(q.video) as source:
        frames = [source.frame_at(source.index_at(t)) for _label, t in moments]
    for tab, (label, _t), image in zip(st.tabs([m[0] for m in moments]), moments, frames, strict=True):
        tab.image(encode_jpeg(draw_overlay(image, seat_map=seat_map)), caption=label, width="stretch")
    if st.toggle(words.t("Play the vote as a clip"), key=f"q_{q.qid}_clip"):
        normal, slow = quiz_clips(q)
        a, b = st.columns(2)
        a.video(str(normal))
        b.video(str(slow))
        b.caption(words.t("quarter speed"))


def quiz_clips(q: Question) -> tuple[Path, Path]:
    """The vote from 1.5 s before the call to 1 s after the count, at normal and quarter speed (cached)."""
    from review.cases.store import data_dir
    from vision.clips import write_clip

    out = []
    with state.video_file(str(q.video)) as source:
        for slowdown in (1.0, 4.0):
            path = data_dir() / "quiz" / f"{q.qid}_x{slowdown:g}.mp4"
            if not path.is_file():
                write_clip(source, max(0.0, q.t - 1.5), q.announced + 1.0, path, slowdown=slowdown)
            out.append(path)
    return out[0], out[1]


def question_title(q: Question, n: int, total: int) -> str:
    """The question as a trainee reads it: «Вопрос 1 из 10. День 1, голосование 2: сколько голосов за кандидатуру
    5?» (the game's file stays out of it)."""
    return words.t("Question {n} of {total}. Day {day}, round {round}: how many votes for candidate {candidate}?",
                   n=n, total=total, day=q.day, round=q.round, candidate=q.candidate)


def _question(q: Question, qs: QuizSet, n: int, total: int) -> None:
    st.subheader(question_title(q, n, total))
    st.caption(words.t("Game file: {file}", file=Path(q.protocol).name))  # which game, in small print
    said = ("; " + words.t("the judge announced **{count}**", count=q.announced_count)
            if q.announced_count is not None else "")
    rules = words.profile_label(q.rules) if q.rules in PROFILES else q.rules  # a trainer's set keeps its own code
    st.markdown(words.t("Rules: {rules}. Players at the table: {seats}", rules=rules, seats=", ".join(map(str, q.living)))
                + said + ". " + words.t("Watch the vote for candidate **{candidate}**.", candidate=q.candidate))
    _stills(q)
    done = st.session_state[QUIZ]["marked"].get(q.qid)
    st.number_input(words.t("How many votes should the judge count for him?"), 0, 10, key=f"q_{q.qid}_count", disabled=bool(done))
    st.multiselect(words.t("Which seats placed a hand for him in time?"), list(q.living), key=f"q_{q.qid}_voters",
                   disabled=bool(done))
    cols = st.columns(3)
    for i, kind in enumerate(SEAT_KINDS):
        cols[i % 3].multiselect(words.kind(kind), list(q.living), key=f"q_{q.qid}_{kind}", disabled=bool(done))
    if q.announced_count is not None:
        st.checkbox(words.t("The announced count ({count}) is wrong", count=q.announced_count), key=f"q_{q.qid}_miscount", disabled=bool(done))
    if not done:
        st.button(words.t("Check my answer"), key=f"q_{q.qid}_submit", type="primary", on_click=_answer, args=(q, qs))
        show_flash(f"q_{q.qid}_submit")
        return
    st.metric(words.t("Score"), f"{done['score'] * 100:.0f} %")
    st.markdown("\n".join(f"- {md(words.humanise(line))}" for line in done["lines"]))
    if n < total:
        st.button(words.t("Next question"), key=f"q_{q.qid}_next", on_click=_next)


def _summary(qs: QuizSet) -> None:
    quiz = st.session_state[QUIZ]
    marked = list(quiz["marked"].values())
    st.subheader(words.t("Your result"))
    st.metric(words.t("Score"), f"{sum(m['score'] for m in marked) / max(1, len(marked)) * 100:.0f} %",
              help=_("{n} of {total}", n=ngettext("{n} question", "{n} questions", len(marked)), total=len(qs.questions)))
    trainee = str(st.session_state.get(TRAINEE))
    progress(trainee)
    st.button(words.t("Take the quiz again"), key="quiz_again", on_click=_start, args=(qs.set_id,))


def progress(trainee: str) -> None:
    """The trainee's score per attempt and accuracy per finding kind in the latest one."""
    rows = state.training().progress(trainee)
    if not rows:
        return
    latest = rows[-1]["kinds"]
    if latest:
        st.dataframe(pd.DataFrame([{_("violation"): words.kind(k), **{term_of(c): words.number(x) if isinstance(x, float)
                                                                       else x for c, x in v.items()}}
                                   for k, v in latest.items()]), hide_index=True)  # 0,5 as the reader writes it
    chart = pd.DataFrame([{"attempt": i + 1, "when": time.strftime("%d.%m %H:%M", time.localtime(r["at"])),
                           "score": r["score"]} for i, r in enumerate(rows)])
    # the score as the page's «Оценка» gives it, 50 %: the axis would write 0.5 with an English decimal point
    st.altair_chart(alt.Chart(chart).mark_line(point=True).encode(
        x=alt.X("attempt:O", title=_("attempt")),
        y=alt.Y("score:Q", title=_("score"), scale=alt.Scale(domain=[0, 1]), axis=alt.Axis(format=".0%")),
        tooltip=[alt.Tooltip("when", title=_("when")), alt.Tooltip("score", title=_("score"), format=".0%")]),
        width="stretch")


def term_of(column: str) -> str:
    """A column of review.cases.training's per-kind accuracy (found, missed, invented, accuracy) in words."""
    return i18n.term("quiz_column", column)


def _take(sets: dict[str, QuizSet]) -> None:
    st.session_state.setdefault(TRAINEE, state.judge_name())
    st.text_input(words.t("Trainee"), key=TRAINEE)
    quiz = st.session_state.get(QUIZ)
    choice = st.selectbox(words.t("Quiz"), list(sets), key="quiz_set", format_func=lambda k: f"{sets[k].title} ("
                          + ngettext("{n} question", "{n} questions", len(sets[k].questions)) + ")")
    st.button(words.t("Start the quiz"), key="quiz_start", on_click=_start, args=(choice,))
    show_flash("quiz_start")
    if not quiz or quiz["set"] not in sets:
        return
    qs = sets[quiz["set"]]
    i = min(quiz["i"], len(qs.questions) - 1)
    _question(qs.questions[i], qs, i + 1, len(qs.questions))
    if len(quiz["marked"]) == len(qs.questions):
        _summary(qs)


def _missing(title: str) -> str | None:
    """What the trainer has to fill before a set is saved, and where: the trainer's name is the sidebar's."""
    if not state.judge_name():
        return _("Enter your name first (in the sidebar, under «Your name»): a quiz set records its trainer.")
    if not title.strip():
        return _("Give the set a title first (the «Title of the set» box).")
    return None


def _save_set(candidates: dict[str, Question]) -> None:
    s = st.session_state
    chosen = [candidates[k] for k in s.get("trainer_pick") or () if k in candidates]
    missing = _missing(str(s.get("trainer_title") or ""))
    if missing:
        flash("error", missing, "trainer_save")
        return
    try:
        made = state.training().save_set(str(s.get("trainer_title") or ""), chosen, who=state.judge_name())
    except StopframeError as exc:
        flash("error", str(exc), "trainer_save")
    else:
        flash("success", words.t("Quiz set «{title}» saved with {votes}.", title=made.title,
                                 votes=ngettext("{n} vote", "{n} votes", len(chosen))), "trainer_save")


def _trainer(game: Game, sets: dict[str, QuizSet]) -> None:
    st.subheader(words.t("Assemble a quiz set"))
    decisions = state.store().decisions(game.game_id)
    confirmed = (questions_from_decisions(game.spec.protocol, game.data, game.audit, decisions, game.spec.video)
                 if game.audit is not None else [])
    candidates = {_("{title} — from this game's decided findings", title=q.title): q for q in confirmed}
    for qs in sets.values():
        candidates.update({f"{q.title} — {qs.title}": q for q in qs.questions})
    st.caption(words.t("Votes of this game with decided findings: {n} (confirm or reject findings on the Vote audit "
                       "page to add more).", n=len(confirmed)))
    st.multiselect(words.t("Votes"), list(candidates), key="trainer_pick")
    st.text_input(words.t("Title of the set"), key="trainer_title")
    st.button(words.t("Save the quiz set"), key="trainer_save", on_click=_save_set, args=(candidates,))
    show_flash("trainer_save")
    st.subheader(words.t("The group's results"))
    group = state.training().group()
    if not group:
        st.write(words.t("No answers yet."))
        return
    table = pd.DataFrame(group)
    table.columns = [i18n.term("group_column", c, words.kind(c)) for c in table.columns]
    st.dataframe(table.map(lambda v: words.number(v) if isinstance(v, float) else v), hide_index=True)
    who = st.selectbox(words.t("Trainee's progress"), [g["trainee"] for g in group], key="trainer_trainee")
    progress(who)


def render(game: Game) -> None:
    st.header(words.t("Training"))
    show_flash()
    sets = all_sets()
    if st.radio(words.t("Mode"), ["Take a quiz", "Trainer"], key="training_mode", horizontal=True,
                format_func=_) == "Take a quiz":
        _take(sets)
    else:
        _trainer(game, sets)
