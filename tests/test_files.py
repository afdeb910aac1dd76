"""Files written whole or not at all (whistbook.files)."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from whistbook.files import write_whole


def test_a_file_is_written_whole_and_keeps_its_line_ends_when_asked(tmp_path: Path):
    path = tmp_path / "hand.yaml"
    write_whole(path, "title: A\r\nscore: love-all\r\n", newline="")
    assert path.read_bytes() == b"title: A\r\nscore: love-all\r\n"
    assert [p.name for p in tmp_path.iterdir()] == ["hand.yaml"]


def test_a_write_that_fails_leaves_the_old_file_and_nothing_beside_it(tmp_path: Path, monkeypatch):
    path = tmp_path / "hand.yaml"
    path.write_text("old\n", encoding="utf-8")

    def full(self, target):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Path, "replace", full)
    with pytest.raises(OSError) as caught:
        write_whole(path, "new\n")
    assert caught.value.filename == str(path)  # the file the user named, not the one beside it
    assert path.read_text(encoding="utf-8") == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["hand.yaml"]
