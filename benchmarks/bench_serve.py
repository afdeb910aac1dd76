"""``whistbook serve``: from saving a hand file to the page showing the edit.

    python benchmarks/bench_serve.py [--edits 5] [--hand cavendish/07-*.yaml]

Copies the project (hands, templates, mkdocs.yml and the build cache, so the
first build reuses the stored lessons and the solver's results) into a
temporary folder, starts ``whistbook serve`` there on a free loopback port
in a fresh process, and waits for it to answer. Then, ``--edits`` times, it
adds a new word to the first remark of one hand and polls both the lesson's
page (``html/``) and its site page (``site/lessons/``) every 20 ms until each
shows the word. Each edit is timed from the save to the first response
holding it; the processor seconds are those the server spent meanwhile
(user and system, from /proc). Prints each edit and the medians.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str) -> str:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.read().decode("utf-8")
    except OSError:
        return ""


def _cpu(pid: int) -> float:
    """User and system seconds of ``pid`` and its children that have ended."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def _copy_project(dest: Path) -> None:
    for name in ("hands", "templates", ".whistbook-cache"):
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, dest / name)
    shutil.copy2(ROOT / "mkdocs.yml", dest / "mkdocs.yml")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edits", type=int, default=5)
    parser.add_argument("--hand", default="cavendish/07-*.yaml", help="the hand to edit (a pattern under hands/)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="bench-serve-") as tmp:
        project = Path(tmp)
        _copy_project(project)
        hand = next(project.joinpath("hands").glob(args.hand))
        slug = "-".join(hand.relative_to(project / "hands").with_suffix("").parts)
        port = _free_port()
        started = time.perf_counter()
        server = subprocess.Popen([sys.executable, "-m", "whistbook", "serve", "--project", str(project),
                                   "--port", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                  cwd=project)
        base = f"http://127.0.0.1:{port}"
        pages = {"html": f"{base}/html/{slug}.html", "site": f"{base}/site/lessons/{slug}.html"}
        try:
            while "/__whistbook/changes" not in _get(pages["site"]):
                if server.poll() is not None:
                    raise SystemExit(f"serve stopped: {server.stderr.read().decode()}")
                time.sleep(0.2)
            print(f"serve answered after {time.perf_counter() - started:.1f} s (first build); editing {hand.name}")
            time.sleep(1.0)
            times: dict[str, list[float]] = {"html": [], "site": []}
            cpus: list[float] = []
            for k in range(args.edits):
                word = f"Benchmarked{k}x{os.getpid()}"
                text = hand.read_text(encoding="utf-8")
                text, n = re.subn(r"(remark: [|>]-?\n)(\s+)", rf"\1\2{word} ", text, count=1)
                assert n == 1, "the hand has no block remark to edit"
                cpu = _cpu(server.pid)
                saved = time.perf_counter()
                hand.write_text(text, encoding="utf-8")
                todo = dict(pages)
                while todo:
                    for name, url in list(todo.items()):
                        if word in _get(url):
                            times[name].append(time.perf_counter() - saved)
                            del todo[name]
                    if time.perf_counter() - saved > 120:
                        raise SystemExit(f"no edit shown after 120 s: {sorted(todo)}")
                    time.sleep(0.02)
                time.sleep(0.5)  # let the server finish the rebuild's tail (pruning, logging)
                cpus.append(_cpu(server.pid) - cpu)
                print(f"edit {k + 1}: html page {times['html'][-1]:.2f} s, site page {times['site'][-1]:.2f} s, "
                      f"server CPU {cpus[-1]:.2f} s")
            print(f"median of {args.edits}: html page {statistics.median(times['html']):.2f} s, "
                  f"site page {statistics.median(times['site']):.2f} s, "
                  f"server CPU {statistics.median(cpus):.2f} s per edit")
        finally:
            server.terminate()
            server.wait(30)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
