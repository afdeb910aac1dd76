"""The site: generated Markdown pages grouped by theme, principles and glossary,
built by ProperDocs in strict mode, with nothing loaded from outside."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from whistbook.render.context import RenderOptions
from whistbook.render.environment import make_environment
from whistbook.cards import RANK_NAMES, Card, Suit
from whistbook.lesson import Lesson, build_lesson
from whistbook.render.site import SEARCH_META, build_site, render_site_sources, search_text, with_offline_search
from whistbook.render.site_search import with_entries

from render_support import BOSTON, CSS_EXTERNAL, EXTERNAL, HANDS, ROOT, checked, checked_text, hand_i_text, lesson


_RANK = r"(?:10|[2-9TJQKA])"
_SUITS = {"♠": Suit.SPADES, "♥": Suit.HEARTS, "♦": Suit.DIAMONDS, "♣": Suit.CLUBS,
          "spades": Suit.SPADES, "hearts": Suit.HEARTS, "diamonds": Suit.DIAMONDS, "clubs": Suit.CLUBS}
_RANKS = {"T": 10, "10": 10, "J": 11, "Q": 12, "K": 13, "A": 14, **{str(n): n for n in range(2, 10)}}


def cards_named(text: str) -> set[Card]:
    """Every card ``text`` writes as the pages write cards: one card (``Q♥``) or a
    suit's cards after its symbol or name, up to a stop or the next suit
    (``♥ K Q 6 5 ♦``, ``hearts K Q 6 5,``; not "spades A cannot see", where A is the player)."""
    found = {Card(_SUITS[s], _RANKS[r]) for r, s in re.findall(rf"\b({_RANK})([♠♥♦♣])", text)}
    suit = r"[♠♥♦♣]|spades|hearts|diamonds|clubs"
    for suit, ranks in re.findall(rf"({suit})((?:\s+{_RANK}\b)+)(?=\s*(?:[,;.]|$|{suit}))", text):
        found |= {Card(_SUITS[suit], _RANKS[r]) for r in ranks.split()}
    return found


def unseen(lesson: Lesson) -> set[Card]:
    """The cards of the deal that the known hand cannot see before the play: the others' but the turn-up."""
    return {c for h in lesson.deal if not h.known for s in h.suits for c in s.cards} - {lesson.turn_up}


def page_text(markdown: str) -> str:
    """A page's text as the search plugin used to index it: the tags taken away."""
    return re.sub(r"<[^>]+>", " ", markdown.split("\n---\n", 1)[-1])


@pytest.fixture(scope="module")
def sources():
    from whistbook.inference import RULES

    env = make_environment(None, rules=RULES)
    return render_site_sources([lesson(analysis=True), lesson(BOSTON, inference=False)], env,
                               options=RenderOptions(medium="site"))


def test_pages_for_lessons_themes_principles_and_glossary(sources):
    from whistbook.inference import RULES

    docs = sources.docs
    assert "lessons/01-trump-lead-on-established-suit.md" in docs
    assert "lessons/02-boston-problem.md" in docs
    assert {"themes/leads.md", "themes/second-and-third-hand.md", "themes/trumps.md"} <= set(docs)
    assert all(f'id="rule-{rule_id}"' in docs["principles.md"] for rule_id in RULES)
    assert "**Tenace**" in docs["glossary.md"]
    page = docs["lessons/01-trump-lead-on-established-suit.md"]
    assert page.startswith(f"---\n{SEARCH_META}: ") and "\n---\n\n# Hand I\n" in page
    assert "\n## The play\n" in page and "\n## The hands\n" in page
    assert page.count('class="trick-svg"') == 10
    assert 'href="../principles.html#rule-' in page
    nav = [next(iter(item)) for item in sources.nav]
    assert nav == ["Home", "Leads", "Second and third hand", "Trumps", "Problems", "Reference"]


