"""The workbench of ``serve`` (issue 23, item 2), without a browser: the
answers to its requests (a card checked with the law's reason, a hand
written), and the server's care about who asks."""

from __future__ import annotations

import http.client
import json
import random
import threading

import pytest

from whistbook import workbench as wb
from whistbook.cards import Card
from whistbook.corpus import check_file
from whistbook.seats import Seat
from whistbook.server import PreviewServer
from whistbook.starter import random_deal


@pytest.fixture
def hand():
    deal = random_deal(random.Random(3))
    return {"deal": {str(s): [str(c) for c in v] for s, v in deal.items()}, "turn_up": str(deal[Seat.Z][5]),
            "tricks": []}


def ask(hand, **more) -> tuple[int, dict]:
    status, body = wb.answer(wb.CHECK, json.dumps({**hand, **more}).encode(), None)
    return status, json.loads(body)


def test_a_card_out_of_turn_and_a_revoke_are_refused_with_the_reason(hand):
    y_card = hand["deal"]["Y"][0]
    assert ask(hand, card=y_card) == (200, {"ok": False, "reason": (f"it is A's turn to play, and "
                                                                    f"{Card.parse(y_card).symbol} is Y's")})
    lead = hand["deal"]["A"][0]
    assert ask(hand, card=lead) == (200, {"ok": True, "seat": "A", "next": "Y"})
    off = next(c for c in hand["deal"]["Y"] if c[1] != lead[1])
    highest = max((Card.parse(c) for c in hand["deal"]["Y"] if c[1] == lead[1]), key=lambda c: c.rank)
    assert ask(hand, tricks=[[lead]], card=off) == (200, {"ok": False, "reason": (
        f"Y must follow suit: he holds {highest.symbol}, so {Card.parse(off).symbol} to a "
        f"{Card.parse(lead).suit.singular} lead would be a revoke (Law 71)")})


def test_a_trick_completed_names_its_winner_who_leads_next(hand):
    from whistbook.play import legal_plays

    held = {s: [Card.parse(c) for c in v] for s, v in hand["deal"].items()}
    trick: list[str] = []
    for seat in "AYB":
        led = Card.parse(trick[0]).suit if trick else None
        trick.append(str(legal_plays(held[seat], led)[0]))
    last = str(legal_plays(held["Z"], Card.parse(trick[0]).suit)[0])
    status, out = ask(hand, tricks=[trick], card=last)
    assert status == 200 and out["ok"] and out["winner"] == out["next"] and sum(out["tally"]) == 1


def test_what_cannot_be_a_hand_is_a_400_with_its_reason(hand):
    assert wb.answer(wb.CHECK, b"not json", None)[0] == 400
    short = {**hand, "deal": {**hand["deal"], "Z": hand["deal"]["Z"][:12]}}
    status, body = wb.answer(wb.CHECK, json.dumps({**short, "card": "2S"}).encode(), None)
    assert status == 400 and "thirteen cards" in json.loads(body)["error"]
    status, body = wb.answer(wb.CHECK, json.dumps({**hand, "card": "ZZ"}).encode(), None)
    assert status == 400 and "'ZZ' is not a card" in json.loads(body)["error"]
    wrong = {**hand, "turn_up": hand["deal"]["A"][0]}
    status, body = wb.answer(wb.CHECK, json.dumps({**wrong, "card": "2S"}).encode(), None)
    assert status == 400 and "must be one of the dealer's cards" in json.loads(body)["error"]


