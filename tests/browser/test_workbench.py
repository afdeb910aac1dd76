"""The workbench in Chromium, under a real ``serve``: a hand dealt by clicking
cards to seats, played by clicking each player's card (a revoke refused with
the law's reason), and written as a hand file that validates and that the
preview builds into a lesson."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from whistbook.build import BuildOptions
from whistbook.cards import Card
from whistbook.handfile import load
from whistbook.play import legal_plays, replay, replay_hand
from whistbook.seats import SEATS, Seat
from whistbook.serve import serve
from whistbook.workbench import PAGE

from render_support import HAND_I

pytestmark = pytest.mark.slow

SHOTS = os.environ.get("WHISTBOOK_SHOTS")  # a folder to keep screenshots in, to look at them


@pytest.fixture
def served(tmp_path):
    (tmp_path / "hands").mkdir()
    shutil.copy(HAND_I, tmp_path / "hands" / "first.yaml")
    options = BuildOptions(hands=tmp_path / "hands", output=tmp_path / "output", templates=tmp_path / "templates",
                           mkdocs_config=tmp_path / "mkdocs.yml", cache=tmp_path / ".cache", booklet=False,
                           workers=1, judge_samples=0, keep_going=True, title="Workbench")
    ready, stop = threading.Event(), threading.Event()
    thread = threading.Thread(target=serve, args=(options,), kwargs=dict(port=0, ready=ready, stop=stop), daemon=True)
    thread.start()
    assert ready.wait(300)
    yield f"http://127.0.0.1:{ready.port}", tmp_path
    stop.set()
    thread.join(timeout=20)


def _shot(page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def test_a_hand_dealt_and_played_in_the_browser_comes_out_as_a_valid_file(page, served):
    url, root = served
    page.goto(url + "/html/index.html")
    page.click("text=Deal and play a hand")  # the link on every preview page
    page.wait_for_selector("#pack .wb-card")
    assert page.url == url + PAGE

    deal = {s: [] for s in "AYBZ"}
    ranks, suits = "AKQJT98765432", "SHDC"
    pack = [r + s for s in suits for r in ranks]
    order = [pack[(k * 7) % 52] for k in range(52)]  # every card once, well mixed (7 is prime to 52)
    for k, seat in enumerate("AYB"):
        page.click(f'#seats [data-seat="{seat}"]')
        for card in order[13 * k:13 * k + 13]:
            page.click(f'#pack [data-card="{card}"]')
            deal[seat].append(card)
    assert page.inner_text("#rest") == "The rest to Z"
    page.click("#rest")
    deal["Z"] = [c for c in pack if not any(c in v for v in deal.values())]
    assert page.inner_text('#seats [data-seat="Z"]') == "Z 13/13"
    page.click("#pick-turn-up")
    turn_up = deal["Z"][0]
    page.click(f'#pack [data-card="{turn_up}"]')
    assert "Z turns up" in page.inner_text("#turn-up")
    _shot(page, "workbench-deal")
    page.click("#start")
    page.wait_for_selector("#play-step:not([hidden])")

    held = {s: [Card.parse(c) for c in v] for s, v in deal.items()}
    lead = held["A"][0]
    revoke = next((c for c in held["Y"] if c.suit != lead.suit), None)
    follow = [c for c in held["Y"] if c.suit == lead.suit]
    page.click(f'.wb-hand [data-card="{held["Y"][0]}"]')  # Y before A has led
    page.wait_for_function("document.getElementById('message').textContent.length > 0")
    assert page.inner_text("#message") == f"it is A's turn to play, and {held['Y'][0].symbol} is Y's"
    page.click(f'.wb-hand [data-card="{lead}"]')
    page.wait_for_function("document.getElementById('message').textContent === ''")
    if follow and revoke is not None:
        page.click(f'.wb-hand [data-card="{revoke}"]')
        page.wait_for_function("document.getElementById('message').textContent.includes('revoke')")
        assert page.inner_text("#message") == (
            f"Y must follow suit: he holds {max(follow, key=lambda c: c.rank).symbol}, so {revoke.symbol} to a "
            f"{lead.suit.singular} lead would be a revoke (Law 71)")
        _shot(page, "workbench-revoke")
    # two whole tricks, each player playing his first legal card
    trumps = Card.parse(turn_up).suit
    tricks: list[list[Card]] = [[lead]]
    while len(tricks) < 2 or len(tricks[-1]) < 4:
        if len(tricks[-1]) == 4:
            tricks.append([])
        leader = replay({Seat.parse(s): v for s, v in held.items()}, trumps, Seat.A,
                        [t for t in tricks if len(t) == 4]).next_leader
        seat = SEATS[(int(leader) + len(tricks[-1])) % 4]
        gone = {c for t in tricks for c in t}
        led = tricks[-1][0].suit if tricks[-1] else None
        card = legal_plays([c for c in held[str(seat)] if c not in gone], led)[0]
        page.click(f'.wb-hand [data-card="{card}"]')
        tricks[-1].append(card)
        page.wait_for_function(f"document.querySelectorAll('.wb-hand .wb-card').length === {52 - sum(map(len, tricks))}")
    assert page.locator("#tricks li").count() == 2
    _shot(page, "workbench-play")
    page.fill("#name", "dealt-in-the-browser")
    page.fill("#title", "Dealt in the browser")
    page.click("#write")
    page.wait_for_function("document.getElementById('written').textContent.includes('Wrote')")
    _shot(page, "workbench-written")

    path = root / "hands" / "dealt-in-the-browser.yaml"
    # validated in a process of its own: the solver may not run in two threads of one process, and
    # this one holds the preview, which is building the new lesson now
    done = subprocess.run([sys.executable, "-m", "whistbook", "validate", str(path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    rp = replay_hand(load(path))
    assert [list(t.cards) for t in rp.tricks] == tricks
    assert {s: sorted(str(c) for c in rp.hands[int(Seat.parse(s))]) for s in "AYBZ"} == \
        {s: sorted(v) for s, v in deal.items()}
    lesson = root / "output" / "html" / "dealt-in-the-browser.html"
    began = time.monotonic()
    while not lesson.is_file() and time.monotonic() - began < 120:  # the watcher sees the file, the build makes it
        time.sleep(0.5)
    assert "Dealt in the browser" in lesson.read_text(encoding="utf-8")
    page.click("text=open the lesson")
    page.wait_for_selector("h1")
    assert "Dealt in the browser" in page.inner_text("h1")


def test_the_workbench_at_phone_width(browser, served):
    url, _ = served
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(url + PAGE)
    page.click("#random")
    page.click("#start")
    page.wait_for_selector("#play-step:not([hidden])")
    widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1]  # nothing wider than the screen
    _shot(page, "workbench-phone")
    context.close()
