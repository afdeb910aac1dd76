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
