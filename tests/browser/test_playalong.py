"""The play-along at the table, in a real browser: Hand I steps from an empty table to
the whole deal with the keys, the buttons and a swipe, hides what the known hand
cannot know, asks by the cards of the known hand and remembers, fits a phone's first
screen with targets a thumb can hit, and passes axe-core at both widths."""

from __future__ import annotations

import json
import re

import pytest

#: a browser, a render of Hand I with its analysis: about a minute in all, so with the long sweeps
pytestmark = pytest.mark.slow

HAND_I = "01-trump-lead-on-established-suit.html"
BOSTON = "02-boston-problem.html"
PHONE = {"width": 390, "height": 844}


def visible(page, selector: str) -> int:
    return page.eval_on_selector_all(selector, "els => els.filter(e => e.checkVisibility()).length")


def on_table(page) -> list[str]:
    """The cards in the middle of the table, in the order they were played."""
    return page.eval_on_selector_all(".pa-trick .pa-face", "els => els.sort((a, b) => a.dataset.order - b.dataset.order)"
                                                            ".map(e => e.getAttribute('aria-label'))")


def where(page) -> str:
    return page.locator(".pa-count").inner_text()


def data_of(page) -> dict:
    return json.loads(page.locator("script.playalong-data").text_content())


def test_the_lesson_opens_at_an_empty_table_with_nothing_of_the_hidden_hands(open_page):
    page = open_page(HAND_I)
    assert page.locator(".pa-board").is_visible() and on_table(page) == []
    assert where(page) == "Before the first trick"
    assert page.eval_on_selector_all(".pa-stack", "els => els.map(e => e.textContent)") == ["13", "13", "13"]
    assert visible(page, ".pa-hand .pa-card") == 13
    assert visible(page, ".deal-diagram") == 0 and visible(page, ".result") == 0
    assert visible(page, ".dd") == 0 and visible(page, ".dg-cost") == 0 and visible(page, ".pa-face-up") == 0
    assert "AB take" not in page.inner_text("article")
    assert page.locator(".pa-status").inner_text().startswith("Start of the hand")


def test_the_known_hand_is_in_the_books_order_with_red_suits_red(open_page):
    page = open_page(HAND_I)
    cards = page.eval_on_selector_all(".pa-hand .pa-card", "els => els.map(e => e.dataset.card)")
    assert cards == ["QS", "TS", "5S", "3S", "AH", "AC", "7C", "6C", "3C", "KD", "JD", "9D", "2D"]
    colour = "c => getComputedStyle(c).color"
    assert page.locator('.pa-card[data-card="AH"]').evaluate(colour) == "rgb(179, 32, 42)"
    assert page.locator('.pa-card[data-card="KD"]').evaluate(colour) == "rgb(179, 32, 42)"
    assert page.locator('.pa-card[data-card="AC"]').evaluate(colour) == "rgb(27, 27, 27)"


def test_the_arrow_keys_step_through_the_whole_hand_and_end_shows_the_deal(open_page):
    page = open_page(HAND_I)
    seen = []
    for _ in range(60):
        if page.locator('[data-go="next"]').is_disabled():
            break
        page.keyboard.press("ArrowRight")
        if where(page).startswith("Trick"):
            seen.append(int(where(page).split()[1]))
            assert where(page).endswith(" of 13")
        assert visible(page, ".dg-cost") == 0 and visible(page, ".deal-diagram") == 0 or where(page) == "End of the hand"
    assert seen == sorted(seen) and seen[-1] == 10
    assert where(page) == "End of the hand" and len(on_table(page)) == 4
    assert visible(page, ".deal-diagram") == 1 and visible(page, ".result") == 1 and visible(page, ".pa-face-up") == 3
    assert visible(page, ".dd") == 0  # the end shows the deal, not the analysis
    page.keyboard.press("ArrowLeft")
    assert visible(page, ".deal-diagram") == 0 and visible(page, ".pa-face-up") == 0
    page.keyboard.press("Home")
    assert on_table(page) == [] and where(page) == "Before the first trick"
    page.keyboard.press("End")
    assert where(page) == "End of the hand" and page.evaluate("location.hash") == "#end"


