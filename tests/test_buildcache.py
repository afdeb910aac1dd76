"""The build's store holds data, not code: a piece is loaded only when this
user's key signed it, so a cache that comes with a project cannot run code."""

from __future__ import annotations

import pickle

import pytest

from whistbook import buildcache
from whistbook.buildcache import Store, sign


class _Planted:
    """What a hostile pickle does when loaded: run a call of its choice."""

    def __init__(self, mark):
        self.mark = mark

    def __reduce__(self):
        return (open, (str(self.mark), "w"))


@pytest.fixture
def own_key(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    buildcache.signing_key.cache_clear()
    yield
    buildcache.signing_key.cache_clear()


def test_a_planted_pickle_is_never_loaded(tmp_path, own_key):
    store, mark = Store(tmp_path / "cache"), tmp_path / "ran"
    (tmp_path / "cache" / "lessons").mkdir(parents=True)
    (tmp_path / "cache" / "lessons" / "k.pickle").write_bytes(pickle.dumps(_Planted(mark)))
    assert store.get("lessons", "k") is None
    assert not mark.exists()


def test_a_piece_signed_with_another_key_or_for_another_place_counts_as_missing(tmp_path, own_key, monkeypatch):
    store = Store(tmp_path / "cache")
    store.put("lessons", "k", {"made": 1})
    assert store.get("lessons", "k") == {"made": 1}
    moved = (tmp_path / "cache" / "lessons" / "k.pickle").read_bytes()
    (tmp_path / "cache" / "lessons" / "other.pickle").write_bytes(moved)
    assert store.get("lessons", "other") is None  # signed for k, not for other
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "someone-else"))
    buildcache.signing_key.cache_clear()
    assert store.get("lessons", "k") is None
    mark = tmp_path / "ran"
    (tmp_path / "cache" / "lessons" / "k.pickle").write_bytes(
        b"whistbk1" + bytes(32) + pickle.dumps(_Planted(mark)))
    assert store.get("lessons", "k") is None and not mark.exists()


def test_a_piece_of_the_wrong_type_or_unreadable_counts_as_missing(tmp_path, own_key):
    store = Store(tmp_path / "cache", {"lessons": dict})
    store.put("lessons", "list", [1, 2])
    assert store.get("lessons", "list") is None
    (tmp_path / "cache" / "lessons" / "junk.pickle").write_bytes(sign("lessons/junk", b"not a pickle"))
    assert store.get("lessons", "junk") is None
    (tmp_path / "cache" / "lessons" / "short.pickle").write_bytes(b"whist")
    assert store.get("lessons", "short") is None


def test_the_key_is_the_users_own(tmp_path, own_key):
    key = buildcache.signing_key()
    path = tmp_path / "user-cache" / "whistbook" / "store.key"
    assert path.read_bytes() == key and len(key) == 32
    assert path.stat().st_mode & 0o077 == 0
    buildcache.signing_key.cache_clear()
    assert buildcache.signing_key() == key  # kept, not made again


def test_a_planted_compiled_template_is_never_run(tmp_path, own_key):
    from jinja2.bccache import Bucket

    from whistbook.render.environment import make_environment

    compiled, mark = tmp_path / "compiled", tmp_path / "ran"
    env = make_environment(compiled=compiled)
    name = "lesson.html"
    source, filename, _ = env.loader.get_source(env, name)
    cache = env.bytecode_cache
    bucket = Bucket(env, cache.get_cache_key(name, filename), cache.get_source_checksum(source))
    bucket.code = compile(f"open({str(mark)!r}, 'w')", "planted", "exec")
    data = bucket.bytecode_to_string()
    compiled.mkdir(parents=True, exist_ok=True)
    (compiled / f"{bucket.key}.cache").write_bytes(data)  # as Jinja's own cache would hold it, unsigned
    assert make_environment(compiled=compiled).get_template(name) is not None
    assert not mark.exists()
    (compiled / f"{bucket.key}.cache").write_bytes(b"whistbk1" + bytes(32) + data)
    make_environment(compiled=compiled).get_template(name)
    assert not mark.exists()


def test_compiled_templates_are_kept_and_reused(tmp_path, own_key):
    from whistbook.render.environment import make_environment

    compiled = tmp_path / "compiled"
    make_environment(compiled=compiled).get_template("lesson.html")
    kept = sorted(compiled.iterdir())
    assert kept and all(p.read_bytes().startswith(b"whistbk1") for p in kept)
    env = make_environment(compiled=compiled)
    loaded = []
    real = env.bytecode_cache.load_bytecode
    env.bytecode_cache.load_bytecode = lambda bucket: (real(bucket), loaded.append(bucket.code is not None))
    env.get_template("lesson.html")
    assert loaded and all(loaded)