def test_the_navigation_lists_each_hand_once_under_its_main_theme(sources):
    # Hand I is tagged leads, trumps, second-hand: its first tag makes it a lesson on leads
    nav = {next(iter(item)): next(iter(item.values())) for item in sources.nav}
    assert nav["Leads"] == ["themes/leads.md", {"Hand I": "lessons/01-trump-lead-on-established-suit.md"}]
    # themes it touches only in passing keep their overview page, which lists it
    assert nav["Trumps"] == "themes/trumps.md"
    assert "lessons/01-trump-lead-on-established-suit.md" in sources.docs["themes/trumps.md"]
    listed = re.findall(r"lessons/[\w-]+\.md", str(sources.nav))
    assert sorted(listed) == sorted(set(listed)) == sorted(p for p in sources.docs if p.startswith("lessons/"))


def test_a_search_entry_names_no_card_the_known_hand_cannot_see(sources):
    from whistbook.inference import RULES

    env = make_environment(None, rules=RULES)
    hand_i = lesson(analysis=True)
    entry = search_text(hand_i, env)
    hidden = unseen(hand_i)
    assert len(hidden) == 38  # 39 cards in the other hands, less the turn-up (Z's 2♠)
    assert not cards_named(entry) & hidden
    # what the reader may see is there: the known hand, the turn-up, the words of the remarks
    assert cards_named(entry) == {c for s in hand_i.known_hand.suits for c in s.cards} | {hand_i.turn_up}
    assert entry.startswith("Hand I. Four trumps led once the long suit is made.")
    assert "Score: Love-all. Turned up: 2♠ by Z" in entry and "A takes the finesse with the ten" in entry
    assert "AB win three by cards" not in entry  # the result waits for the end
    # the page itself names them (all but Z's clubs, the last list, which runs into the words after
    # it): the search plugin indexed that text before, and this test then failed
    page = page_text(sources.docs["lessons/01-trump-lead-on-established-suit.md"])
    assert len(cards_named(page) & hidden) >= 30  # 37 of 38 when written


@pytest.mark.slow
def test_no_lesson_of_the_corpus_names_an_unseen_card_in_its_search_entry():
    from whistbook.corpus import find_hand_files

    env = make_environment(None)
    lessons = [build_lesson(checked(Path(f))) for f in find_hand_files([str(HANDS)])]
    hands = [l for l in lessons if l.kind == "hand"]
    assert len(hands) >= 45
    for ls in hands:
        entry = search_text(ls, env)
        assert entry.startswith(ls.title) and not cards_named(entry) & unseen(ls), ls.title
        # the unseen cards' names in words, spelt out here rather than read with
        # the site's own pattern, so that a form the pattern misses is caught
        words = " ".join(entry.lower().split())
        for card in unseen(ls):
            ranks = [RANK_NAMES[card.rank]] + (["jack"] if card.rank == 11 else [])
            suits = [card.suit.plural.lower()] + (["trumps"] if card.suit == ls.trumps else [])
            named = [f"{r} of {s}" for r in ranks for s in suits if re.search(rf"\b{r} of {s}\b", words)]
            assert not named, (ls.title, named)


def _entry_with(remark: str) -> tuple[Lesson, str]:
    """Hand I with its first remark replaced (``remark`` follows ``remark: ``), and its search entry."""
    from whistbook.inference import RULES

    text = hand_i_text(**{"    remark: A takes the finesse": "    remark: " + remark})
    ls = build_lesson(checked_text(text), rules=RULES)
    return ls, search_text(ls, make_environment(None, rules=RULES))


def test_a_remark_naming_a_hidden_card_keeps_its_words_and_loses_the_card():
    ls, entry = _entry_with("A finesses the {10S}, though B holds {KH} and Z {AD}; the {2S} was turned up."
                            "\n    note: Z's K♣ stays hidden.")
    assert "A finesses the 10♠, though B holds … and Z …; the 2♠ was turned up." in entry
    assert "Editor’s note: Z’s … stays hidden." in entry
    assert not cards_named(entry) & unseen(ls)


def test_a_card_named_in_words_is_masked_unless_the_known_hand_can_see_it():
    # Hand I: A holds the ace of hearts, B the king and queen; Z turned up the two of spades
    _, entry = _entry_with("A keeps the Ace of hearts, while the queen of hearts and the knave of trumps are out;"
                           " the two of trumps was turned up.\n    note: A finesse")
    assert ("A keeps the Ace of hearts, while the … and the … are out; the two of trumps was turned up."
            in entry)