def test_the_buttons_and_a_swipe_step_too(open_page):
    page = open_page(HAND_I, "#trick-2")
    page.locator('[data-go="next"]').click()
    assert where(page) == "Trick 3 of 13"
    swipe = """([dx]) => {
      const b = document.querySelector('.pa-board'), r = b.getBoundingClientRect();
      const x = r.left + r.width / 2, y = r.top + r.height / 3;
      const ev = (type, cx) => b.dispatchEvent(new PointerEvent(type, {clientX: cx, clientY: y, bubbles: true,
                                                                     pointerType: 'touch', isPrimary: true}));
      ev('pointerdown', x); ev('pointermove', x + dx / 2); ev('pointerup', x + dx);
    }"""
    page.evaluate(swipe, [-120])  # to the left: on
    assert where(page) == "Trick 4 of 13"
    page.evaluate(swipe, [120])  # to the right: back
    page.evaluate(swipe, [120])
    assert where(page) == "Trick 2 of 13"
    page.evaluate(swipe, [10])  # a tap is no swipe
    assert where(page) == "Trick 2 of 13"


def test_a_trick_shows_its_cards_and_then_its_remark_and_what_is_known_at_the_seats(open_page):
    page = open_page(HAND_I)
    page.keyboard.press("ArrowRight")  # trick 1, A to lead: the question, no card yet
    assert where(page) == "Trick 1 of 13" and on_table(page) == []
    assert "Your lead" in page.locator(".pa-panel").inner_text()
    assert "Your lead" in page.locator(".pa-status").inner_text()  # the status and the question agree
    assert visible(page, ".pa-card.pa-legal") == 13
    page.keyboard.press("ArrowRight")  # the trick played: its remark, the known hand one card shorter
    assert on_table(page) == ["two of diamonds", "four of diamonds", "queen of diamonds", "ace of diamonds"]
    assert page.locator(".pa-panel .remark").is_visible()
    assert not page.locator('.pa-card[data-card="2D"]').is_visible()
    assert "Trick 1 of 13: A leads two of diamonds" in page.locator(".pa-status").inner_text()
    z = page.locator(".pa-right .pa-info")
    assert z.is_visible() and "2" in z.inner_text() and "spades: two of spades" in z.get_attribute("aria-label")
    # the first question where A follows: the status and the question name the same place
    data = data_of(page)
    n, q = next((n, q) for n, q in sorted(data["play"].items(), key=lambda x: int(x[0])) if q["before"])
    hand = {1: "second", 2: "third", 3: "fourth"}[q["before"]]
    page.goto(page.url.split("#")[0] + f"#trick-{n}-card-{q['before']}")
    assert f"Your turn, {hand} hand" in page.locator(".pa-panel").inner_text()
    assert f"{hand} hand" in page.locator(".pa-status").inner_text()


def test_clicking_a_card_answers_and_answers_are_kept_after_a_reload(open_page):
    page = open_page(HAND_I, "#trick-1-card-0")
    page.locator('.pa-card[data-card="2D"]').click()  # the book's lead
    assert "Right." in page.locator(".pa-panel .pa-feedback").inner_text()
    assert on_table(page)[0] == "two of diamonds"
    page.goto(page.url.split("#")[0] + "#trick-5-card-2")
    assert visible(page, ".pa-card.pa-legal") == 3  # A must follow to spades
    page.locator('.pa-card[data-card="QS"]').click()  # not the ten, the book's finesse
    feedback = page.locator(".pa-panel .pa-feedback").first.inner_text()
    assert "Not the book’s card" in feedback and "the book plays 10♠" in feedback
    page.reload()
    page.keyboard.press("End")
    assert page.locator(".pa-score:not(.pa-score-end)").inner_text() == "Your answers: 1 right of 2"
    assert page.locator(".pa-score-end").inner_text() == "Your answers: 1 right of 2"  # at the end as at the top
    index = page.context.new_page()
    index.goto(page.url.rsplit("/", 1)[0] + "/index.html")
    assert "1 right of 2" in index.locator('[data-lesson-score="01-trump-lead-on-established-suit"]').first.inner_text()


