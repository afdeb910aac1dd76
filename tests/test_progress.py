"""What a build tells as it goes: plain lines off a terminal, one line redrawn on one."""

from __future__ import annotations

import io

from whistbook.progress import Progress, progress_of


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_plain_lines_count_each_piece_done():
    lines: list[str] = []
    progress = progress_of(lines.append)
    counter = progress.counter("checking the hand files", 2)
    counter.step("Hand I")
    progress.say("a line between")
    counter.step("Hand II: 1 error")
    counter.end()
    assert lines == ["checking the hand files: 2 to do", "[1/2] Hand I", "a line between", "[2/2] Hand II: 1 error"]


def test_nothing_is_said_of_work_not_done():
    lines: list[str] = []
    progress_of(lines.append).counter("checking the hand files", 0).end()
    assert lines == []


def test_a_terminal_sees_one_line_redrawn_and_the_lines_between():
    screen = _Terminal()
    progress = Progress.on(screen)
    counter = progress.counter("laying out the booklet", 4)
    counter.step("Hand I")
    progress.say("booklet: a warning")
    counter.step("Hand II")
    counter.end()
    progress.say("wrote output/")
    text = screen.getvalue()
    assert "[######------------------] 1/4 Hand I" in text and "2/4 Hand II" in text
    # a line said while the bar is shown takes the bar's place, and the bar comes back under it
    assert "\r\x1b[Kbooklet: a warning\n\r\x1b[Klaying out the booklet [######" in text
    assert text.endswith("\r\x1b[Kwrote output/\n")


def test_the_judges_count_is_one_line_on_a_terminal_that_goes_when_done_and_nothing_elsewhere():
    from whistbook.progress import CardCount

    screen = _Terminal()
    count = CardCount("hand.yaml", stream=screen)
    count(1, 2)
    count(2, 2)
    assert screen.getvalue() == ("\r\x1b[Khand.yaml: judging card 1 of 2\r\x1b[Khand.yaml: judging card 2 of 2"
                                 "\r\x1b[K")
    stopped = _Terminal()
    count = CardCount("hand.yaml", stream=stopped)
    count(1, 9)
    count.close()  # the work stopped early: the line still goes
    assert stopped.getvalue().endswith("\r\x1b[K")
    log, quiet = io.StringIO(), _Terminal()
    CardCount("hand.yaml", stream=log)(1, 2)
    CardCount("hand.yaml", quiet=True, stream=quiet)(1, 2)
    assert log.getvalue() == quiet.getvalue() == ""
