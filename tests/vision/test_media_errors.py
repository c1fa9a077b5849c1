"""vision.media_errors: a file the media library refuses is refused in the judge's language, the library's English
(«Invalid data found when processing input») said in the reader's words."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from contract import i18n
from vision.audio import AudioError, read_audio
from vision.video import VideoError, open_video


@pytest.mark.parametrize("opener", [open_video, read_audio])
def test_a_text_file_named_like_a_video_is_refused_in_russian_words_only(opener, tmp_path: Path) -> None:
    notes = tmp_path / "стол1.mp4"
    notes.write_text("заметки судьи, не видео", encoding="utf-8")
    with i18n.using("ru"), pytest.raises((VideoError, AudioError)) as refused:
        opener(notes)
    said = str(refused.value)
    assert said.startswith(str(notes)) and "повреждены" in said
    assert not re.search("[A-Za-z]", said.removeprefix(str(notes))), said  # no English left after the file's name


def test_a_reason_not_known_in_words_stays_as_the_library_says_it() -> None:
    from vision.media_errors import reason

    assert reason(OSError(5, "Input/output error")) == "Input/output error"
    with i18n.using("ru"):
        assert reason(PermissionError(13, "Permission denied")) == "нет прав на его чтение"
