"""How the package's modules depend on each other: the stages import one way
(load -> check -> infer / analyse -> lesson -> render -> write)."""

from __future__ import annotations

import subprocess
import sys

from conftest import ROOT


def test_checking_imports_no_inference_engine():
    """validate's first stage (the laws, a problem's task) runs without the
    inference engine; the infer: lines are checked after, by their own stage."""
    code = ("import sys; from whistbook.corpus import check_file; "
            "checked = check_file(sys.argv[1], solver=False); "
            "assert checked.ok and any(t.infer for t in checked.hand.tricks); "
            "print(sorted(m for m in sys.modules if m.startswith('whistbook.inference')))")
    hand = ROOT / "hands" / "cavendish" / "01-trump-lead-on-established-suit.yaml"
    out = subprocess.run([sys.executable, "-c", code, str(hand)], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


PACKAGE = ROOT / "whistbook"
#: the most lines a module of the package may have: past it, split it by concern
MOST_LINES = 600


def _module(path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports() -> dict[str, set[str]]:
    """Each module of the package and the modules of the package it imports,
    at the top or inside a function (a dependency all the same), leaving out
    what is imported only for type checking."""
    import ast

    modules = {_module(p): p for p in PACKAGE.rglob("*.py")}
    edges: dict[str, set[str]] = {m: set() for m in modules}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        typing_only = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
                       and "TYPE_CHECKING" in ast.unparse(node.test) for n in ast.walk(node)}
        here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        for node in ast.walk(tree):
            if id(node) in typing_only:
                continue
            if isinstance(node, ast.ImportFrom):
                base = here[:len(here) - node.level + 1] if node.level else []
                mod = ".".join(base + ([node.module] if node.module else []))
                targets = [f"{mod}.{a.name}" if f"{mod}.{a.name}" in modules else mod for a in node.names]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            for target in targets:
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    edges[name].add(target)
    return edges


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import each other, round (Tarjan's strongly connected components)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while (w := stack.pop()) != v:
                group.append(w)
            if group:
                out.append(sorted([v, *group]))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def test_the_package_has_no_import_cycle():
    edges = _imports()
    assert edges["whistbook.lesson"] and "whistbook.views" in edges["whistbook.quiz"]  # the graph is read
    assert _cycles(edges) == []


def test_a_cycle_is_found():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_module_is_over_six_hundred_lines():
    long = {str(p.relative_to(ROOT)): n for p in PACKAGE.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MOST_LINES}
    assert long == {}
