"""The play-along in a real browser: Hand I steps from an empty table to the whole deal,
hides what the known hand cannot know, asks and remembers, and passes axe-core."""

from __future__ import annotations

import pytest

#: a browser, a render of Hand I with its analysis: about half a minute in all, so with the long sweeps
pytestmark = pytest.mark.slow

HAND_I = "01-trump-lead-on-established-suit.html"
BOSTON = "02-boston-problem.html"


def visible_tricks(page) -> list[int]:
    return [int(n) for n in page.eval_on_selector_all(
        "section.trick[data-trick]", "els => els.filter(e => e.checkVisibility()).map(e => e.dataset.trick)")]


def cards_drawn(page, trick: int) -> int:
    """Cards drawn in a trick's diagram (SVG groups are hidden by their display)."""
    return page.eval_on_selector_all(
        f"#trick-{trick} .dg-play", "els => els.filter(e => getComputedStyle(e).display !== 'none' && "
        "e.closest('section').checkVisibility()).length")


def visible(page, selector: str) -> int:
    return page.eval_on_selector_all(selector, "els => els.filter(e => e.checkVisibility()).length")


def test_the_lesson_opens_at_the_start_with_nothing_of_the_hidden_hands(open_page):
    page = open_page(HAND_I)
    assert page.locator(".playalong").is_visible()
    assert len(visible_tricks(page)) <= 1
    assert visible(page, ".deal-diagram") == 0 and visible(page, ".result") == 0
    assert visible(page, ".dd") == 0 and visible(page, ".dg-cost") == 0
    assert page.eval_on_selector_all(".dg-cost", "els => els.every(e => getComputedStyle(e).display === 'none')")
    assert "AB take" not in page.inner_text("article")
    assert page.locator(".pa-status").inner_text().startswith("Start of the hand")


def test_the_arrow_keys_step_through_the_whole_hand_and_end_shows_the_deal(open_page):
    page = open_page(HAND_I)
    seen = []
    for _ in range(60):
        if page.locator('[data-go="next"]').is_disabled():
            break
        page.keyboard.press("ArrowRight")
        shown = visible_tricks(page)
        seen.append(max(shown, default=0))
        assert shown == list(range(1, len(shown) + 1))  # the tricks so far, none ahead
        assert visible(page, ".dg-cost") == 0
    assert seen == sorted(seen) and seen[-1] == 10
    assert visible_tricks(page) == list(range(1, 11))
    assert visible(page, ".deal-diagram") == 1 and visible(page, ".result") == 1
    assert visible(page, ".dd") == 0  # the end shows the deal, not the analysis
    page.keyboard.press("ArrowLeft")
    assert visible(page, ".deal-diagram") == 0
    page.keyboard.press("Home")
    assert visible_tricks(page) == []
    page.keyboard.press("End")
    assert visible_tricks(page) == list(range(1, 11)) and page.evaluate("location.hash") == "#end"


def test_a_trick_hides_its_notes_and_the_cards_to_come_until_it_is_played(open_page):
    page = open_page(HAND_I)
    page.keyboard.press("ArrowRight")  # trick 1, A to lead: the question, no card yet
    trick1 = page.locator("#trick-1")
    assert trick1.locator(".pa-quiz").is_visible() and "What would you lead?" in trick1.inner_text()
    assert cards_drawn(page, 1) == 0 and visible(page, "#trick-1 .trick-notes") == 0
    page.keyboard.press("ArrowRight")  # the trick played: its notes and the known hand one card shorter
    assert cards_drawn(page, 1) == 4 and trick1.locator(".remark").is_visible()
    assert not page.locator('.pa-card[data-card="2D"]').is_visible()
    assert page.locator('.pa-card[data-card="KD"]').is_visible()
    assert "Trick 1: A leads two of diamonds" in page.locator(".pa-status").inner_text()


