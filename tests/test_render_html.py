"""Lesson pages: what a lesson shows, in the book's order, and nothing from outside."""

from __future__ import annotations

import re

import pytest

from whistbook.lesson import build_lesson, themes_of
from whistbook.render.context import RenderOptions
from whistbook.render.environment import make_environment
from whistbook.render.html import render_html, render_lesson

from render_support import (BOSTON, CSS_EXTERNAL, EXTERNAL, checked, checked_text, hand_i_played_out,
                            hand_i_text, lesson)


@pytest.fixture(scope="module")
def env():
    from whistbook.inference import RULES

    return make_environment(None, rules=RULES)


@pytest.fixture(scope="module")
def page(env) -> str:
    return render_lesson(lesson(analysis=True), env)


def test_a_diagram_per_shown_trick_in_order(page):
    shown = [t for t in checked().replay.tricks if t.shown]
    assert page.count('class="trick-svg"') == len(shown) == 10
    numbers = [int(n) for n in re.findall(r'<section class="trick[^"]*" id="trick-(\d+)"', page)]
    assert numbers == list(range(1, 11))


def test_the_diagram_puts_the_known_hand_at_the_foot_and_marks_leader_and_winner(page):
    first = page[page.index('id="trick-1"'):page.index('id="trick-2"')]
    svg = first[first.index("<svg"):first.index("</svg>")]
    # A (the known hand) is at the foot: his 2♦ is drawn lowest, B's queen highest
    ys = {card: float(y) for y, card in re.findall(r'<text x="[\d.]+" y="([\d.]+)"[^>]*dg-card[^>]*>([^<]+)<', svg)}
    assert ys["2♦"] > ys["4♦"] > ys["Q♦"] and ys["A♦"] == ys["4♦"]
    assert "↷A" in svg  # A led
    assert 'class="dg-winner"' in svg  # Z's ace is boxed
    assert "Tricks\u2002AB\u00a00\u2003YZ\u00a01" in svg


def test_the_lesson_holds_the_books_parts_in_order(page):
    order = ["lesson-title", "Four trumps led once the long suit is made", "A’s hand", "Love-all", "Turned up",
             'id="trick-1"', 'id="trick-10"', "Tricks 11 to 13", "Whatever B leads", "The hands",
             "AB win three by cards", "Score after the hand"]
    main = page[page.index("<main"):]
    at = [main.index(s) for s in order]
    assert at == sorted(at), dict(zip(order, at))


def test_remarks_are_markdown_with_cards_and_page_links(page):
    assert "Diamonds are A’s strongest suit" in page
    assert 'href="principles.html#rule-lead_strongest_suit"' in page


def test_whats_new_is_one_line_per_seat_each_clause_linked_to_its_rule(page):
    trick1 = page[page.index('id="trick-1"'):page.index('id="trick-2"')]
    lines = re.findall(r'<p class="news-line">(.*?)</p>', trick1)
    assert len(lines) == 2  # Z and Y, one line each
    assert re.search(r'Z</span>: <a class="rule-ref news-certain" href="principles.html#rule-turn_up_card"[^>]*>'
                     r'holds the turn-up <span class="card suit-spades"[^>]*>2♠</span></a>', lines[0])
    assert re.search(r'Y</span>: <a class="rule-ref news-presumed"[^>]*>presumably no '
                     r'<span class="card suit-diamonds"[^>]*>3♦</span></a>', lines[1])


def test_the_picture_of_what_is_known_shows_the_unseen_hands_suit_by_suit(page):
    trick1 = page[page.index('id="trick-1"'):page.index('id="trick-2"')]
    table = trick1[trick1.index('<table class="known">'):trick1.index("</table>")]
    assert "What you know after trick 1" in table
    assert [re.sub("<[^>]+>", "", r) for r in re.findall(r'<th scope="row">(.*?)</th>', table)] == [
        "Player Y", "Player B", "Player Z"]
    # Z holds the turn-up 2♠: a certain card in Z's spades
    z = table[table.index("Player </span>Z"):]
    assert 'aria-label="two">2</span>' in z.split("</tr>")[0]


def test_double_dummy_marks_are_labelled(page):
    assert 'class="dg-cost"' in page and "Double-dummy" in page
    assert "cost one trick" in page


def test_analysis_can_be_left_out(env):
    off = render_lesson(lesson(analysis=True), env, options=RenderOptions(analysis=False))
    assert "dg-cost" not in off and "cost one trick" not in off


def test_suits_carry_their_symbol_and_a_suit_class(page):
    assert re.search(r'<span class="card suit-spades"[^>]*>2♠</span>', page)  # the turn-up
    assert 'class="suit-row suit-hearts"' in page


def test_four_colour_option(env):
    two = render_lesson(lesson(), env)
    four = render_lesson(lesson(), env, options=RenderOptions(four_colour=True))
    assert 'class="four-colour"' in four and "four-colour" not in two
    assert "#1d55a5" in four and "#1d55a5" not in two  # blue diamonds in the diagrams


def test_ending_written_out_is_listed_compactly(env):
    ch = checked_text(hand_i_played_out())
    html = render_lesson(build_lesson(ch), env)
    table = html[html.index('class="compact-tricks"'):]
    assert len(re.findall(r'<tr id="trick-1[123]"><td>', table)) == 3
    assert "The last diamond is good." in table
    assert "Tricks 11 to 13" in html
    assert html.count('class="trick-svg"') == 10