def test_a_card_named_in_words_is_masked_through_emphasis():
    _, entry = _entry_with("B still holds the **queen** of hearts.\n    note: A finesse")
    assert "B still holds the …. " in entry


def test_a_problems_search_entry_leaves_out_its_idea_and_solutions(sources):
    from whistbook.inference import RULES

    boston = lesson(BOSTON, inference=False)
    entry = search_text(boston, make_environment(None, rules=RULES))
    assert entry == ("The Boston Double-Dummy Problem. Dick's Hand-Book of Whist (New York, 1884), double-dummy "
                     "problems; the book's No. 1 to No. 4 are A, Y, B and Z here, and the small cards its solutions leave "
                     "out are the editor's. A and B to take all thirteen tricks, whatever Y and Z do")
    assert "squeeze" not in entry.lower() and "squeeze" in boston.theme.lower()


def test_the_index_keeps_one_record_for_a_page_with_its_own_entry():
    data = {"config": {"lang": ["en"]}, "index": {"prebuilt": "the whole text"}, "docs": [
        {"location": "index.html", "title": "Home", "text": "welcome"},
        {"location": "lessons/a.html", "title": "Hand I", "text": "everything, the deal too"},
        {"location": "lessons/a.html#the-hands", "title": "The hands", "text": "the deal"},
        {"location": "glossary.html", "title": "Glossary", "text": "tenace"},
    ]}
    safe = {"location": "lessons/a.html", "title": "Hand I", "text": "safe"}
    out = with_entries(data, {"lessons/a.html": safe})
    assert out == {"config": {"lang": ["en"]}, "docs": [data["docs"][0], safe, data["docs"][3]]}


def test_a_site_with_search_always_gets_the_safe_index():
    assert with_offline_search(["search"]) == ["search", "whistbook-search"]
    assert with_offline_search([{"search": {"lang": "en"}}, "whistbook-search"]) == [{"search": {"lang": "en"}},
                                                                                       "whistbook-search"]
    assert with_offline_search({"search": {}}) == {"search": {}, "whistbook-search": {}}
    assert with_offline_search([]) == []  # no search, no index


@pytest.fixture
def chaptered(tmp_path):
    """A book made by ``whistbook init``, its starter hand first, then a chapter of two corpus hands."""
    from whistbook.project import init_project

    root = tmp_path / "book"
    init_project(root, "Chapters", seed=3)
    (root / "hands" / "trumps").mkdir()
    for name in ("01-*.yaml", "02-*.yaml"):
        shutil.copy(next((HANDS / "cavendish").glob(name)), root / "hands" / "trumps")
    config = root / "mkdocs.yml"
    config.write_text(config.read_text(encoding="utf-8") + "    lessons:\n      - first-hand.yaml\n"
                      "      - chapter: Leading trumps\n        lessons: [trumps/*.yaml]\n", encoding="utf-8")
    return root


def test_chapters_group_the_navigation_and_the_home_page(chaptered):
    from whistbook.build import lesson_slug
    from whistbook.corpus import find_hand_files
    from whistbook.project import load_project, order_files
    from whistbook.render.context import book_context

    project = load_project(chaptered)
    files, chapters = order_files(find_hand_files([str(project.hands)]), project.hands, project.book.order)
    lessons = [build_lesson(checked(f), index=k, slug=lesson_slug(f, project.hands)) for k, f in enumerate(files, 1)]
    env = make_environment(project.templates)
    by_slug = {l.slug: chapters[f] for f, l in zip(files, lessons) if f in chapters}
    book = book_context(lessons, env, chapters=by_slug)
    nav = render_site_sources(book, env).nav
    themes = [{t.title: f"themes/{t.slug}.md"} for t, _ in book.themes]
    assert nav == [
        {"Home": "index.md"},
        {"Hands": [{"First hand": "lessons/first-hand.md"}]},  # named before any chapter
        {"Leading trumps": [{"Hand I": "lessons/trumps-01-trump-lead-on-established-suit.md"},
                            {"Hand II": "lessons/trumps-02-trump-lead-four-moderate-trumps.md"}]},
        {"Themes": themes},
        {"Reference": [{"Principles of play": "principles.md"}, {"Glossary": "glossary.md"}]},
    ]
    home = render_site_sources(book, env).docs["index.md"]
    assert home.index("## Hands") < home.index("## Leading trumps") < home.index("## Themes")
    assert "## Lessons by theme" not in home
    # without chapters, the themes group them as before
    plain = render_site_sources(book_context(lessons, env), env)
    assert [next(iter(item)) for item in plain.nav][1:] == [t.title for t, _ in book.themes] + ["Reference"]


