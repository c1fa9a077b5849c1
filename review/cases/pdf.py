"""Pages printed to PDF: an appeal's case file, a protocol sheet filled in. Headless Chromium prints the same
self-contained HTML the judge can open, offline, so the PDF holds exactly what the page shows."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from contract.errors import StopframeError
from contract.i18n import _
from contract.jsonio import write_atomic


def chromium() -> str | None:
    """Debian's Chromium (or Google's) if installed: it prints HTML to PDF offline."""
    return next((p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None)


def write_pdf(html_text: str, out: str | os.PathLike[str], *, timeout_s: float = 60.0) -> Path:
    """Print a self-contained HTML page to PDF with headless Chromium; a clear error where no Chromium is
    installed, or where it does not print."""
    browser = chromium()
    if browser is None:
        raise StopframeError(_("PDF needs Chromium (apt-get install chromium); the HTML page has everything."), 2)
    with tempfile.TemporaryDirectory() as tmp:
        page, pdf = Path(tmp) / "page.html", Path(tmp) / "page.pdf"
        page.write_text(html_text, encoding="utf-8")
        cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
               f"--user-data-dir={tmp}/profile", f"--print-to-pdf={pdf}", page.as_uri()]
        try:
            subprocess.run(cmd, capture_output=True, timeout=timeout_s, check=False)
        except subprocess.TimeoutExpired as exc:
            raise StopframeError(_("{path}: Chromium took over {seconds} s to print the page.", path=out,
                                   seconds=f"{timeout_s:.0f}"), 2) from exc
        if not pdf.is_file() or pdf.stat().st_size == 0:
            raise StopframeError(_("{path}: Chromium did not print the page.", path=out), 2)
        return write_atomic(out, pdf.read_bytes())
