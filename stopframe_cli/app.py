"""`stopframe app [GAME] [--video V] [--seats S] [--observations O] [--port N] [--lan]`: the judge's workspace.

Starts Streamlit on the app's script as it ships inside the package (stopframe_app/entry/app.py), so an
installed wheel needs no checkout: `python -m streamlit run SCRIPT`, headless, on this machine only
(127.0.0.1; with --lan on its network too, for the judge's tablet at the live table), with no usage
statistics sent. GAME is a protocol; without it the app opens the bundled sample
game. A GAME or companion file that cannot be read is refused before anything starts (exit 2).

The script is found by its package's location, not imported: the app runs in Streamlit's own process, and
the command line and the app stay independent layers (pyproject's import-linter contracts).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import socket
import subprocess
import sys
from pathlib import Path

from contract import i18n
from contract.errors import EXIT_INVALID, EXIT_OK, UnreadableInput
from contract.i18n import _
from contract.observations import load_observations
from contract.outputs import regular_file
from contract.processes import die_with_parent
from contract.seats import load_seat_map
from review.game.protocol import load_protocol
from stopframe_cli.parsing import whole_number

DEFAULT_PORT = 8501  # Streamlit's own default, and where a judge who knows it looks first
PORTS_TRIED = 100  # without --port: the first free one from DEFAULT_PORT on
STOP_WAIT_S = 10  # how long a stopped server may take to close before it is killed
ADDRESS = "127.0.0.1"  # the games' videos stay on the judge's machine: nothing listens on the network
EVERY_ADDRESS = "0.0.0.0"  # with --lan only: the judge's tablet at the table reaches the live table page
# The settings of the checkout's .streamlit/config.toml, given as flags: an installed package has no such file.
STREAMLIT_FLAGS = {
    "server.headless": "true",
    "browser.gatherUsageStats": "false",
    "server.maxUploadSize": "25",
    "server.fileWatcherType": "none",
    "client.toolbarMode": "minimal",
    "logger.hideWelcomeMessage": "true",  # Streamlit's English welcome: the command says where the app is, in the judge's words
    "logger.level": "warning",  # nor its server's start-up notes; a warning or an error still shows
}


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("app", help=_("open the judge's workspace in the browser (the bundled sample game without GAME)"),
                              description=_("Start the judge's workspace on this computer and print its address; "
                                            "Ctrl+C stops it. Without GAME it opens the bundled sample game."))
    p.add_argument("protocol", nargs="?", metavar="GAME", help=_("the game's protocol (*.protocol.json)"))
    p.add_argument("--video", metavar="VIDEO", help=_("the game video (default: the protocol's video.path)"))
    p.add_argument("--seats", metavar="SEATS", help=_("the camera's seat map (*.seats.json)"))
    p.add_argument("--observations", metavar="OBS", help=_("use saved stopframe-observations/1 instead of looking at the video"))
    p.add_argument("--port", type=whole_number, metavar="N",
                   help=_("the port to serve on (default: the first free one from {port})", port=DEFAULT_PORT))
    p.add_argument("--lan", action="store_true",
                   help=_("also serve the judge's tablet or phone on this computer's network (the page «Live table»); "
                          "anyone on that network can then open the app"))
    p.set_defaults(func=run)


def app_script() -> Path:
    """The Streamlit script inside the installed stopframe_app package (or the checkout's)."""
    spec = importlib.util.find_spec("stopframe_app")
    if spec is None or not spec.submodule_search_locations:
        raise UnreadableInput(_("The app's package (stopframe_app) is not installed with this command line."))
    return Path(next(iter(spec.submodule_search_locations))) / "entry" / "app.py"


def check_game(args: argparse.Namespace) -> None:
    """Refuse, before the server starts, a game the app could not open: its protocol and the files named with it."""
    if args.protocol is None:
        if args.video or args.seats:
            raise UnreadableInput(_("app: --video and --seats go with a GAME (its protocol); without GAME the "
                                    "sample game opens."))
    else:
        load_protocol(args.protocol)
        if not args.protocol.endswith(".json"):
            raise UnreadableInput(_("{path}: the game is given by its protocol, a .json file.", path=args.protocol))
    if args.video:
        regular_file(args.video, "video")
    if args.seats:
        load_seat_map(args.seats)
    if args.observations:
        load_observations(args.observations)


def lan_addresses() -> list[str]:
    """This computer's addresses on its networks, as a tablet on the same network reaches it (no packet is sent:
    a UDP socket "connected" to an outside address only picks the interface a route would take)."""
    found: list[str] = []
    for probe_to in ("10.255.255.255", "192.168.255.255", "172.31.255.255"):
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            try:
                probe.connect((probe_to, 9))
                address = probe.getsockname()[0]
            except OSError:
                continue
        if not address.startswith("127.") and address != EVERY_ADDRESS and address not in found:
            found.append(address)
    return found


def free_port(wanted: int | None, address: str = ADDRESS) -> int:
    """`wanted` when it is free on this machine, else an UnreadableInput; without it the first free port from
    DEFAULT_PORT on."""
    if wanted is not None and not 1 <= wanted <= 65535:
        raise UnreadableInput(_("--port {port}: a port is a number from 1 to 65535.", port=wanted))
    for port in [wanted] if wanted is not None else range(DEFAULT_PORT, DEFAULT_PORT + PORTS_TRIED):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            try:
                probe.bind((address, port))
            except OSError:
                continue
        return port
    if wanted is not None:
        raise UnreadableInput(_("--port {port}: the port is in use; give another or leave --port out.", port=wanted))
    raise UnreadableInput(_("No free port from {first} to {last}; give one with --port.", first=DEFAULT_PORT,
                            last=DEFAULT_PORT + PORTS_TRIED - 1))


def streamlit_command(script: Path, port: int, args: argparse.Namespace) -> list[str]:
    """`python -m streamlit run SCRIPT --flag value ... -- [GAME --video V ...]`: the game after `--`, as the
    app's script reads it (stopframe_app.state.default_spec)."""
    flags = {**STREAMLIT_FLAGS, "server.port": str(port),
             "server.address": EVERY_ADDRESS if getattr(args, "lan", False) else ADDRESS}
    cmd = [sys.executable, "-m", "streamlit", "run", str(script), *(x for k, v in flags.items() for x in (f"--{k}", v))]
    game = [str(Path(args.protocol).resolve())] if args.protocol else []
    game += [x for name in ("video", "seats", "observations") if getattr(args, name)
             for x in (f"--{name}", str(Path(getattr(args, name)).resolve()))]
    return [*cmd, "--", *game] if game else cmd


def serve(cmd: list[str], env: dict[str, str]) -> int:
    """Run the server until it stops; it never outlives this command (Ctrl+C, SIGTERM or even SIGKILL of it)."""
    parent = os.getpid()
    start = (lambda: die_with_parent(parent)) if os.name == "posix" else None
    proc = subprocess.Popen(cmd, env=env, preexec_fn=start)
    try:
        return proc.wait()
    finally:
        if proc.poll() is None:  # Ctrl+C reached the server too: let it close its sessions first
            try:
                proc.wait(timeout=STOP_WAIT_S)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def run(args: argparse.Namespace) -> int:
    check_game(args)
    script = app_script()
    port = free_port(args.port, EVERY_ADDRESS if args.lan else ADDRESS)
    env = dict(os.environ)
    env["STOPFRAME_LANG"] = i18n.language()  # the app opens in the language the command was asked in
    print(_("Stopframe is open at {url} — Ctrl+C stops it.", url=f"http://{ADDRESS}:{port}"), flush=True)
    if args.lan:
        urls = [f"http://{a}:{port}/?page=Live+table" for a in lan_addresses()]
        print(_("On the judge's tablet or phone on this network: {urls} (anyone on this network can open the app: "
                "use it on the club's own network).", urls=", ".join(urls)) if urls else
              _("This computer is on no network a tablet could reach it through: join the club's network and start "
                "again."), flush=True)
    code = serve(streamlit_command(script, port, args), env)
    if code != 0:
        print(_("The app stopped with exit status {code}.", code=code), file=sys.stderr)
        return EXIT_INVALID
    return EXIT_OK
