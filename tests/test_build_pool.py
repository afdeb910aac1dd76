"""The build's worker pool: jobs from the store, jobs given twice done once,
results handed on as they come (quick: the jobs are trivial)."""

from __future__ import annotations

import os

import pytest

from whistbook.buildcache import Store
from whistbook.workers import Pool


def _square(n: int) -> tuple[int, int]:
    return n * n, os.getpid()


@pytest.mark.parametrize("workers", [1, 2])
def test_a_job_given_twice_is_done_once_and_stored(tmp_path, workers):
    store = Store(tmp_path / "cache")
    pool = Pool(workers, store)
    store.put("n", "k4", (16, 0))  # from an earlier build
    try:
        early = pool.start("n", _square, [("k3", (3,))])
        seen: list[int] = []
        results = pool.finish(pool.start("n", _square, [("k2", (2,)), ("k3", (3,)), ("k4", (4,))]),
                              lambda k, r: seen.append(k))
        assert [r[0] for r in results] == [4, 9, 16]
        assert sorted(seen) == [0, 1, 2]
        assert pool.finish(early)[0] == results[1]  # the same job, not a second one
        assert (pool.made, pool.reused) == (2, 1)
        assert (workers == 1) == (results[0][1] == os.getpid())  # with one worker, here; else in the workers
    finally:
        pool.close()
    assert store.get("n", "k2")[0] == 4 and store.get("n", "k3")[0] == 9
    assert pool.used == {"n": {"k2", "k3", "k4"}}


def test_the_solver_takes_one_thread_in_a_worker():
    from whistbook import solver

    pool = Pool(2)
    try:
        assert pool.submit(_threads).result() == 1
    finally:
        pool.close()
    assert solver._THREADS is None  # this process keeps DDS's own choice


def _threads() -> int | None:
    from whistbook import solver

    return solver._THREADS


def test_the_solver_solves_again_after_giving_its_memory_back():
    from whistbook import solver
    from whistbook.cards import cards
    from whistbook.seats import Seat

    hands = {Seat.A: cards("AS KH 2D"), Seat.Y: cards("QS 3H 4D"), Seat.B: cards("2S AH 5D"), Seat.Z: cards("3S 4H AD")}
    before = solver.card_options(hands, None, Seat.A)
    solver.release()
    assert solver.card_options(hands, None, Seat.A) == before


def test_a_build_without_a_store_keeps_nothing_of_the_solver(tmp_path, monkeypatch):
    """--no-cache: the lesson is made (and analysed) without writing the solver's
    answers into the project, where the next cold build would read them."""
    from whistbook.build import make_lesson

    from render_support import HAND_I

    monkeypatch.chdir(tmp_path)
    made = make_lesson(HAND_I, HAND_I.read_bytes(), "hand-i", 1, False, None, 4)
    assert made.lesson is not None and made.lesson.analysed
    assert any(q.judged for q in made.lesson.play_quizzes)  # judged, with four deals a card
    assert list(tmp_path.iterdir()) == []


def _started(pause: float) -> float:
    import time

    begun = time.monotonic()
    time.sleep(pause)
    return begun


def test_a_job_of_a_lower_rank_goes_before_the_parts_still_waiting():
    """The site or the answers, given after many lessons' parts, do not wait for
    them all: only a few jobs are in the executor at once."""
    from whistbook.workers import BOOK, FILL

    pool = Pool(2)
    try:
        parts = [pool.submit(_started, 0.2, rank=FILL) for _ in range(6)]
        urgent = pool.submit(_started, 0.0, rank=BOOK)
        begun = [f.result() for f in parts]
        assert urgent.result() <= sorted(begun)[3]  # before at least three of the parts given before it
    finally:
        pool.close()


def test_closing_the_pool_drops_the_jobs_still_waiting():
    pool = Pool(2)
    futures = [pool.submit(_started, 0.1) for _ in range(8)]
    pool.close()
    assert futures[0].result() > 0
    assert futures[-1].cancelled()


def _die(n: int) -> int:
    os._exit(3)  # as a worker killed for memory would


def test_a_worker_killed_is_a_render_error_not_a_traceback(tmp_path):
    from whistbook.errors import RenderError

    pool = Pool(2)
    try:
        batch = pool.start("n", _die, [(f"k{n}", (n,)) for n in range(6)])
        with pytest.raises(RenderError, match="worker process stopped"):
            pool.finish(batch)
    finally:
        pool.close()


def test_a_lesson_is_made_from_the_bytes_its_key_was_made_of(tmp_path):
    """A hand file saved again while a build runs: the lesson stored under the
    old text's key is the old text's, so the next build makes the new one."""
    from whistbook.build import BuildOptions, lesson_jobs, make_lesson

    from render_support import HAND_I

    hands = tmp_path / "hands"
    hands.mkdir()
    path = hands / HAND_I.name
    path.write_bytes(HAND_I.read_bytes())
    options = BuildOptions(hands=hands, judge_samples=0)
    [(key, args)] = lesson_jobs([path], options)
    path.write_bytes(HAND_I.read_bytes().replace(b"title: Hand I", b"title: Hand I, edited"))
    assert make_lesson(*args).lesson.title == "Hand I"
    [(again, _)] = lesson_jobs([path], options)
    assert again != key


def _children(pid: int) -> set[int]:
    from pathlib import Path

    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        found |= {int(c) for c in (task / "children").read_text().split()}
    return found


def _alive(pid: int) -> bool:
    from pathlib import Path

    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="needs Linux's /proc")
@pytest.mark.parametrize("sig", ["SIGTERM", "SIGKILL"])
def test_the_workers_end_with_the_build(sig):
    """A build killed (SIGTERM, SIGKILL: no chance to stop its pool) leaves no worker running."""
    import signal
    import subprocess
    import sys
    import time

    code = ("import time; from whistbook.workers import Pool; pool = Pool(2); "
            "jobs = [pool.submit(time.sleep, 60) for _ in range(4)]; print('given', flush=True); time.sleep(60)")
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "given"
        deadline = time.monotonic() + 20
        while len(workers := _children(proc.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(workers) >= 2
    finally:
        os.kill(proc.pid, getattr(signal, sig))
        proc.wait()
    deadline = time.monotonic() + 5
    while any(_alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_alive(w) for w in workers)


def test_the_code_key_follows_every_package_that_shapes_the_output(monkeypatch):
    from importlib import metadata

    from whistbook import buildcache

    for name in buildcache.SHAPING:
        assert metadata.version(name)  # installed: no name that is never there (as "mkdocs" was)
    buildcache.code_key.cache_clear()
    before = buildcache.code_key()
    real = metadata.version
    for name in ("properdocs-theme-readthedocs", "endplay", "pydyf"):
        monkeypatch.setattr(metadata, "version", lambda n, name=name: "0.0" if n == name else real(n))
        buildcache.code_key.cache_clear()
        assert buildcache.code_key() != before, name
    monkeypatch.undo()
    buildcache.code_key.cache_clear()
    assert buildcache.code_key() == before