def test_errata_are_shown(env):
    text = hand_i_text(**{"result:": "result: AB win three by cards\nerrata:\n  - trick: 5\n    printed: 8S\n"
                                    "    used: 9S\n    reason: The card printed is already played."})
    html = render_lesson(build_lesson(checked_text(text)), env)
    errata = html[html.index("Corrections to the printed hand"):]
    assert 'href="#trick-5"' in errata and "already played" in errata
    assert ">8S<" in errata or "8S" in errata


def test_problem_page(env):
    html = render_lesson(lesson(BOSTON, inference=False), env)
    assert "Task" in html and "A and B to take all thirteen tricks" in html
    assert len(re.findall(r'<section class="solution', html)) == len(checked(BOSTON).hand.solutions)
    assert "verdict-sound" in html and "verdict-unsound" in html
    assert 'class="deal-svg"' in html


def test_the_html_set_is_complete_and_local(env):
    from whistbook.inference import RULES

    pages = render_html([lesson(), lesson(BOSTON, inference=False)], env, rules=RULES)
    assert set(pages) >= {"cavendish-01-trump-lead-on-established-suit.html".replace("cavendish-", ""),
                          "index.html", "principles.html", "glossary.html", "whistbook.css"} - {""}
    for name, text in pages.items():
        assert not EXTERNAL.search(text), name
        assert not CSS_EXTERNAL.search(text), name
    principles = pages["principles.html"]
    assert all(f'id="rule-{rule_id}"' in principles for rule_id in RULES)


def test_lessons_are_grouped_by_theme():
    assert [t.slug for t in themes_of(["leads", "trumps", "second-hand"])] == ["leads", "second-and-third-hand", "trumps"]
    assert themes_of(["playing-to-the-score"]) == ()


def test_one_lesson_renders_quickly(env):
    import time

    ls = lesson(analysis=True)
    render_lesson(ls, env)
    start = time.perf_counter()
    render_lesson(ls, env)
    assert time.perf_counter() - start < 0.5  # the benchmark holds the real figure (under 100 ms)


def test_editor_notes_are_set_apart_from_the_books_remarks(env):
    text = hand_i_text(**{"    remark: A takes the finesse": "    remark: A finesses.\n    note: Ours, not the book's.",
                          "ending:": "ending:\n  note: The claim is ours too."})
    html = render_lesson(build_lesson(checked_text(text)), env)
    trick = html[html.index('id="trick-5"'):html.index('id="trick-6"')]
    remark, note = trick.index('class="remark"'), trick.index('class="editor-note"')
    assert remark < note and "Ours, not the book" in trick[note:]
    assert "Editor’s note" in trick[note:]
    ending = html[html.index('class="ending"'):]
    assert 'class="editor-note"' in ending and "The claim is ours too." in ending


def test_the_leaders_label_stays_inside_the_diagram():
    """Hand X trick 1 and Hand XXIII trick 2: the leader sits right of a ten, whose label ran off the edge."""
    import xml.etree.ElementTree as ET

    from render_support import HANDS
    from whistbook.render.diagrams import WIDTH, _label_width, trick_svg

    for pattern, number in (("10-*.yaml", 1), ("23-*.yaml", 2)):
        hand = lesson(next(iter(sorted((HANDS / "cavendish").glob(pattern)))), inference=False)
        svg = ET.fromstring(trick_svg(next(t for t in hand.tricks if t.number == number), analysis=True))
        for label in svg.iter("text"):
            if "dg-seat" in label.get("class", ""):
                x, anchor = float(label.get("x")), label.get("text-anchor")
                left = x - (_label_width(label.text) if anchor == "end" else 0)
                assert 0 <= left and left + _label_width(label.text) <= WIDTH, (pattern, label.text, x)


def test_the_booklet_draws_what_is_known_as_svg_and_the_page_as_a_table(env):
    from whistbook.render.diagrams import known_svg

    l = lesson()
    t = l.tricks[2]
    svg = known_svg(t)
    assert svg.startswith("<svg") and 'aria-label="What you know after trick 3: player Y:' in svg
    # the same holdings as the page's table: B's hearts after trick 3 (0-6), Z's clubs (3-4)
    assert "0–6" in svg and "3–4" in svg
    page = render_lesson(l, env)
    assert '<table class="known">' in page and "known-svg" not in page


def test_the_print_stylesheet_knows_the_trick_diagrams_proportions():
    """The booklet makes a trick's notes at least as tall as its diagram
    (0.71 of its width) rather than floating the diagram: the factor must be
    the drawing's own."""
    from whistbook.render.diagrams import HEIGHT, WIDTH
    from whistbook.render.environment import template_source

    css = template_source(make_environment(None), "css/print.css")
    assert re.search(r"min-height: calc\(var\(--trick-width\) \* 0\.71\)", css)
    assert round(HEIGHT / WIDTH, 2) == 0.71


def test_the_editors_working_notes_are_printed_nowhere(env):
    """A file's `notes` (how the source was read: OCR, seeds, the checker) is for
    editors: the Boston problem's are long, and not a word of them reaches its page."""
    boston = lesson(BOSTON, inference=False)
    notes = checked(BOSTON).hand.notes
    assert notes and "OCR" in notes
    page = render_lesson(boston, env)
    assert "OCR" not in page and "Editorial notes" not in page
    assert "the small cards its solutions leave out are the editor" in page  # what a reader should know