def test_the_seats_do_not_give_away_the_answer_to_what_do_you_know(open_page):
    page = open_page(HAND_I)
    data = data_of(page)
    n = min(int(k) for k in data["know"])
    page.goto(page.url.split("#")[0] + f"#trick-{n}-ask")
    asked = page.locator(".pa-seat .pa-info").all_inner_texts()
    before = data["tricks"][n - 2]["known"] if n > 1 else {}
    assert page.locator(".pa-know .pa-choice").first.is_visible()
    page.locator(".pa-know .pa-choice").first.click()  # answered: the seats now show what trick n told
    after = page.locator(".pa-seat .pa-info").all_inner_texts()
    assert asked != after and data["tricks"][n - 1]["known"] != before


def test_a_question_passed_by_is_noted(open_page):
    page = open_page(HAND_I, "#trick-1-card-0")
    page.keyboard.press("ArrowRight")  # on without answering
    assert "Passed without an answer" in page.locator(".pa-panel .pa-feedback").inner_text()
    assert page.locator(".pa-score").first.inner_text() == "Your answers: 0 right of 0, 1 passed"
    page.keyboard.press("ArrowLeft")  # back at the question, it may still be answered
    page.locator('.pa-card[data-card="2D"]').click()
    assert page.locator(".pa-score").first.inner_text() == "Your answers: 1 right of 1"


def test_a_reader_answers_every_question_of_the_lesson_at_the_table(open_page):
    page = open_page(HAND_I)
    data = data_of(page)
    asked = answered = 0
    for _ in range(80):
        if page.locator(".pa-board.pa-asking").count():
            n = where(page).split()[1]
            page.locator(f'.pa-card[data-card="{data["play"][n]["book"]}"]').click()
            asked += 1
        elif visible(page, ".pa-know .pa-choice"):
            page.locator(".pa-know .pa-choice").first.click()
            answered += 1
        elif page.locator('[data-go="next"]').is_disabled():
            break
        else:
            page.keyboard.press("ArrowRight")
    assert asked == len(data["play"]) >= 4  # only the tricks where the choice matters are asked
    text = page.locator(".pa-score").first.inner_text()
    right, of = map(int, re.match(r"Your answers: (\d+) right of (\d+)", text).groups())
    assert of == asked + answered and right >= asked and "passed" not in text


def test_end_goes_to_the_end_of_the_lesson(context, pages):
    page = context.new_page()
    page.goto((pages / HAND_I).as_uri())
    page.locator('[data-go="end"]').click()
    top = page.locator('.part[data-part="ending"]').evaluate("e => e.getBoundingClientRect().top")
    assert 0 <= top < 200


def test_a_link_to_a_trick_opens_that_moment_and_back_returns(open_page):
    page = open_page(HAND_I, "#trick-5")
    assert where(page) == "Trick 5 of 13" and len(on_table(page)) == 4
    page.keyboard.press("ArrowRight")
    assert where(page) == "Trick 6 of 13"
    page.go_back()
    assert where(page) == "Trick 5 of 13"


def test_card_by_card_stops_at_the_known_hands_turn(open_page):
    page = open_page(HAND_I, "#trick-1")
    data = data_of(page)
    n, q = next((n, q) for n, q in sorted(data["play"].items(), key=lambda x: int(x[0])) if q["before"])
    page.goto(page.url.split("#")[0] + f"#trick-{int(n) - 1}")
    page.check(".pa-by-card")
    for _ in range(q["before"]):  # the next trick, a card at a time, up to A's turn
        page.keyboard.press("ArrowRight")
    before = data["tricks"][int(n) - 1]["plays"][:q["before"]]
    assert on_table(page) == [data["cards"][c][1] for _, c in before]
    assert page.locator(".pa-board.pa-asking").count() == 1


def test_read_as_a_page_shows_the_whole_lesson_and_back(open_page):
    page = open_page(HAND_I, "#trick-3")
    page.locator('[data-go="page"]').click()
    assert visible(page, "section.trick[data-trick]") == 10 and not page.locator(".pa-board").is_visible()
    page.locator('[data-go="page"]').click()
    assert page.locator(".pa-board").is_visible() and where(page) == "Trick 3 of 13"


def test_double_dummy_analysis_shows_only_when_asked_for(open_page):
    page = open_page(HAND_I, "#end")
    assert visible(page, ".dg-cost") == 0 and visible(page, ".dd") == 0
    page.check(".dd-toggle")
    assert "AB take" in page.inner_text("article")


