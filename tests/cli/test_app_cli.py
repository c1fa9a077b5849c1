"""`stopframe app`: the judge's workspace started from the command line, on this machine only, with no
usage statistics sent; a game that cannot be opened is refused before anything starts."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from clirun import run_cli

import stopframe_cli.app as app_cli
from contract.errors import EXIT_UNREADABLE

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "sample_videos" / "game" / "sample_game"


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[tuple[list[str], dict[str, str]]]:
    """The servers the command would start, recorded instead of started."""
    calls: list[tuple[list[str], dict[str, str]]] = []
    monkeypatch.setattr(app_cli, "serve", lambda cmd, env: calls.append((cmd, env)) or 0)
    return calls


def test_help_names_the_game_and_the_port_in_both_languages(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        run_cli(capsys, "--lang", "en", "app", "--help")
    out = capsys.readouterr().out
    assert done.value.code == 0 and "GAME" in out and "--port" in out and "sample game" in out
    with pytest.raises(SystemExit):
        run_cli(capsys, "--lang", "ru", "app", "--help")
    assert "учебн" in capsys.readouterr().out


def test_no_game_opens_the_sample_headless_on_this_machine_without_statistics(
        capsys: pytest.CaptureFixture[str], started: list) -> None:
    code, out, err = run_cli(capsys, "--lang", "en", "app")
    assert code == 0 and err == ""
    [(cmd, env)] = started
    assert cmd[1:4] == ["-m", "streamlit", "run"] and Path(cmd[4]) == app_cli.app_script() and Path(cmd[4]).is_file()
    assert _flag(cmd, "--server.headless") == "true" and _flag(cmd, "--browser.gatherUsageStats") == "false"
    assert _flag(cmd, "--server.address") == "127.0.0.1" and "--" not in cmd  # the script's own default: the sample
    assert f"http://127.0.0.1:{_flag(cmd, '--server.port')}" in out
    assert env["STOPFRAME_LANG"] == "en"


def _flag(cmd: list[str], name: str) -> str:
    return cmd[cmd.index(name) + 1]


def test_the_packaged_script_opens_the_bundled_sample_game(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from streamlit.testing.v1 import AppTest

    monkeypatch.setenv("STOPFRAME_DATA", str(tmp_path / "data"))
    at = AppTest.from_file(str(app_cli.app_script()), default_timeout=60).run()
    assert not at.exception and not at.error
    assert "sample_game.protocol.json" in " ".join(m.value for m in at.sidebar.markdown)


def test_a_game_goes_to_the_app_with_its_files_and_the_chosen_port(capsys: pytest.CaptureFixture[str], started: list,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(SAMPLE.parent)
    port = _free_port()
    code, out, _ = run_cli(capsys, "--lang", "ru", "app", "sample_game.protocol.json", "--seats", "sample_game.seats.json",
                           "--observations", "sample_game.observations.json", "--port", port)
    assert code == 0 and f"http://127.0.0.1:{port}" in out and re.search("[а-я]", out)
    [(cmd, env)] = started
    assert _flag(cmd, "--server.port") == str(port) and env["STOPFRAME_LANG"] == "ru"
    assert cmd[cmd.index("--") + 1:] == [f"{SAMPLE}.protocol.json", "--seats", f"{SAMPLE}.seats.json",
                                         "--observations", f"{SAMPLE}.observations.json"]


@pytest.mark.parametrize(("argv", "said"), [
    (["missing.protocol.json"], "missing.protocol.json"),
    ([f"{SAMPLE}.seats.json"], "sample_game.seats.json"),  # a seat map is no protocol
    ([f"{SAMPLE}.protocol.json", "--video", "gone.mp4"], "gone.mp4"),
    ([f"{SAMPLE}.protocol.json", "--observations", f"{SAMPLE}.seats.json"], "sample_game.seats.json"),
    (["--seats", f"{SAMPLE}.seats.json"], "--seats"),
    (["--port", "0"], "65535"),
])
def test_a_game_that_cannot_be_opened_is_refused_in_one_sentence(capsys: pytest.CaptureFixture[str], started: list,
                                                                  argv: list[str], said: str) -> None:
    code, out, err = run_cli(capsys, "--lang", "en", "app", *argv)
    assert code == EXIT_UNREADABLE and out == "" and started == []
    assert err.count("\n") == 1 and said in err


def test_a_port_in_use_is_refused(capsys: pytest.CaptureFixture[str], started: list) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, _, err = run_cli(capsys, "--lang", "ru", "app", "--port", port)
    assert code == EXIT_UNREADABLE and started == [] and str(port) in err and re.search("[а-я]", err)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
def test_the_app_serves_at_the_printed_address_and_stops_with_the_command(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO), "STOPFRAME_DATA": str(tmp_path / "data")}
    command = subprocess.Popen([sys.executable, "-m", "stopframe_cli", "--lang", "en", "app", "--port", str(_free_port())],
                               cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        url = re.search(r"http://127\.0\.0\.1:\d+", command.stdout.readline()).group(0)  # type: ignore[union-attr]
        deadline = time.time() + 60
        while True:
            try:
                with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as answer:
                    assert answer.read() == b"ok"
                    break
            except OSError:
                assert command.poll() is None and time.time() < deadline, "the app did not start"
                time.sleep(0.3)
        command.send_signal(signal.SIGTERM)  # not Ctrl+C: the server must not outlive the command anyway
        command.wait(timeout=20)
        said = command.stdout.read()  # the command's own line was all: not Streamlit's welcome or its server's notes
        assert "Streamlit" not in said and "URL" not in said and "Uvicorn" not in said, said
        time.sleep(1)
        with pytest.raises(OSError):
            urllib.request.urlopen(url + "/_stcore/health", timeout=2)
    finally:
        if command.poll() is None:
            command.kill()


def test_lan_serves_the_tablet_on_this_network_and_says_where(capsys: pytest.CaptureFixture[str], started: list,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Without --lan nothing listens on the network; with it the server listens on every address and the command
    prints the address a tablet on the same network opens the live table at, with who else can."""
    assert all(not a.startswith("127.") and a.count(".") == 3 for a in app_cli.lan_addresses())  # never loopback
    monkeypatch.setattr(app_cli, "lan_addresses", lambda: ["192.168.1.20"])
    port = _free_port()
    code, out, _ = run_cli(capsys, "--lang", "en", "app", "--port", port, "--lan")
    assert code == 0
    [(cmd, _env)] = started
    assert _flag(cmd, "--server.address") == "0.0.0.0"
    assert f"http://192.168.1.20:{port}/?page=Live+table" in out and "anyone on this network" in out
    monkeypatch.setattr(app_cli, "lan_addresses", lambda: [])
    code, out, _ = run_cli(capsys, "--lang", "en", "app", "--port", port, "--lan")
    assert code == 0 and "on no network a tablet could reach" in out
    code, out, _ = run_cli(capsys, "--lang", "en", "app", "--port", port)
    assert _flag(started[-1][0], "--server.address") == "127.0.0.1" and "tablet" not in out
