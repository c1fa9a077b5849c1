"""The text of a PDF that headless Chromium printed, read back without any PDF library: enough to check what a
reader sees in it (the appeal case file's Cyrillic, tests/cases/test_appeal_pdf.py).

Chromium (Skia) writes each font as a Type0 font with a ToUnicode map, and its pages' text as hex glyph codes
in `Tj`/`TJ` after `/Fn size Tf`; this follows exactly that: the objects, the fonts a page names, each font's
ToUnicode map, and the text operators of the page's content streams.
"""

from __future__ import annotations

import re
import zlib

_OBJ = re.compile(rb"(\d+)\s+0\s+obj\b")
_REF = rb"(\d+)\s+0\s+R"


def _objects(pdf: bytes) -> dict[int, bytes]:
    """Object number -> its body (dictionary, and a stream's data inflated where it is FlateDecode)."""
    starts = [(int(m.group(1)), m.end()) for m in _OBJ.finditer(pdf)]
    out = {}
    for number, start in starts:
        head_end = pdf.find(b"stream", start)
        end = pdf.find(b"endobj", start)
        if 0 <= head_end < end:
            head = pdf[start:head_end]
            data_start = head_end + len(b"stream")
            data_start += 2 if pdf[data_start:data_start + 2] == b"\r\n" else 1
            length = re.search(rb"/Length\s+(\d+)(?!\s+0\s+R)", head)
            data_end = data_start + int(length.group(1)) if length else pdf.rfind(b"endstream", data_start, end)
            data = pdf[data_start:data_end]
            if b"/FlateDecode" in head:
                data = zlib.decompress(data)
            out[number] = head + b"\nstream\n" + data
        else:
            out[number] = pdf[start:end]
    return out


def _cmap(text: bytes) -> dict[int, str]:
    """A ToUnicode map: glyph code -> the characters it stands for."""
    out: dict[int, str] = {}
    for block in re.findall(rb"beginbfchar(.*?)endbfchar", text, re.S):
        for src, dst in re.findall(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block):
            out[int(src, 16)] = bytes.fromhex(dst.decode()).decode("utf-16-be")
    for block in re.findall(rb"beginbfrange(.*?)endbfrange", text, re.S):
        for lo, hi, dst in re.findall(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block):
            first = int(dst, 16)
            for k, code in enumerate(range(int(lo, 16), int(hi, 16) + 1)):
                out[code] = chr(first + k)
    return out


def pdf_text(pdf: bytes) -> str:
    """Every piece of text the PDF's pages show, in the order they are drawn (a line per text operator)."""
    objects = _objects(pdf)
    maps: dict[bytes, dict[int, str]] = {}
    for body in objects.values():
        for name, font in re.findall(rb"/(F\d+)\s+" + _REF, body):
            unicode_ref = re.search(rb"/ToUnicode\s+" + _REF, objects.get(int(font), b""))
            if unicode_ref:
                maps[name] = _cmap(objects.get(int(unicode_ref.group(1)), b""))
    lines = []
    for body in objects.values():
        if b"stream" not in body or b"BT" not in body:
            continue
        current: dict[int, str] = {}
        for op in re.finditer(rb"/(F\d+)\s+[\d.]+\s+Tf|(<[0-9A-Fa-f]*>)\s*Tj|\[(.*?)\]\s*TJ", body, re.S):
            if op.group(1):
                current = maps.get(op.group(1), {})
                continue
            hexes = re.findall(rb"<([0-9A-Fa-f]*)>", op.group(2) or op.group(3))
            codes = b"".join(hexes).decode()
            lines.append("".join(current.get(int(codes[i:i + 4], 16), "") for i in range(0, len(codes), 4)))
    return "\n".join(lines)
