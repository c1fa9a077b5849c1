"""The judge's voice as timed cues: vote cut-offs («Стоп» / «Спасибо»), calls, counts, night music.

No speech model and no cloud service: a judge repeats the same few words all game, so one example
of the closing word (marked by the judge, taken from a protocol time, or found unsupervised as the
short word after a pause that recurs about once per vote) is matched across the whole track by
normalised cross-correlation of MFCC frames, then again with the average of its best repeats as
the template (a murmuring room blurs one example, not the average). A repeat counts as a vote's
cut-off when the judge was silent before it (hands landing) and the speech before that sounds like
the other votes' calls. Onsets are refined below the 10 ms hop by parabolic interpolation of the
correlation peak and by the 2 ms envelope averaged over all repeats, because the cut-off is the
first sound of the word (rfm 4.4.7: the «С» of «Стоп») and the target is one video frame.
Night music is told from speech by being loud, spectrally steady and sustained for seconds.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np
import scipy.fft

from contract.pace import ROUND_SPAN_S
from vision.audio import AudioTrack

HOP_S = 0.010  # feature hop: 10 ms
WIN_S = 0.025  # analysis window: 25 ms
N_MELS = 40
N_MFCC = 13
FMIN, FMAX = 60.0, 7600.0

SPEECH_GAP_S = 0.15  # pauses shorter than this stay inside one utterance (stop closures, word joins)
CUTOFF_SILENCE_S = 0.7  # the judge is silent while hands land before «Стоп» (~1.5 s, rfm 4.4.7)
HANDS_SILENCE_S = 0.9  # ... and a matched closing word needs this much (three quarters quiet) before it
WORD_S = 0.06  # a voiced stretch this long is a word (or a syllable of one), not a click or a cough
MATCH_MIN_SCORE = 0.45  # correlation below this is not reported as a cue at all
ACCEPT_MIN_SCORE = 0.6  # a repeat of the closing word is never accepted below this correlation
TEMPLATE_EXAMPLES = 8  # repeats averaged into the second-pass template
CALL_HEAD_S = 0.2  # how much of the call's first word is matched against its second naming
NIGHT_MIN_S = 6.0  # music shorter than this is not a night
LOOK_ALIKE = 0.5  # two candidate words this alike (and a round's span apart at most) may be one closing word said twice
LONE_WEIGHT = 0.5  # what a repeat of a candidate closing word with no other within ROUND_SPAN_S counts for


@dataclass(frozen=True)
class Features:
    """Frame features of a track; frame k covers [start + k·hop, start + k·hop + win)."""

    mfcc: np.ndarray  # (T, N_MFCC), cepstral mean removed over the track
    logmel: np.ndarray  # (T, N_MELS) in dB
    energy_db: np.ndarray  # (T,)
    start: float
    hop: float
    track: AudioTrack

    def time_of(self, frame: float) -> float:
        return self.start + frame * self.hop

    def frame_at(self, t: float) -> int:
        return int(np.clip(round((t - self.start) / self.hop), 0, len(self.energy_db)))

    @cached_property
    def match(self) -> np.ndarray:
        """The features words are matched on (see `_match_features`), computed once."""
        return _match_features(self)

    @cached_property
    def match_sliding(self) -> _Sliding:
        """`match` made ready for correlation, once for every word matched across the track."""
        return _sliding(self.match)


@dataclass(frozen=True)
class Cue:
    """One spoken cue: `t` its onset on the video's clock, `score` in [0, 1] how sure we are."""

    kind: str  # cutoff | call | announced | count
    t: float
    score: float
    end: float | None = None


@dataclass(frozen=True)
class Segment:
    """A stretch of time, e.g. night music; `score` in [0, 1]."""

    start: float
    end: float
    score: float


@dataclass(frozen=True)
class VoteCues:
    """The cues of one vote: the call (hands may land from `call`), the cut-off and the count."""

    cutoff: Cue
    call: Cue | None
    announced: Cue | None
    confident: bool = True  # False: the word matched, but what precedes it is not like the other calls
    match: float = 1.0  # the closing word's own correlation with the template, before its context