@pytest.mark.slow
def test_a_chaptered_book_builds_its_site_with_the_chapters_in_the_sidebar(chaptered):
    from whistbook.build import BuildOptions, build
    from whistbook.project import load_project

    project = load_project(chaptered)
    build(BuildOptions.for_book(project.book, hands=project.hands, output=project.output,
                                templates=project.templates, mkdocs_config=project.config, booklet=False))
    home = (project.output / "site" / "index.html").read_text(encoding="utf-8")
    sidebar = home[home.index('<p class="caption">'):home.index("</nav>")]
    captions = re.findall(r'<p class="caption"><span class="caption-text">(.*?)</span></p>', sidebar)
    assert captions == ["Hands", "Leading trumps", "Themes", "Reference"]
    chapter = sidebar[sidebar.index(">Leading trumps<"):sidebar.index(">Themes<")]
    assert re.findall(r'href="lessons/[\w-]+\.html">(.*?)</a>', chapter) == ["Hand I", "Hand II"]


def test_raw_html_blocks_hold_no_blank_or_indented_lines(sources):
    page = sources.docs["lessons/01-trump-lead-on-established-suit.md"]
    for block in re.findall(r'<div class="whistbook-lesson">\n(.*?)\n</div>\n\n', page, flags=re.S):
        assert all(line and not line[0].isspace() for line in block.splitlines())


@pytest.mark.slow
def test_mkdocs_builds_the_site_strictly(sources, tmp_path):
    build_site(sources, tmp_path / "src", tmp_path / "theme", tmp_path / "site", config_file=ROOT / "mkdocs.yml")
    site = tmp_path / "site"
    assert (site / "index.html").is_file()
    assert (site / "lessons" / "01-trump-lead-on-established-suit.html").is_file()
    assert (site / "search" / "search_index.json").is_file()
    for path in site.rglob("*.html"):
        text = path.read_text(encoding="utf-8")
        assert not EXTERNAL.search(text), path
    for path in site.rglob("*.css"):
        assert not CSS_EXTERNAL.search(path.read_text(encoding="utf-8")), path
    lesson_page = (site / "lessons" / "01-trump-lead-on-established-suit.html").read_text(encoding="utf-8")
    assert 'href="../css/whistbook.css"' in lesson_page
    assert "Made with whistbook" in lesson_page
    # the search index holds one record for each lesson, its safe entry, and nothing of the deal
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    script = (site / "search" / "search_index.js").read_text(encoding="utf-8")
    assert json.loads(script[script.index("{"):script.rindex("}") + 1]) == index
    records = [d for d in index["docs"] if d["location"].startswith("lessons/01-")]
    hand_i = lesson(analysis=True)
    assert [(d["location"], d["title"]) for d in records] == [("lessons/01-trump-lead-on-established-suit.html",
                                                               "Hand I")]
    assert not cards_named(records[0]["text"]) & unseen(hand_i)
    assert not cards_named(json.dumps(index, ensure_ascii=False)) & unseen(hand_i)


@pytest.mark.slow
def test_a_broken_link_fails_the_strict_build(sources, tmp_path):
    from whistbook.errors import RenderError

    sources.docs["glossary.md"] += "\nSee [nowhere](no-such-page.md).\n"
    try:
        with pytest.raises(RenderError, match="no-such-page"):
            build_site(sources, tmp_path / "src", tmp_path / "theme", tmp_path / "site",
                       config_file=ROOT / "mkdocs.yml")
    finally:
        sources.docs["glossary.md"] = sources.docs["glossary.md"].split("\nSee [nowhere]")[0]