def test_a_hand_written_validates_claims_the_rest_and_never_replaces_a_file(hand, tmp_path):
    from whistbook.play import legal_plays

    held = {s: [Card.parse(c) for c in v] for s, v in hand["deal"].items()}
    trick = [str(held["A"][0])]
    for seat in "YBZ":
        trick.append(str(legal_plays(held[seat], Card.parse(trick[0]).suit)[0]))
    body = {**hand, "tricks": [trick], "name": "dealt-here", "title": "A hand: dealt here", "known_hand": "B"}
    status, raw = wb.answer(wb.WRITE, json.dumps(body).encode(), tmp_path, "../hand.schema.json")
    out = json.loads(raw)
    assert status == 200 and out["problems"] == [] and out["slug"] == "dealt-here"
    text = (tmp_path / "dealt-here.yaml").read_text(encoding="utf-8")
    assert text.startswith("# yaml-language-server: $schema=../hand.schema.json\n")
    checked = check_file(tmp_path / "dealt-here.yaml")
    assert checked.ok and checked.hand.title == "A hand: dealt here" and checked.hand.known_hand is Seat.B
    assert len(checked.hand.tricks) == 1 and sum(checked.final_tricks.values()) == 13
    again = wb.answer(wb.WRITE, json.dumps(body).encode(), tmp_path)
    assert again[0] == 400 and "exists" in json.loads(again[1])["error"]
    assert (tmp_path / "dealt-here.yaml").read_text(encoding="utf-8") == text
    for name in ("../out", "a/b", ".hidden", "", "x" * 81):
        status, raw = wb.answer(wb.WRITE, json.dumps({**body, "name": name}).encode(), tmp_path)
        assert status == 400 and "letters, digits" in json.loads(raw)["error"], name
    half = {**body, "name": "half", "tricks": [trick[:2]]}
    status, raw = wb.answer(wb.WRITE, json.dumps(half).encode(), tmp_path)
    assert status == 400 and "finish the trick in play" in json.loads(raw)["error"]


@pytest.fixture
def server(tmp_path):
    (tmp_path / "html").mkdir()
    (tmp_path / "html" / "index.html").write_text("<html><body><p>Hand I</p></body></html>", encoding="utf-8")
    srv = PreviewServer(tmp_path, "127.0.0.1", 0, "/whistbook.pdf", pages=wb.page_file,
                        actions={wb.CHECK: lambda body: wb.answer(wb.CHECK, body, tmp_path)}, workbench=wb.PAGE)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield srv
    srv.shutdown()
    srv.server_close()


def _ask(srv, method: str, path: str, body: bytes = b"", headers: dict | None = None) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", srv.server_address[1], timeout=10)
    conn.request(method, path, body=body, headers=headers or {})
    r = conn.getresponse()
    out = r.status, r.read()
    conn.close()
    return out


def test_the_page_is_served_as_it_is_and_linked_from_every_page(server):
    status, body = _ask(server, "GET", wb.PAGE)
    assert status == 200 and b"Deal and play a hand" in body and b"__whistbook/changes" not in body
    assert _ask(server, "GET", wb.PAGE + "/workbench.js")[0] == 200
    assert _ask(server, "GET", wb.PAGE + "/../html/index.html")[0] == 404
    assert f'href="{wb.PAGE}"'.encode() in _ask(server, "GET", "/html/index.html")[1]


def test_its_requests_are_posts_from_its_own_page_only(server, hand):
    port = server.server_address[1]
    body = json.dumps({**hand, "card": hand["deal"]["A"][0]}).encode()
    assert _ask(server, "GET", wb.CHECK)[0] == 404
    assert _ask(server, "POST", wb.CHECK, body)[0] == 403  # no Origin
    assert _ask(server, "POST", wb.CHECK, body, {"Origin": "http://evil.example"})[0] == 403
    assert _ask(server, "POST", wb.CHECK, body, {"Host": "evil.example", "Origin": "http://evil.example"})[0] == 421
    assert _ask(server, "POST", wb.WRITE, body, {"Origin": f"http://127.0.0.1:{port}"})[0] == 404  # not offered
    status, answer = _ask(server, "POST", wb.CHECK, body, {"Origin": f"http://127.0.0.1:{port}"})
    assert status == 200 and json.loads(answer)["ok"] is True