def _mel_filterbank(n_fft: int, rate: int) -> np.ndarray:
    """Triangular mel filters (N_MELS, n_fft//2+1), the usual HTK mel scale."""

    def mel(f: np.ndarray | float) -> np.ndarray:
        return 2595.0 * np.log10(1.0 + np.asarray(f) / 700.0)

    def hz(m: np.ndarray) -> np.ndarray:
        return 700.0 * (10.0 ** (m / 2595.0) - 1.0)

    edges = hz(np.linspace(mel(FMIN), mel(min(FMAX, rate / 2)), N_MELS + 2))
    freqs = np.linspace(0, rate / 2, n_fft // 2 + 1)
    lo, mid, hi = edges[:-2, None], edges[1:-1, None], edges[2:, None]
    rise = (freqs[None, :] - lo) / (mid - lo)
    fall = (hi - freqs[None, :]) / (hi - mid)
    return np.maximum(0.0, np.minimum(rise, fall))


def _dct_matrix(n_in: int, n_out: int) -> np.ndarray:
    k = np.arange(n_out)[:, None]
    n = np.arange(n_in)[None, :]
    m = np.cos(np.pi * k * (2 * n + 1) / (2 * n_in)) * np.sqrt(2.0 / n_in)
    m[0] /= np.sqrt(2.0)
    return m


def _power_frames(x: np.ndarray, rate: int, hop_s: float, win_s: float) -> np.ndarray:
    hop, win = int(round(hop_s * rate)), int(round(win_s * rate))
    n_fft = 1 << (win - 1).bit_length()
    count = max(0, 1 + (len(x) - win) // hop)
    if count == 0:
        return np.zeros((0, n_fft // 2 + 1), np.float32)
    # each frame windowed straight into its zero-padded row (one copy of the track's frames, not three), and
    # transformed in single precision in place: numpy's transform would work in double, several times slower
    frames = np.zeros((count, n_fft), np.float32)
    np.multiply(np.lib.stride_tricks.sliding_window_view(x, win)[::hop][:count], np.hanning(win).astype(np.float32),
                out=frames[:, :win])
    spectrum = scipy.fft.rfft(frames, axis=1, overwrite_x=True)
    return spectrum.real ** 2 + spectrum.imag ** 2


def features(track: AudioTrack) -> Features:
    """Log-mel, MFCC and frame energy of a whole track (an hour takes a few seconds)."""
    x = np.asarray(track.samples, np.float32)
    rate = track.rate
    chunk = int(600 * rate)  # ten-minute chunks keep memory flat on long games
    win = int(round(WIN_S * rate))
    hop = int(round(HOP_S * rate))
    mels: list[np.ndarray] = []
    energies: list[np.ndarray] = []
    fb: np.ndarray | None = None
    pos = 0
    while pos + win <= len(x):
        stop = min(len(x), pos + chunk + win)
        power = _power_frames(x[pos:stop], rate, HOP_S, WIN_S)
        if fb is None:
            fb = _mel_filterbank((power.shape[1] - 1) * 2, rate).astype(np.float32)
        n = min(len(power), (chunk // hop) if stop < len(x) else len(power))
        power = power[:n]
        mels.append(10.0 * np.log10(power @ fb.T + 1e-10))
        energies.append(10.0 * np.log10(power.sum(axis=1) + 1e-10))
        pos += n * hop
    if not mels:
        empty = np.zeros((0, N_MELS), np.float32)
        return Features(np.zeros((0, N_MFCC), np.float32), empty, np.zeros(0, np.float32), track.start, HOP_S, track)
    logmel = np.concatenate(mels).astype(np.float32)
    mfcc = logmel @ _dct_matrix(N_MELS, N_MFCC).T.astype(np.float32)
    mfcc -= mfcc.mean(axis=0, keepdims=True)
    return Features(mfcc, logmel, np.concatenate(energies).astype(np.float32), track.start, HOP_S, track)


# ---------------------------------------------------------------- speech activity


def noise_floor_db(feats: Features) -> float:
    """Level of the quietest tenth of the track: room tone between the judge's words."""
    return float(np.percentile(feats.energy_db, 10)) if len(feats.energy_db) else -100.0


def speech_mask(feats: Features, margin_db: float = 12.0) -> np.ndarray:
    """Frames loud enough above the noise floor to be sound at all (voice or music): `margin_db`
    above it, or a fifth of the way from it to the loudest sound, whichever is higher."""
    e = feats.energy_db
    if not len(e):
        return np.zeros(0, bool)
    floor = noise_floor_db(feats)
    top = float(np.percentile(e, 99))
    return e > floor + max(margin_db, 0.2 * (top - floor))


def _runs(mask: np.ndarray) -> list[tuple[int, int]]:
    """[start, end) frame runs where mask is true."""
    if not len(mask):
        return []
    d = np.diff(np.concatenate(([0], mask.astype(np.int8), [0])))
    return list(zip(np.nonzero(d == 1)[0].tolist(), np.nonzero(d == -1)[0].tolist(), strict=True))


def voice_mask(feats: Features, below_top_db: float = 20.0, above_floor_db: float = 12.0) -> np.ndarray:
    """Frames loud like the judge's voice: within `below_top_db` of the loudest speech and clear of the floor.

    Relative to the top as well as the floor, so that quiet music or a murmuring room under the
    whole game does not count as the judge speaking.
    """
    e = feats.energy_db
    if not len(e):
        return np.zeros(0, bool)
    top = float(np.percentile(e, 99))
    return e > max(noise_floor_db(feats) + above_floor_db, top - below_top_db)


def utterances(feats: Features, gap_s: float = SPEECH_GAP_S, min_s: float = 0.06) -> list[tuple[int, int]]:
    """Voice runs [start, end) in frames, joining pauses shorter than `gap_s`.

    Each run is widened by up to 150 ms at its start (100 ms at its end) while the level stays
    above a lower threshold, so that a word's soft first sound («с») still belongs to it.
    """
    strong = voice_mask(feats)
    weak = voice_mask(feats, below_top_db=35.0, above_floor_db=6.0)
    gap, shortest = round(gap_s / feats.hop), round(min_s / feats.hop)
    merged: list[list[int]] = []
    for a, b in _runs(strong):
        if merged and a - merged[-1][1] < gap:
            merged[-1][1] = b
        else:
            merged.append([a, b])
    out = []
    for a, b in merged:
        lo, hi = max(0, a - 15), min(len(weak), b + 10)
        while a > lo and weak[a - 1]:
            a -= 1
        while b < hi and weak[b]:
            b += 1
        if b - a >= shortest:
            out.append((a, b))
    return out


def _envelope(track: AudioTrack, start: float, end: float) -> tuple[np.ndarray, np.ndarray]:
    """(times, power) of a 4 ms window every 2 ms between two video times."""
    rate = track.rate
    lo, hi = track.index_at(start), track.index_at(end)
    x = track.samples[lo:hi].astype(np.float64)
    step, win = int(0.002 * rate), int(0.004 * rate)
    if len(x) < win + 4 * step:
        return np.zeros(0), np.zeros(0)
    n = 1 + (len(x) - win) // step
    idx = np.arange(win)[None, :] + step * np.arange(n)[:, None]
    power = np.mean(x[idx] ** 2, axis=1)
    return track.time_of(lo) + np.arange(n) * step / rate, power


def _first_rise(times: np.ndarray, power: np.ndarray, coarse: float, search_s: float) -> float | None:
    """Where the envelope first rises clear of the level before `coarse - search_s` and stays up 10 ms.

    The threshold is 10 dB over that level, or a quarter of the way to the word's peak when the room
    is noisy, and never more than 40 dB under the peak (a codec's pre-echo sits lower).
    """
    if not len(times):
        return None
    env = 10 * np.log10(power + 1e-12)
    before = times < coarse - search_s
    floor = float(np.median(env[before])) if before.sum() >= 5 else float(env.min())
    near = (times >= coarse - search_s) & (times <= coarse + search_s)
    peak = float(env[times <= coarse + search_s + 0.05].max())
    threshold = max(floor + min(10.0, max(3.0, (peak - floor) / 4)), peak - 40.0)
    above = env > threshold
    for i in np.nonzero(near & above)[0]:
        if above[i : i + 5].all():
            return float(times[i])
    return None


def refine_onset(track: AudioTrack, coarse: float, search_s: float = 0.06) -> float:
    """The first sound of a word near `coarse`, to about a millisecond (a 2 ms energy envelope)."""
    times, power = _envelope(track, coarse - 0.25, coarse + search_s + 0.05)
    found = _first_rise(times, power, coarse, search_s)
    return coarse if found is None else found


def find_word(feats: Features, hint: float, search_s: float = 0.4) -> tuple[float, float] | None:
    """The word the judge marked near `hint`: (onset, end) of the nearest utterance."""
    best: tuple[float, int, int] | None = None
    for a, b in utterances(feats, gap_s=0.08):
        ta, tb = feats.time_of(a), feats.time_of(b)
        dist = 0.0 if ta <= hint <= tb else min(abs(hint - ta), abs(hint - tb))
        if dist <= search_s and (best is None or dist < best[0]):
            best = (dist, a, b)
    if best is None:
        return None
    _, a, b = best
    return refine_onset(feats.track, feats.time_of(a)), feats.time_of(b) + WIN_S


def closing_word_before(track: AudioTrack, tap: float, within_s: float = 2.5) -> float | None:
    """The first sound of the judge's closing word said at most `within_s` before a tap on «Стоп» (None: no such
    word in `track`, which ends at the tap and reaches a few seconds back). Why: a finger follows the voice by a
    few tenths of a second, and a hand that lands in that gap is late (rfm 4.4.7). The word is the first in the
    stretch that follows the quiet in which the hands land; the count, said right after it, is not."""
    feats = features(track)
    voiced = voice_mask(feats)
    onsets = [feats.time_of(a) for a, _b in utterances(feats, gap_s=0.08)]
    heard = [t for t in onsets if tap - within_s <= t <= tap and _quiet_before(feats, voiced, t)]
    return refine_onset(track, heard[0]) if heard else None


def call_before(track: AudioTrack, cutoff: float) -> float | None:
    """Where the judge's call before a heard «Стоп» opened the vote (find_call: the onset of the candidate's number,
    rfm 4.4.5), from a stretch of sound that ends at or after the cut-off; None where the call is not told apart
    (a score under a half). Why: a tap on the candidate reaches the table a moment after the judge named him, and a
    hand that lands in between is not early."""
    feats = features(track)
    call = find_call(feats, Cue("cutoff", cutoff, 1.0), _utterance_bounds(feats))
    return call.t if call is not None and call.score >= 0.5 else None


# ---------------------------------------------------------------- template matching


def _fast_len(n: int) -> int:
    """The least 2^a·3^b·5^c at or above n: a length numpy's FFT transforms quickly."""
    best = 1 << max(0, (n - 1).bit_length())
    p5 = 1
    while p5 < best:
        p35 = p5
        while p35 < best:
            m = p35
            while m < n:
                m *= 2
            best = min(best, m)
            p35 *= 3
        p5 *= 5
    return best


@dataclass(frozen=True)
class _Sliding:
    """A feature sequence made ready for correlating any template against it: its transform and running sums,
    which do not depend on the template (an hour's track is matched against several words)."""

    x: np.ndarray  # (T, D) float64
    n: int  # the transform's length
    spectrum: np.ndarray  # rfft of x along time, length n
    sums: np.ndarray  # (T+1, D) running sums of x
    squares: np.ndarray  # (T+1,) running sums of |x|²


def _sliding(seq: np.ndarray) -> _Sliding:
    x = seq.astype(np.float64)
    n = _fast_len(len(x))
    return _Sliding(x, n, np.fft.rfft(x, n, axis=0), np.vstack((np.zeros((1, x.shape[1])), np.cumsum(x, axis=0))),
                   np.concatenate(([0.0], np.cumsum((x**2).sum(axis=1)))))


def _ncc(seq: np.ndarray | _Sliding, tpl: np.ndarray) -> np.ndarray:
    """Correlation of `tpl` (L, D) against every window of `seq` (T, D): (T-L+1,).

    Each feature dimension is centred within the window, so what is compared is how the
    spectrum moves through the word, not the average spectrum every voice shares. The dot
    products of every window, all dimensions at once, come from one forward transform each and
    one inverse, in double precision (the sequence's transform and running sums kept in a `_Sliding` where
    one track is matched against several words).
    """
    s = seq if isinstance(seq, _Sliding) else None
    L, T = len(tpl), len(s.x) if s is not None else len(seq)
    if L == 0 or T < L:
        return np.zeros(0)
    s = s or _sliding(seq)
    t = tpl - tpl.mean(axis=0, keepdims=True)
    t /= np.sqrt((t**2).sum()) + 1e-12
    spectrum = (s.spectrum * np.conj(np.fft.rfft(t.astype(np.float64), s.n, axis=0))).sum(axis=1)
    dots = np.fft.irfft(spectrum, s.n)[: T - L + 1]
    s1 = s.sums[L:] - s.sums[:-L]
    var = (s.squares[L:] - s.squares[:-L]) - (s1**2).sum(axis=1) / L
    var = np.maximum(var, float(L * s.x.shape[1]))  # a near-constant window (silence) matches nothing
    return np.clip(dots / np.sqrt(var), -1.0, 1.0)


def _match_features(feats: Features) -> np.ndarray:
    """MFCC without c0 plus a scaled energy contour: shape of the word, not its loudness."""
    e = feats.energy_db - noise_floor_db(feats)
    return np.column_stack([feats.mfcc[:, 1:], 0.5 * np.clip(e, 0, 60)[:, None]]).astype(np.float32)


def _peaks(curve: np.ndarray, min_score: float, min_gap: int) -> list[int]:
    """Local maxima above `min_score`, greedily kept best-first at least `min_gap` apart (each kept one
    blocks its neighbourhood: linear in the candidates, an hour's track included)."""
    cand = np.nonzero(curve >= min_score)[0]
    kept: list[int] = []
    gap = max(1, int(min_gap))
    blocked = np.zeros(len(curve) + 2 * gap, bool)  # index i + gap: within gap - 1 frames of a kept peak
    for i in cand[np.argsort(-curve[cand])].tolist():
        if not blocked[i + gap]:
            kept.append(i)
            blocked[i + 1 : i + 2 * gap] = True
    return sorted(kept)


def _subframe(curve: np.ndarray, p: int) -> float:
    """Offset in frames (-0.5..0.5) of the true peak near p, from a parabola through three points."""
    if not 0 < p < len(curve) - 1:
        return 0.0
    y0, y1, y2 = curve[p - 1], curve[p], curve[p + 1]
    den = y0 - 2 * y1 + y2
    return float(np.clip(0.5 * (y0 - y2) / den, -0.5, 0.5)) if den < 0 else 0.0


def match_template(
    feats: Features,
    onset: float,
    end: float,
    min_score: float = MATCH_MIN_SCORE,
    kind: str = "cutoff",
    also: list[float] = (),
) -> list[Cue]:
    """Every place the word spoken at [onset, end) recurs, best correlation first found.

    `also`: onsets of more examples of the same word; the template is their average, which a noisy
    room blurs less than any single one. The onset of each match is the template's onset moved by
    the correlation lag, interpolated between frames by a parabola through the peak and its neighbours.
    """
    seq = feats.match
    length = max(5, feats.frame_at(end) - feats.frame_at(onset))
    starts = [feats.frame_at(t) for t in (onset, *also)]
    starts = [a for a in starts if a + length <= len(seq)]
    if not starts:
        return []
    tpl = np.mean([seq[a : a + length] for a in starts], axis=0)
    curve = _ncc(feats.match_sliding, tpl)
    lead = float(np.mean([t - feats.time_of(a) for t, a in zip((onset, *also), starts, strict=False)]))
    cues = []
    for p in _peaks(curve, min_score, max(5, length * 3 // 4)):
        t = feats.time_of(p + _subframe(curve, p)) + lead
        cues.append(Cue(kind, round(t, 4), round(float(curve[p]), 3), round(t + (end - onset), 4)))
    return cues


def closing_word_candidates(
    feats: Features, nights: list[Segment] = (), expected: int | None = None, top: int = 5
) -> list[tuple[float, float]]:
    """Words that may be the judge's closing word, most likely first: (onset, end) of one example each.

    Candidates are utterances of 0.15–0.75 s (a word, not a sentence) preceded by at least
    CUTOFF_SILENCE_S of silence (hands landing) and followed by more speech within 3 s (the count),
    outside the nights (two are enough: a clip may hold two votes). A closing word's similarity to the other
    candidates drops sharply after its k repeats (to nothing where every other candidate is the word); each
    candidate is ranked by the largest such drop, weighted towards k near the
    number of votes where that is known. Near-duplicates of a higher-ranked word are skipped.
    """
    utts = utterances(feats)
    silence = round(CUTOFF_SILENCE_S / feats.hop)
    judge = voice_mask(feats, below_top_db=15.0)
    cands: list[tuple[int, int]] = []
    for i, (a, b) in enumerate(utts):
        prev_end = utts[i - 1][1] if i else -(10**9)
        nxt = utts[i + 1][0] if i + 1 < len(utts) else None
        dur = (b - a) * feats.hop
        t = feats.time_of(a)
        quiet = a - prev_end >= silence or _quiet_before(feats, judge, t)  # a murmuring room fills the pause
        if not quiet or not 0.15 <= dur <= 0.75 or any(n.start <= t <= n.end for n in nights):
            continue
        if nxt is None or (nxt - b) * feats.hop > 3.0:
            continue
        cands.append((a, b))
    n = len(cands)
    if n < 2:
        return []
    seq = feats.match
    L = int(np.clip(np.percentile([b - a for a, b in cands], 25), 15, 40))  # a word's worth, not its first sound
    shift = 3  # onsets found by level differ by a few frames between repeats

    def windows(offset: int) -> np.ndarray:
        rows = []
        for a, _ in cands:
            s0 = int(np.clip(a + offset, 0, max(0, len(seq) - L)))
            w = seq[s0 : s0 + L].astype(np.float64)
            w = w - w.mean(axis=0, keepdims=True)
            rows.append((w / (np.linalg.norm(w) + 1e-12)).ravel())
        return np.array(rows)

    base = windows(0)
    sims = np.max([base @ windows(d).T for d in range(-shift, shift + 1)], axis=0)
    sims = np.maximum(sims, sims.T)
    np.fill_diagonal(sims, -1.0)
    # A round's closing words come seconds apart: where some candidates have a look-alike that near, the word is told
    # among them (a judge who also thanks every speaker with it says it far more often than he closes votes)
    onsets = np.array([feats.time_of(a) for a, _ in cands])
    paced = np.nonzero(((sims >= LOOK_ALIKE) & (np.abs(onsets[:, None] - onsets[None, :]) <= ROUND_SPAN_S)).any(axis=1))[0]
    if 2 <= len(paced) < n:
        cands, sims, n = [cands[i] for i in paced], sims[np.ix_(paced, paced)], len(paced)
    lo, hi = (max(1, expected // 2 - 1), min(n, expected * 3 // 2)) if expected else (1, n)
    # past the last other candidate the likeness drops to nothing: two votes' words, or every candidate the word
    ranked = np.maximum(-np.sort(-sims, axis=1), 0.0)
    keys = np.zeros(n)
    for i in range(n):
        for k in range(lo, max(lo + 1, hi)):
            if k >= n or ranked[i, k - 1] < 0.4:
                break
            weight = min(1.0, (k + 1) / expected) if expected else 1.0
            keys[i] = max(keys[i], (ranked[i, k - 1] - ranked[i, k]) * weight)
    chosen: list[int] = []
    for i in np.argsort(-keys):
        if keys[i] < 0.05 or len(chosen) >= top:
            break
        if all(sims[i, j] < 0.85 for j in chosen):
            chosen.append(int(i))
    return [(refine_onset(feats.track, feats.time_of(cands[i][0])), feats.time_of(cands[i][1]) + WIN_S) for i in chosen]


def discover_cutoff(feats: Features, nights: list[Segment] = (), expected: int | None = None) -> tuple[float, float] | None:
    """The most likely closing word (see `closing_word_candidates`), or None."""
    found = closing_word_candidates(feats, nights, expected, top=1)
    return found[0] if found else None


# ---------------------------------------------------------------- the vote around each cut-off


def _stacked_onset_shift(feats: Features, cues: list[Cue]) -> float:
    """Correction for the template's own onset, from the averaged envelope of all its matches.

    One example's onset is one measurement, and a murmuring room can hide where the word begins;
    averaged over a dozen repeats aligned on their matches, the room flattens out and the word's
    rise stands clear.
    """
    if len(cues) < 3:
        return 0.0
    stack = []
    for c in cues:
        times, power = _envelope(feats.track, c.t - 0.4, c.t + 0.4)
        if len(power):
            stack.append((times - c.t, power))
    n = min((len(p) for _, p in stack), default=0)
    if len(stack) < 3 or n < 300:
        return 0.0
    found = _first_rise(stack[0][0][:n], np.mean([p[:n] for _, p in stack], axis=0), 0.0, 0.25)
    return 0.0 if found is None else found


def _utterance_bounds(feats: Features) -> list[tuple[float, float]]:
    return [(feats.time_of(a), feats.time_of(b) + WIN_S) for a, b in utterances(feats)]


def find_call(
    feats: Features, cutoff: Cue, bounds: list[tuple[float, float]], words: list[tuple[float, float]] | None = None
) -> Cue | None:
    """Where hands may land: the onset of the candidate's number in the judge's call before the cut-off.

    rfm 4.4.5: «Два, кто голосует за игрока номер два» — the vote runs on the second naming. The
    call's first word (`words`: voice runs split at short pauses) is matched in the call's last
    1.5 s. Where the call's last word stands apart after a pause, its onset is the answer unless a
    clear repeat says otherwise (score 0.5 without the repeat: a lift vote's «покинули игру»);
    failing both, the last dip inside the call (score 0.3).
    """
    before = [u for u in bounds if u[1] <= cutoff.t - 0.3 and u[1] >= cutoff.t - 4.0]
    if not before:
        return None
    call_end = before[-1][1]
    # the call: utterances back to a pause longer than a sentence break
    call = [before[-1]]
    for u in reversed(before[:-1]):
        if call[0][0] - u[1] > 0.6:
            break
        call.insert(0, u)
    if words is None:
        words = [(feats.time_of(a), feats.time_of(b) + WIN_S) for a, b in utterances(feats, gap_s=0.08)]
    repeat = _repeated_first_word(feats, call, call_end, words)
    last = call[-1]
    separate = last[1] - last[0] <= 1.0 and (len(call) == 1 or last[0] - call[-2][1] >= SPEECH_GAP_S)
    if separate:
        onset = refine_onset(feats.track, last[0], search_s=0.04)
        if repeat is not None and (abs(repeat.t - onset) <= 0.06 or repeat.score >= 0.75):
            return repeat
        return Cue("call", round(onset, 4), 0.5, round(last[1], 4))
    if repeat is not None:
        return repeat
    # the number glued to the question: the last energy dip inside the last utterance
    a, b = feats.frame_at(last[0]), feats.frame_at(last[1])
    e = feats.energy_db[a:b]
    if len(e) < 10:
        t = last[0]
    else:
        tail = e[max(0, len(e) - 70) : max(1, len(e) - 15)]
        t = feats.time_of(a + max(0, len(e) - 70) + int(np.argmin(tail)))
    t = refine_onset(feats.track, t, search_s=0.05)
    return Cue("call", round(t, 4), 0.3, round(call_end, 4))


def _repeated_first_word(
    feats: Features, call: list[tuple[float, float]], call_end: float, words: list[tuple[float, float]]
) -> Cue | None:
    """The call's first word found again in its last 1.5 s (rfm 4.4.5's second naming), or None."""
    first = next((w for w in words if w[0] >= call[0][0] - 0.02), None)
    if first is None or first[1] - first[0] > 0.8 or call_end - first[1] < 0.8:
        return None
    seq = feats.match
    # the word's start: phrase-final lengthening changes its end, not how it begins
    a, b = feats.frame_at(first[0]), feats.frame_at(min(first[1], first[0] + CALL_HEAD_S))
    lo, hi = feats.frame_at(max(first[1] + 0.3, call_end - 1.5)), feats.frame_at(call_end)
    curve = _ncc(seq[lo:hi], seq[a:b])
    if not len(curve):
        return None
    p = int(np.argmax(curve))
    if curve[p] < 0.5:
        return None
    onset = refine_onset(feats.track, first[0], search_s=0.04)
    t = feats.time_of(lo + p + _subframe(curve, p)) + (onset - feats.time_of(a))
    return Cue("call", round(t, 4), round(float(curve[p]), 3), round(t + first[1] - first[0], 4))


def find_announced(feats: Features, cutoff: Cue, bounds: list[tuple[float, float]]) -> Cue | None:
    """Onset of the count the judge announces after the cut-off word (hands may leave after it)."""
    end = cutoff.end if cutoff.end is not None else cutoff.t + 0.3
    for a, b in bounds:
        if a >= end - 0.02 and a <= end + 3.0 and b - a >= 0.08:
            t = refine_onset(feats.track, a, search_s=0.04)
            gap = a - end
            score = 0.9 if gap >= 0.1 else 0.6  # glued to the cut-off word: less sure where it begins
            return Cue("announced", round(t, 4), score, round(b, 4))
    return None


def _quiet_before(feats: Features, voiced: np.ndarray, t: float) -> bool:
    """True when the judge was (mostly) silent just before t, as while hands land before «Стоп».

    The same word inside a player's speech («Спасибо, у меня всё») follows other words closely.
    """
    a, b = feats.frame_at(t - HANDS_SILENCE_S), feats.frame_at(t - 0.05)
    if not (b > a and float(voiced[a:b].mean()) <= 0.25):
        return False
    # and no word of the judge's reaches into the last CUTOFF_SILENCE_S: the count follows «Стоп» that closely,
    # so a number word said twice (a call's, a count's) is not taken for the closing word
    start, recent = feats.frame_at(t - HANDS_SILENCE_S - WORD_S), feats.frame_at(t - CUTOFF_SILENCE_S)
    word = max(1, round(WORD_S / feats.hop))
    return not any(e - s0 >= word and start + e > recent for s0, e in _runs(voiced[start:b]))


def _call_likeness(feats: Features, cuts: list[Cue], bounds: list[tuple[float, float]],
                   calls: list[int] | None = None) -> list[float]:
    """For each matched closing word, how much the speech before it sounds like the other votes' calls.

    Every vote is called with the same carrier phrase («кто голосует за игрока номер …»); the same
    word closing a player's speech follows something else. Compared: one second of the call
    before its final number, against the others' calls (±0.3 s of slack; those of `calls`, the indices of
    the words known to close votes, where given); the median is kept.
    """
    if len(cuts) < 3:
        return [1.0] * len(cuts)
    seq = feats.match
    ends = []
    for c in cuts:
        before = [b for a, b in bounds if b <= c.t - 0.3 and b >= c.t - 4.0]
        ends.append(before[-1] if before else None)
    # compared with the calls before the dozen best-matching words, not all of them: cost stays linear
    refs = sorted(range(len(cuts)) if calls is None else calls, key=lambda j: -cuts[j].score)[:12]
    out = []
    for i, e in enumerate(ends):
        if e is None:
            out.append(0.0)
            continue
        tpl = seq[feats.frame_at(e - 1.6) : feats.frame_at(e - 0.6)]
        sims = []
        for j in refs:
            f = ends[j]
            if j == i or f is None:
                continue
            curve = _ncc(seq[feats.frame_at(f - 1.9) : feats.frame_at(f - 0.3)], tpl)
            sims.append(float(curve.max()) if len(curve) else 0.0)
        out.append(float(np.clip(np.median(sims), 0.0, 1.0)) if sims else 0.0)
    return out


def score_threshold(scores: list[float], min_score: float = MATCH_MIN_SCORE) -> float:
    """Where the repeats of a word end and look-alikes begin: the widest gap in the sorted scores.

    Matches of the same word cluster near the top; other speech spreads densely below, so its
    gaps are small. At least two matches stay above the threshold (one is the template itself).
    """
    top = np.sort(np.asarray([s for s in scores if s >= min_score]))[::-1]
    if len(top) < 3:
        return max(min_score, ACCEPT_MIN_SCORE)
    gaps = top[1:-1] - top[2:]
    k = int(np.argmax(gaps))
    found = float(top[k + 2] + gaps[k] / 2) if gaps[k] >= 0.05 else min_score
    return max(found, ACCEPT_MIN_SCORE)


def find_vote_cues(
    feats: Features,
    template: tuple[float, float] | None = None,
    nights: list[Segment] | None = None,
    expected: int | None = None,
    min_score: float = MATCH_MIN_SCORE,
    weak: bool = False,
) -> list[VoteCues]:
    """All vote cut-offs in the track with their calls and counts, in time order.

    `template` is (onset, end) of one closing word; without it the word is discovered. Matches
    inside the nights are dropped (the judge does not close votes at night). With `weak`, repeats
    of the word whose call does not sound like the others' are kept too, marked not confident:
    alignment may still need one for a lift vote, whose question differs from the usual call.
    """
    if nights is None:
        nights = find_night_music(feats)
    if template is None:
        template = discover_cutoff(feats, nights, expected)
        if template is None:
            return []
    voiced = voice_mask(feats, below_top_db=15.0)
    bounds = _utterance_bounds(feats)

    def repeats(also: list[float]) -> list[Cue]:
        """Repeats of the closing word (not look-alikes), after a pause, outside the nights."""
        found = match_template(feats, *template, min_score=min_score, also=also)
        found = [c for c in found if not any(n.start <= c.t <= n.end for n in nights) and _quiet_before(feats, voiced, c.t)]
        return [c for c in found if c.score >= score_threshold([c.score for c in found], min_score)]

    cuts = repeats([])
    # a second pass with the average of the best repeats as the template
    best = sorted(cuts, key=lambda c: -c.score)[1:TEMPLATE_EXAMPLES]
    if len(best) >= 2:
        cuts = repeats([c.t for c in best])
    raws = [c.score for c in cuts]
    # then the word in its place: after a call like the typical vote's (relative, so that a noisy
    # room does not count against every vote; a lone lift vote's question falls short here)
    # (the calls are those before the repeats said in rounds, where at least three are: a judge who thanks every
    # speaker with the closing word says it after speeches more often than after calls)
    rounds = [i for i, paced in enumerate(_in_rounds([c.t for c in cuts])) if paced]
    calls = rounds if len(rounds) >= 3 else None
    context = _call_likeness(feats, cuts, bounds, calls)
    typical = [context[i] for i in calls] if calls else context
    ref = max(0.15, float(np.percentile(typical, 75))) if typical else 1.0
    sure = [k >= 0.5 * ref for k in context]
    cuts = [Cue(c.kind, c.t, round(c.score * (0.4 + 0.6 * min(1.0, k / ref)), 3), c.end) for c, k in zip(cuts, context, strict=True)]
    shift = _stacked_onset_shift(feats, [c for c, ok in zip(cuts, sure, strict=True) if ok])
    if shift:
        cuts = [Cue(c.kind, round(c.t + shift, 4), c.score, c.end) for c in cuts]
    words = [(feats.time_of(a), feats.time_of(b) + WIN_S) for a, b in utterances(feats, gap_s=0.08)]
    return [
        VoteCues(c, find_call(feats, c, bounds, words), find_announced(feats, c, bounds), ok, raw)
        for c, raw, ok in zip(cuts, raws, sure, strict=True)
        if weak or ok
    ]


# ---------------------------------------------------------------- night music


def music_curve(feats: Features) -> np.ndarray:
    """Per-frame music-likeness in [0, 1]: sound present and its spectrum steady over 100 ms.

    Speech changes its spectrum every few tens of milliseconds and pauses between phrases;
    music holds notes and never stops. Averaged over two seconds, the two separate cleanly.
    """
    lm = feats.logmel
    if len(lm) < 30:
        return np.zeros(len(lm))
    loud = speech_mask(feats, margin_db=10.0).astype(np.float64)
    z = lm - lm.mean(axis=1, keepdims=True)
    lag = 10
    num = (z[lag:] * z[:-lag]).sum(axis=1)
    den = np.sqrt((z[lag:] ** 2).sum(axis=1) * (z[:-lag] ** 2).sum(axis=1)) + 1e-9
    steady = np.concatenate((np.zeros(lag), np.clip(num / den, 0, 1)))
    frame = loud * steady
    k = int(round(2.0 / feats.hop))
    kernel = np.ones(k) / k
    return np.convolve(frame, kernel, mode="same")


def find_night_music(feats: Features, min_duration: float = NIGHT_MIN_S, threshold: float = 0.6) -> list[Segment]:
    """Stretches of sustained music (the nights, rfm 2.3), boundaries at the music's own edges."""
    curve = music_curve(feats)
    if not len(curve):
        return []
    on = curve > threshold
    runs = _runs(on)
    merged: list[list[int]] = []
    gap = round(2.0 / feats.hop)
    for a, b in runs:
        if merged and a - merged[-1][1] < gap:
            merged[-1][1] = b
        else:
            merged.append([a, b])
    loud = speech_mask(feats, margin_db=10.0)
    segs = []
    half = round(1.0 / feats.hop)  # the 2 s average smears an edge by up to 1 s: walk to the loud edge
    for a, b in merged:
        if (b - a) * feats.hop < min_duration:
            continue
        lo = max(0, a - half)
        while lo < a + half and not loud[lo : lo + 5].all():
            lo += 1
        hi = min(len(loud), b + half)
        while hi > b - half and not loud[hi - 5 : hi].all():
            hi -= 1
        score = float(np.clip(curve[a:b].mean(), 0, 1))
        start = refine_onset(feats.track, feats.time_of(lo), search_s=0.05)
        segs.append(Segment(round(start, 3), round(feats.time_of(hi) + WIN_S / 2, 3), round(score, 3)))
    return segs


def find_count(feats: Features, night: Segment, steady_below: float = 0.95) -> list[Cue]:
    """The judge's spoken count during the shooting (rfm 4.5.3): onsets of voice over the music.

    A held note keeps its spectrum for hundreds of milliseconds and a chord change breaks it for
    a frame or two; a spoken number keeps it moving for 0.15–0.8 s. Runs where the spectrum 50 ms
    apart stops matching, that long, are the counted numbers.
    """
    a, b = feats.frame_at(night.start), feats.frame_at(night.end)
    z = feats.logmel[a:b] - feats.logmel[a:b].mean(axis=1, keepdims=True)
    lag = 5
    if len(z) < 10 * lag:
        return []
    num = (z[lag:] * z[:-lag]).sum(axis=1)
    den = np.sqrt((z[lag:] ** 2).sum(axis=1) * (z[:-lag] ** 2).sum(axis=1)) + 1e-9
    steady = np.convolve(np.concatenate((np.ones(lag), num / den)), np.ones(5) / 5, mode="same")
    cues = []
    for ra, rb in _runs(steady < steady_below):
        dur = (rb - ra) * feats.hop
        if 0.12 <= dur <= 0.9:
            t = feats.time_of(a + ra)
            score = float(np.clip((steady_below - steady[ra:rb].min()) * 5, 0, 1))
            cues.append(Cue("count", round(t, 3), round(score, 3), round(t + dur, 3)))
    return cues


# ---------------------------------------------------------------- everything the judge said, for alignment


@dataclass(frozen=True)
class Heard:
    """The votes and nights heard on a track, and which closing word was matched (how it was found)."""

    votes: list[VoteCues]
    nights: list[Segment]
    template: tuple[float, float] | None
    source: str  # "marked" | "protocol" | "discovered" | "none"


def _in_rounds(times: list[float]) -> list[bool]:
    """For each closing word (times in the order given), whether another lies within a vote round's span of it:
    its nearest neighbour in time does."""
    order = sorted(range(len(times)), key=times.__getitem__)
    near = [False] * len(times)
    for a, b in zip(order, order[1:], strict=False):
        if 0.0 < times[b] - times[a] <= ROUND_SPAN_S:
            near[a] = near[b] = True
    return near


def listen(
    feats: Features, marked: float | None = None, hints: list[float] = (), expected: int | None = None, weak: bool = False
) -> Heard:
    """Find the votes: from the word the judge marked, else a protocol cut-off time, else unsupervised.

    A template from a protocol time is kept only when it recurs for at least half the expected
    votes (a time on the wrong clock would pick some other word near it). Otherwise each candidate
    word is tried and the one with clear repeats for about `expected` votes, and few beyond, wins.
    `weak` keeps repeats whose call is unlike the others' (see `find_vote_cues`). Where fewer than half the
    expected votes are heard, the word is looked for again as if their number were unknown.
    """
    nights = find_night_music(feats)
    need = max(2, (expected or 0) // 2)
    best, best_fit = Heard([], nights, None, "none"), 0.0
    tries: list[tuple[str, tuple[float, float] | None]] = []
    if marked is not None:
        tries.append(("marked", find_word(feats, marked)))
    tries += [("protocol", find_word(feats, h)) for h in hints[:3]]
    tries += [("discovered", c) for c in closing_word_candidates(feats, nights, expected)]
    for source, template in tries:
        if template is None:
            continue
        votes = find_vote_cues(feats, template, nights, expected, weak=weak)
        sure = [v for v in votes if v.confident]
        if source == "marked" or (source == "protocol" and len(sure) >= need):
            return Heard(votes, nights, template, source)
        # The word with clear repeats for the votes and few beyond them (a short syllable recurs everywhere); only
        # the sure repeats count: a template seeded on another word still matches that word, weakly, out of place.
        # A round's candidates are closed one after the other, seconds apart: a repeat with no other within a
        # round's span is worth half (only a round of one candidate closes alone), so a word the judge says once
        # per speech all day does not outweigh the closing word of fewer votes; nor do such lone repeats beyond the
        # votes count against a word (a judge who thanks every speaker with the word that closes his votes).
        margins = sorted(((max(0.0, v.match - 0.5) * (1.0 if paced else LONE_WEIGHT), paced)
                          for v, paced in zip(sure, _in_rounds([v.cutoff.t for v in sure]), strict=True)),
                         reverse=True)
        k = expected or len(margins)
        fit = float(sum(m for m, _ in margins[:k]) - sum(m for m, paced in margins[k:] if paced))
        if len(sure) >= 2 and (best.template is None or fit > best_fit):
            best, best_fit = Heard(votes, nights, template, source), fit
    sure_votes = sum(v.confident for v in best.votes)
    if expected and sure_votes < need:
        # Fewer than half the protocol's votes heard: the video may hold only part of the game (a clip, one
        # camera's file), and a count that does not apply hides a word said only a few times. Listen again
        # without it; keep whichever hears more votes for sure.
        alone = listen(feats, hints=hints, weak=weak)
        if sum(v.confident for v in alone.votes) > sure_votes:
            return alone
    return best


PART_GAP_S = 1.0  # silence put between two stretches of a track heard as one


def listen_parts(tracks: list[AudioTrack], gap_s: float = PART_GAP_S, **how: object) -> Heard:
    """`listen` (same arguments) to stretches of one video's sound track as one track, `gap_s` of silence between
    them, every time put back on the video's clock: one closing word found across all the stretches, as across a
    whole track. One stretch is simply listened to."""
    if len(tracks) == 1:
        return listen(features(tracks[0]), **how)  # type: ignore[arg-type]
    rate = tracks[0].rate
    gap = np.zeros(int(round(gap_s * rate)), np.float32)
    pieces: list[np.ndarray] = []
    joined_at: list[float] = []  # where each stretch begins on the joined track
    for k, track in enumerate(tracks):
        if k:
            pieces.append(gap)
        joined_at.append(sum(len(x) for x in pieces) / rate)
        pieces.append(np.asarray(track.samples, np.float32))
    heard = listen(features(AudioTrack(np.concatenate(pieces), rate, 0.0, tracks[0].path)), **how)  # type: ignore[arg-type]

    def shift(t: float) -> float:
        k = max(0, bisect_right(joined_at, t) - 1)
        return tracks[k].start - joined_at[k]

    def cue(c: Cue | None) -> Cue | None:
        if c is None:
            return None
        d = shift(c.t)
        return replace(c, t=round(c.t + d, 4), end=None if c.end is None else round(c.end + d, 4))

    votes = [replace(v, cutoff=cue(v.cutoff), call=cue(v.call), announced=cue(v.announced)) for v in heard.votes]
    nights = [replace(n, start=round(n.start + shift(n.start), 3), end=round(n.end + shift(n.start), 3))
              for n in heard.nights]
    template = None if heard.template is None else tuple(x + shift(heard.template[0]) for x in heard.template)
    return Heard(votes, nights, template, heard.source)  # type: ignore[arg-type]


# ---------------------------------------------------------------- the shooting count: the judge's number words


COUNT_WORD_S = (0.08, 0.95)  # a spoken number lasts this long («два» … «четыре», slow or fast)
COUNT_JOIN_S = 0.12  # word onsets closer than this are one word (a split «девять»)


def _window_features(feats: Features, start: float, end: float) -> Features:
    """The frames between two video times as Features of their own, so that levels are judged locally."""
    a, b = feats.frame_at(start), feats.frame_at(end)
    return Features(feats.mfcc[a:b], feats.logmel[a:b], feats.energy_db[a:b], feats.time_of(a), feats.hop, feats.track)


BACKGROUND_PCT = 30  # per mel band, this percentile of the stretch is its background (music, room, hiss)
EXCESS_DB = 6.0  # a band counts as sounding above its background this far above it
SPEECH_BANDS = slice(4, 32)  # mel bands of about 200 Hz – 4 kHz, where a voice has its energy


def _over_background(local: Features) -> list[tuple[int, int]]:
    """Frame runs where the voice bands rise above their own background: speech over loud music or hiss.

    Each band's background is its BACKGROUND_PCT percentile over the stretch (the judge speaks less
    than that share of it); a frame's level is the mean excess over EXCESS_DB across the speech bands,
    and a run is where it exceeds a quarter of its 98th percentile (1 dB at least). Broadband noise
    lifts every band's background alike, and music holds its notes in a few bands, so the words stand out.
    """
    lm = local.logmel
    if len(lm) < 20:
        return []
    excess = np.clip(lm - np.percentile(lm, BACKGROUND_PCT, axis=0) - EXCESS_DB, 0.0, None)[:, SPEECH_BANDS].mean(axis=1)
    excess = np.convolve(excess, np.ones(3) / 3, mode="same")
    return _runs(excess > max(1.0, 0.25 * float(np.percentile(excess, 98))))


def count_words(feats: Features, start: float, end: float) -> list[Cue]:
    """Every word-long sound between `start` and `end` that may be a number of the judge's count (rfm 4.5.3).

    Two detectors, because the count may be said into a quiet room or over loud night music (rfm 2.3):
    voice runs split at 80 ms pauses, judged against this stretch's own floor and loudest sound (the
    judge's level here, not the game's); and the runs where the voice bands rise above their own
    background (`_over_background`: music and hiss together). (`find_count`, the spectrum moving over
    steady music, was a third: under music with hiss it adds chance sounds, bench/audio_counts.py
    93 % of bends on the right number with it, 96.5 % without.) Onsets of both are refined to the first sound of the word; onsets closer than
    COUNT_JOIN_S are one word. Which of these words are the numbers, in which order, is for
    contract.night.fit_count (the count is a run of short words at a steady pace). A sound that starts
    inside an earlier word is a part of it (a vowel after a soft first consonant), not a word of its own.
    """
    local = _window_features(feats, start, end)
    if len(local.energy_db) < 20:
        return []
    lo, hi = COUNT_WORD_S
    found: list[Cue] = []
    for a, b in utterances(local, gap_s=0.08):
        dur = (b - a) * local.hop + WIN_S
        if lo <= dur <= hi:
            t = refine_onset(feats.track, local.time_of(a), search_s=0.04)
            found.append(Cue("count_word", round(t, 4), 1.0, round(local.time_of(b) + WIN_S, 4)))
    for a, b in _over_background(local):
        dur = (b - a) * local.hop
        if lo <= dur <= hi:
            t = refine_onset(feats.track, local.time_of(a), search_s=0.04)
            found.append(Cue("count_word", round(t, 4), 0.8, round(local.time_of(b), 4)))
    found.sort(key=lambda c: c.t)
    merged: list[Cue] = []
    for c in found:
        inside = merged and merged[-1].end is not None and c.t < merged[-1].end - 0.02
        if merged and (c.t - merged[-1].t < COUNT_JOIN_S or inside):  # the same word again, or a part of it
            prev = merged[-1]
            merged[-1] = Cue(prev.kind, min(prev.t, c.t), max(prev.score, c.score), prev.end if inside else max(prev.end or 0.0, c.end or 0.0))
        else:
            merged.append(c)
    return merged