def test_without_scripts_the_page_is_the_whole_lesson(browser, pages):
    ctx = browser.new_context(java_script_enabled=False)
    page = ctx.new_page()
    page.goto((pages / HAND_I).as_uri())
    assert visible(page, "section.trick[data-trick]") == 10
    assert visible(page, ".deal-diagram") == 1 and not page.locator(".playalong").is_visible()
    assert visible(page, ".dd") == 0  # still only on request: the checkbox works without a script
    page.check(".dd-toggle")
    assert visible(page, ".dd") > 0
    ctx.close()


def test_a_problem_opens_with_the_position_and_the_task_only(open_page):
    page = open_page(BOSTON)
    text = page.inner_text("article")
    assert "Task" in text and "squeeze" not in text.lower()
    assert visible(page, ".solution") == 0 and visible(page, ".verdict") == 0
    page.locator(".solution-fold > summary", has_text="Solution 1").click()
    assert visible(page, ".solution") == 1


# --- a phone ------------------------------------------------------------------------------------

@pytest.fixture
def phone(browser, pages):
    ctx = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    ctx.close()
    assert not errors, errors


def bottom(page, selector: str) -> float:
    return page.eval_on_selector_all(selector, "els => Math.max(...els.filter(e => e.checkVisibility())"
                                               ".map(e => e.getBoundingClientRect().bottom))")


def test_a_phones_first_screen_holds_the_hand_the_table_and_the_controls(phone, pages):
    for fragment in ("", "#trick-5-card-2"):
        phone.goto((pages / HAND_I).as_uri() + fragment)
        phone.evaluate("window.scrollTo(0, 0)")
        for part in (".pa-board", ".pa-hand .pa-card", '[data-go="start"]', '[data-go="prev"]', '[data-go="next"]',
                     '[data-go="end"]', '[data-go="hands"]'):
            assert bottom(phone, part) <= PHONE["height"], (fragment, part)


def test_every_control_is_at_least_44_px_each_way(phone, pages):
    phone.goto((pages / HAND_I).as_uri() + "#trick-5-card-2")
    controls = ".playalong button, .playalong summary, .pa-option, .dd-switch label, .pa-choice"
    sizes = phone.eval_on_selector_all(controls, "els => els.filter(e => e.checkVisibility()).map(e => "
                                                 "[e.className || e.tagName, e.getBoundingClientRect().width, "
                                                 "e.getBoundingClientRect().height])")
    assert len(sizes) >= 15
    small = [s for s in sizes if s[1] < 44 or s[2] < 44]
    assert not small, small


def test_the_explanation_folds_away_after_the_first_reading(phone, pages):
    phone.goto((pages / HAND_I).as_uri())
    assert phone.locator(".pa-help").evaluate("d => d.open")
    phone.reload()
    assert not phone.locator(".pa-help").evaluate("d => d.open")


# --- the judged play questions (the single-dummy contract) ---------------------------------------

def _with_judged_questions(pages, tmp_path):
    """Hand I's page with trick 5's question judged as the single-dummy contract has it:
    the ten right with its equal, the five sound, the queen lucky, a loss for each card."""
    text = (pages / HAND_I).read_text(encoding="utf-8")
    pattern = re.compile(r'(<script type="application/json" class="playalong-data">)(.*?)(</script>)', re.S)
    data = json.loads(pattern.search(text).group(2))
    q = data["play"]["5"]
    q.update(right=["TS"], sound=["5S"], lucky=["QS"], loss={"TS": 0.0, "5S": 0.1, "QS": 0.45},
             rule={"title": "Finesse against the card led through", "page": "93"})
    data["play"]["2"] = {"before": 1, "legal": ["AC", "7C", "6C", "3C"], "book": "3C", "analysed": True,
                         "right": ["3C"], "sound": [], "lucky": [],
                         "loss": {"3C": 0, "AC": 0.5, "7C": 0.02, "6C": 0.02}, "rule": None}
    for c in ("AC", "7C", "6C", "3C"):
        assert c in data["cards"]
    data["tricks"][4]["verdict"] = {"tier": "good", "loss": 0.0, "follows_principle": True}
    data["tricks"][1]["verdict"] = {"tier": "mistake", "loss": 0.7, "follows_principle": False}
    js = json.dumps(data, ensure_ascii=False).replace("<", "\\u003c")
    out = tmp_path / HAND_I
    out.write_text(pattern.sub(lambda m: m.group(1) + js + m.group(3), text), encoding="utf-8")
    (tmp_path / "whistbook.js").write_text((pages / "whistbook.js").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "whistbook.css").write_text((pages / "whistbook.css").read_text(encoding="utf-8"), encoding="utf-8")
    return out