def test_card_by_card_stops_at_the_known_hands_turn(open_page):
    page = open_page(HAND_I, "#trick-1")
    page.check(".pa-by-card")
    page.keyboard.press("ArrowRight")  # trick 2: Y leads, then A's turn
    assert cards_drawn(page, 2) == 1
    assert "What would you play?" in page.locator("#trick-2").inner_text()


def test_answers_are_marked_and_kept_after_a_reload(open_page):
    page = open_page(HAND_I, "#trick-1-card-0")
    page.locator('#trick-1 .pa-choice[aria-label="two of diamonds"]').click()  # the book's lead
    assert "Right." in page.locator("#trick-1 .pa-feedback").inner_text()
    page.goto(page.url.split("#")[0] + "#trick-5-card-2")
    page.locator('#trick-5 .pa-choice[aria-label="queen of spades"]').click()  # not the ten, the book's finesse
    feedback = page.locator("#trick-5 .pa-feedback").inner_text()
    assert "Not the book’s choice" in feedback and "the book plays 10♠" in feedback
    page.reload()
    page.keyboard.press("End")
    assert page.locator(".pa-score").inner_text() == "Your answers: 1 right of 2"
    assert "Right." in page.locator("#trick-1 .pa-feedback").inner_text()
    index = page.context.new_page()
    index.goto(page.url.rsplit("/", 1)[0] + "/index.html")
    assert "1 right of 2" in index.locator('[data-lesson-score="01-trump-lead-on-established-suit"]').first.inner_text()


def test_a_link_to_a_trick_opens_that_moment_and_back_returns(open_page):
    page = open_page(HAND_I, "#trick-5")
    assert visible_tricks(page) == [1, 2, 3, 4, 5]
    page.keyboard.press("ArrowRight")
    assert 6 in visible_tricks(page) or visible(page, "#trick-6 .pa-quiz") == 1
    page.go_back()
    assert visible_tricks(page) == [1, 2, 3, 4, 5]


def test_double_dummy_analysis_shows_only_when_asked_for(open_page):
    page = open_page(HAND_I, "#end")
    assert visible(page, ".dg-cost") == 0 and visible(page, ".dd") == 0
    page.check(".dd-toggle")
    assert visible(page, ".dg-cost") > 0 and "AB take" in page.inner_text("article")
    labels = page.eval_on_selector_all("svg[data-dd-label]", "els => els.map(e => e.getAttribute('aria-label'))")
    assert labels and all("double-dummy" in label for label in labels)


def test_without_scripts_the_page_is_the_whole_lesson(browser, pages):
    ctx = browser.new_context(java_script_enabled=False)
    page = ctx.new_page()
    page.goto((pages / HAND_I).as_uri())
    assert visible_tricks(page) == list(range(1, 11))
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


@pytest.mark.parametrize("name, fragment", [(HAND_I, ""), (HAND_I, "#trick-5-card-2"), (HAND_I, "#end"),
                                            (BOSTON, "")])
def test_axe_finds_no_serious_violation(open_page, name, fragment):
    from axe_playwright_python.sync_playwright import Axe

    page = open_page(name, fragment)
    if fragment == "#end":
        page.check(".dd-toggle")
    for summary in page.locator(".solution-fold > summary").all():
        summary.click()
    violations = Axe().run(page).response["violations"]
    bad = [(v["id"], v["impact"], len(v["nodes"])) for v in violations if v["impact"] in ("serious", "critical")]
    assert not bad, bad


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


def test_the_site_lesson_plays_along_too(context, site_page):
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(site_page.as_uri())
    assert page.locator(".playalong").is_visible()
    assert len(visible_tricks(page)) <= 1
    assert visible(page, ".deal-diagram") == 0 and visible(page, ".dd") == 0 and visible(page, ".dg-cost") == 0
    assert not page.get_by_role("heading", name="The hands").is_visible()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert visible_tricks(page) == [1]
    page.keyboard.press("End")
    assert visible_tricks(page) == list(range(1, 11)) and visible(page, ".deal-diagram") == 1
    assert page.get_by_role("heading", name="The hands").is_visible()
    assert not errors, errors
