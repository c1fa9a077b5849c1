"""Speed of `observe` on a 10-seat 720p clip: full vs lite model, with and without change gating.

Uses the renderer's sample game (sample_videos/game/sample_game.mp4 + .seats.json) when it exists,
else a clip composited from the real hand cut-outs in ../shared/assets/hands (ten seats, hands
coming and going). Each configuration runs in its own process so its peak memory is its own.
Reports frames per second, x real time, CPU seconds, detector runs saved by gating, and where
the time goes (decode, crop, inference). Run by hand, once:

    python3 bench/vision_speed.py [--seconds 6] [--video V --seats S --start A]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
GAME = ROOT / "sample_videos" / "game" / "sample_game"
CONFIGS = [("full", True), ("full", False), ("lite", True), ("lite", False)]


def one(video: str, seats: str, start: float, seconds: float, model: str, gating: bool) -> dict:
    from contract.seats import load_seat_map
    from vision.observe import observe

    seat_map = load_seat_map(seats)
    wall0, cpu0 = time.perf_counter(), time.process_time()
    seen = observe(video, seat_map, [(start, start + seconds)], model=model, gating=gating)
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    st = seen.stats
    return {
        "model": model, "gating": gating, "frames": st["frames"], "wall_s": round(wall, 2), "cpu_s": round(cpu, 2),
        "fps": round(st["frames"] / wall, 2), "x_real_time": round(seconds / wall, 3),
        "detector_runs": st["detector_runs"], "gated": st["gated"],
        "decode_s": round(st["decode_s"], 2), "crop_s": round(st["crop_s"], 2), "inference_s": round(st["inference_s"], 2),
        "second_look_s": round(st.get("second_look_s", 0.0), 2), "second_looks": st.get("second_looks", 0),
        "hands": len(seen.hands), "peak_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
    }


def composite_clip(folder: Path, seconds: float) -> tuple[str, str]:
    from fixtures.vision.composite import Placement, assets_present, table_seat_map, write_composite

    from contract.seats import save_seat_map

    if not assets_present():
        sys.exit("no sample game and no ../shared/assets/hands: nothing to measure")
    n = int(seconds * 25)
    sprites = ["hg_fist", "hg_like", "mps_hand_thumb_up", "hg_palm", "hg_one", "td_four_15a73593", "hg_fist",
               "mps_thumbs_up_png", "td_four_07fdea90", "hg_stop"]
    placements = [Placement(s, sprites[s - 1], int(n * (0.05 + 0.04 * s)), int(n * (0.5 + 0.045 * s))) for s in range(1, 11)]
    video = folder / "speed.mp4"
    write_composite(video, placements, n)
    seats = save_seat_map(table_seat_map(), folder / "speed.seats.json")
    return str(video), str(seats)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=6.0)
    parser.add_argument("--video")
    parser.add_argument("--seats")
    parser.add_argument("--start", type=float, default=0.0)
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        model, gating = args.one.split(",")
        print(json.dumps(one(args.video, args.seats, args.start, args.seconds, model, gating == "1")))
        return
    with tempfile.TemporaryDirectory() as tmp:
        if args.video:
            video, seats, source = args.video, args.seats, args.video
        elif GAME.with_suffix(".mp4").exists():
            video, seats, source = str(GAME.with_suffix(".mp4")), str(GAME.with_suffix(".seats.json")), "sample game"
        else:
            video, seats = composite_clip(Path(tmp), args.seconds)
            source = "composite of real cut-outs (static hands)"
        print(f"# observe speed on {source}, {args.seconds:.0f} s from {args.start:.1f} s")
        print("| model | gating | frames | wall s | CPU s | fps | x real time | detector runs | gated | decode s | crop s "
              "| inference s | second looks (s) | peak MB |")
        print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        for model, gating in CONFIGS:
            out = subprocess.run(
                [sys.executable, __file__, "--one", f"{model},{int(gating)}", "--video", video, "--seats", seats,
                 "--start", str(args.start), "--seconds", str(args.seconds)],
                check=True, capture_output=True, text=True,
            ).stdout
            r = json.loads(out.strip().splitlines()[-1])
            print(f"| {model} | {'on' if gating else 'off'} | {r['frames']} | {r['wall_s']} | {r['cpu_s']} | {r['fps']} | "
                  f"{r['x_real_time']} | {r['detector_runs']} | {r['gated']} | {r['decode_s']} | {r['crop_s']} | "
                  f"{r['inference_s']} | {r['second_looks']} ({r['second_look_s']}) | {r['peak_mb']} |", flush=True)


if __name__ == "__main__":
    main()