@pytest.mark.parametrize("card, mark, words, counted", [
    ("TS", "Right.", "The principle: Finesse against the card led through (p. 93).", True),
    ("5S", "Sound.", "within a little of the best play", True),
    ("QS", "Lucky.", "only because of how the cards lay", False),
])
def test_the_judged_contract_grades_right_sound_and_lucky(context, pages, tmp_path, card, mark, words, counted):
    page = context.new_page()
    page.goto(_with_judged_questions(pages, tmp_path).as_uri() + "#trick-5-card-2")
    page.locator(f'.pa-card[data-card="{card}"]').click()
    feedback = page.locator(".pa-panel .pa-feedback").first.inner_text()
    assert feedback.startswith(mark) and words in feedback
    assert page.locator(".pa-score").first.inner_text() == f"Your answers: {int(counted)} right of 1"
    assert "Judged on what A could see, A’s 10♠ was a good card." in page.locator(".pa-panel").inner_text()


def test_the_judged_contract_says_what_a_wrong_card_costs(context, pages, tmp_path):
    page = context.new_page()
    page.goto(_with_judged_questions(pages, tmp_path).as_uri() + "#trick-2-card-1")
    page.locator('.pa-card[data-card="AC"]').click()
    feedback = page.locator(".pa-panel .pa-feedback").first.inner_text()
    assert "Not the book’s card" in feedback and "It costs about half a trick on average." in feedback
    assert "was a mistake: it gives up about two-thirds of a trick on average." in page.locator(".pa-panel").inner_text()


# --- axe ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("name, fragment", [(HAND_I, ""), (HAND_I, "#trick-5-card-2"), (HAND_I, "#trick-5"),
                                            (HAND_I, "#end"), (BOSTON, "")])
def test_axe_finds_no_serious_violation(browser, pages, name, fragment, width):
    from axe_playwright_python.sync_playwright import Axe

    ctx = browser.new_context(viewport={"width": width, "height": 900})
    page = ctx.new_page()
    page.goto((pages / name).as_uri() + fragment)
    if fragment == "#end":
        page.check(".dd-toggle")
    for summary in page.locator(".solution-fold > summary").all():
        summary.click()
    violations = Axe().run(page).response["violations"]
    ctx.close()
    bad = [(v["id"], v["impact"], len(v["nodes"])) for v in violations if v["impact"] in ("serious", "critical")]
    assert not bad, bad


# --- the site ------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def site_page(tmp_path_factory):
    """Hand I's page on the site (the site alone, built with ProperDocs)."""
    from render_support import ROOT, lesson

    from whistbook.inference import RULES
    from whistbook.render.context import RenderOptions
    from whistbook.render.environment import make_environment
    from whistbook.render.site import build_site, render_site_sources

    env = make_environment(None, rules=RULES)
    sources = render_site_sources([lesson(analysis=True)], env, options=RenderOptions(medium="site"))
    tmp = tmp_path_factory.mktemp("site")
    build_site(sources, tmp / "src", tmp / "theme", tmp / "site", config_file=ROOT / "mkdocs.yml")
    return tmp / "site" / "lessons" / HAND_I


def test_the_site_lesson_plays_along_at_the_table_too(browser, site_page):
    for viewport in ({"width": 1280, "height": 900}, PHONE):
        ctx = browser.new_context(viewport=viewport)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(site_page.as_uri())
        assert page.locator(".pa-board").is_visible() and on_table(page) == []
        assert visible(page, ".deal-diagram") == 0 and visible(page, ".dd") == 0 and visible(page, ".dg-cost") == 0
        assert not page.get_by_role("heading", name="The hands").is_visible()
        assert bottom(page, '[data-go="next"]') <= viewport["height"]
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        assert where(page) == "Trick 1 of 13" and len(on_table(page)) == 4
        page.keyboard.press("End")
        assert where(page) == "End of the hand" and visible(page, ".deal-diagram") == 1
        assert page.get_by_role("heading", name="The hands").is_visible()
        ctx.close()
        assert not errors, errors
