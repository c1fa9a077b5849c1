"""The rulebooks' own words for the clauses the profiles cite: the sentence a judge reads in the rulebook.

Why shipped as data: the rulebooks (Russian, ../shared/rules/) are not part of the package, yet a judge
opening a finding should read the clause as the rulebook writes it («Отсечением результата голосования
является буква «С» в слове «Стоп».»), not only our English digest. `clause_sentences.json` holds, for every
clause a profile cites, its paragraph copied from the rulebook; it is made by this module's `main` from the
rulebooks (`python3 -m review.game.clause_text ../shared/rules`), and tests/game/test_clause_text.py checks
every finding kind's clause has its sentence (and, where the rulebooks are present, that the file is current).

How a citation finds its paragraph (../shared/RULES.md): a numbered clause (`rfm 4.4.7`, `mafclub 2.4.5`)
is the first paragraph that starts with that number; `lvi2015 5.3` is the third paragraph of section 5;
`lvi2015 «Первая ночь»` the paragraph that starts with those words (else the first that holds them); `showtime ¶N` the N-th paragraph of the
file (paragraphs are the non-empty lines, a line that carries on the sentence of the line above joined to it:
`paragraphs`).
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import fields
from functools import cache
from pathlib import Path

from review.game.profiles import PROFILES, Cited, Consequence, Ground, Profile

DATA = Path(__file__).with_name("clause_sentences.json")
_REF = re.compile(r"^(?P<profile>[a-z0-9]+) (?P<where>.+)$")


@cache
def _sentences() -> dict[str, str]:
    return json.loads(DATA.read_text(encoding="utf-8"))


def sentence(clause: str | None) -> str | None:
    """The rulebook's paragraph for a citation such as `rfm 4.4.7`; None where none is shipped."""
    return _sentences().get(str(clause or "").strip()) or None


def cited(profile: Profile) -> set[str]:
    """Every clause the profile cites: its parameters, consequences (and their `also`) and appeal grounds."""
    out: set[str] = set()

    def take(value: object) -> None:
        if isinstance(value, Cited | Consequence | Ground):
            out.add(value.clause)
            also = getattr(value, "also", None)
            if also:
                out.add(also)
        elif isinstance(value, tuple):
            for item in value:
                take(item)

    for f in fields(profile):
        take(getattr(profile, f.name))
    return {c for c in out if _REF.match(c or "") and c.split(" ", 1)[0] == profile.id}


_SENTENCE_END = re.compile(r"[.!?:;…»\"”)]$")
_LIST_ITEM = re.compile(r"^(?:\d|[-–—•*]|[а-яёa-z]\))")
_LOWER_START = re.compile(r"^[«„\"(]*[а-яёa-z]")


def paragraphs(text: str) -> list[str]:
    """The rulebook's paragraphs, spaces tidied: its non-empty lines, a line that carries on the sentence of the
    line above joined to it. A text wrapped at a fixed width breaks its sentences across lines; a quote of one
    line would stop mid-sentence. A line carries on the one above when that one ends no sentence and this one
    starts in lower case; a blank line and a list item (a line that starts with a number, a dash or «а)») always
    start a paragraph of their own, so a rulebook written a paragraph a line keeps its paragraphs as they are."""
    out: list[str] = []
    above = ""  # the line above, "" after a blank line
    for raw in text.splitlines():
        line = " ".join(raw.split())
        if line and above and out and _LOWER_START.match(line) and not _LIST_ITEM.match(line) \
                and not _SENTENCE_END.search(above):
            out[-1] += " " + line
        elif line:
            out.append(line)
        above = line
    return out


def find(paras: list[str], where: str) -> str | None:
    """The paragraph a citation (without its profile) names, by the rules in the module's docstring."""
    if where.startswith("¶"):
        n = int(where[1:])
        return paras[n - 1] if 0 < n <= len(paras) else None
    if where.startswith("«"):
        words = where.strip("«»")
        return next((p for p in paras if p.startswith(words)), None) or next((p for p in paras if words in p), None)
    number = re.compile(rf"^{re.escape(where)}(?![\d]|\.\d)\.?\s*")
    hit = next((p for p in paras if number.match(p)), None)
    if hit is not None:
        return number.sub("", hit, count=1)
    section, _, place = where.rpartition(".")
    if section and place.isdigit():  # an unnumbered paragraph counted within its section (lvi2015 5.3)
        head = re.compile(rf"^{re.escape(section)}\.\s+\D")
        start = next((i for i, p in enumerate(paras) if head.match(p)), None)
        if start is not None and start + int(place) < len(paras):
            return paras[start + int(place)]
    return None


_SPLIT_WORD = re.compile(r"(?<![а-яёА-ЯЁ])([а-яёА-ЯЁ]+) (?=([а-яё]+)(?![а-яёА-ЯЁ]))")


def mended(text: str) -> str:
    """The rulebook with the words its PDF copy broke by a space put back together («не объяви т» → «не объявит»,
    «голосо вания» → «голосования»). Two pieces are one word where the rulebook writes them joined elsewhere and one
    of them is written nowhere else as a word of its own: the text's own words are the dictionary, so two real
    words side by side («в том», «не был») stay apart."""
    counts: dict[str, int] = {}
    for word in re.findall(r"[а-яё]+", text.lower()):
        counts[word] = counts.get(word, 0) + 1

    def join(m: re.Match[str]) -> str:
        a, b = m.group(1), m.group(2)
        whole = (a + b).lower()
        if counts.get(whole) and (counts.get(a.lower()) == 1 or counts.get(b.lower()) == 1):
            return a
        return m.group(0)

    return _SPLIT_WORD.sub(join, text)


def extract(rules: Path) -> dict[str, str]:
    """Every clause every profile cites, with its paragraph from the rulebooks in `rules`."""
    out: dict[str, str] = {}
    for profile in PROFILES.values():
        paras = paragraphs(mended((rules / profile.rulebook).read_text(encoding="utf-8")))
        for clause in sorted(cited(profile)):
            found = find(paras, clause.split(" ", 1)[1])
            if found:
                out[clause] = found
    return dict(sorted(out.items()))


def main(argv: list[str] | None = None) -> int:
    """Write clause_sentences.json from the rulebooks' folder (the first argument, default ../shared/rules)."""
    args = sys.argv[1:] if argv is None else argv
    rules = Path(args[0] if args else "../shared/rules")
    data = extract(rules)
    DATA.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"{DATA}: {len(data)} clauses")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
