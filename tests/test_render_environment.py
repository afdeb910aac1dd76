"""Templates: project overrides file by file, strict and escaped rendering,
and errors that name the template file and line."""

from __future__ import annotations

import pytest

from whistbook.errors import RenderError
from whistbook.render.context import RenderOptions
from whistbook.render.environment import make_environment, render_template
from whistbook.render.html import render_html, render_lesson

from render_support import lesson


def test_an_override_replaces_the_default(tmp_path):
    (tmp_path / "lesson.html").write_text("<p>mine: {{ lesson.title }}</p>\n", encoding="utf-8")
    html = render_lesson(lesson(inference=False), make_environment(tmp_path))
    assert html == "<p>mine: Hand I</p>\n"


def test_compiled_templates_are_kept_and_follow_their_source(tmp_path):
    """With a folder for compiled templates, a second environment renders the
    same page without compiling, and an edited override is compiled again."""
    overrides, compiled = tmp_path / "templates", tmp_path / "compiled"
    overrides.mkdir()
    (overrides / "lesson.html").write_text(
        '{% extends "default/lesson.html" %}{% block title %}One: {{ lesson.title }}{% endblock %}', encoding="utf-8")
    first = render_lesson(lesson(inference=False), make_environment(overrides, compiled=compiled))
    kept = sorted(compiled.iterdir())
    assert "<title>One: Hand I</title>" in first and len(kept) >= 3  # the override, the page it extends, macros
    again = make_environment(overrides, compiled=compiled)
    made = []
    again.compile = lambda *a, **kw: made.append(a) or type(again).compile(again, *a, **kw)  # type: ignore[method-assign]
    assert render_lesson(lesson(inference=False), again) == first and made == []
    (overrides / "lesson.html").write_text(
        '{% extends "default/lesson.html" %}{% block title %}Two: {{ lesson.title }}{% endblock %}', encoding="utf-8")
    third = make_environment(overrides, compiled=compiled)
    assert "<title>Two: Hand I</title>" in render_lesson(lesson(inference=False), third)


def test_an_override_can_extend_the_default(tmp_path):
    (tmp_path / "lesson.html").write_text(
        '{% extends "default/lesson.html" %}\n{% block title %}Study: {{ lesson.title }}{% endblock %}\n',
        encoding="utf-8",
    )
    html = render_lesson(lesson(inference=False), make_environment(tmp_path))
    assert "<title>Study: Hand I</title>" in html
    assert 'class="trick-svg"' in html  # the rest is the default page


def test_macros_and_stylesheets_are_overridden_file_by_file(tmp_path):
    (tmp_path / "css").mkdir()
    (tmp_path / "css" / "screen.css").write_text("/* my screen */\n", encoding="utf-8")
    (tmp_path / "_macros").mkdir()
    (tmp_path / "_macros" / "cards.html").write_text(
        "{% macro hand(h, caption=none) %}<div class=\"my-hand\">{{ h.seat }}</div>{% endmacro %}\n",
        encoding="utf-8",
    )
    pages = render_html([lesson(inference=False)], make_environment(tmp_path))
    assert "/* my screen */" in pages["whistbook.css"]
    assert "trick-diagram" in pages["whistbook.css"]  # whistbook.css itself is still the default
    page = next(v for k, v in pages.items() if k.endswith("established-suit.html"))
    assert '<div class="my-hand">A</div>' in page


def test_values_are_escaped():
    env = make_environment(None)
    ls = lesson(inference=False)
    html = render_template(env, "lesson.html", lesson=_with(ls, title="<script>x</script>"),
                           options=RenderOptions(), links=_links(), previous=None, next=None)
    assert "<script>x" not in html and "&lt;script&gt;x" in html


def test_an_undefined_name_names_the_template_and_line(tmp_path):
    (tmp_path / "lesson.html").write_text("<h1>{{ lesson.title }}</h1>\n\n<p>{{ lesson.no_such_field }}</p>\n",
                                          encoding="utf-8")
    with pytest.raises(RenderError) as err:
        render_lesson(lesson(inference=False), make_environment(tmp_path))
    assert "lesson.html:3" in str(err.value)
    assert "no_such_field" in str(err.value)


def test_a_syntax_error_names_the_template_and_line(tmp_path):
    (tmp_path / "lesson.html").write_text("<h1>{{ lesson.title }}</h1>\n{% if %}\n", encoding="utf-8")
    with pytest.raises(RenderError) as err:
        render_lesson(lesson(inference=False), make_environment(tmp_path))
    assert "lesson.html:2" in str(err.value) and "syntax" in str(err.value)


def test_an_error_in_a_macro_names_the_macro_file(tmp_path):
    (tmp_path / "_macros").mkdir()
    (tmp_path / "_macros" / "cards.html").write_text(
        "{% macro hand(h, caption=none) %}\n{{ h.no_such_thing }}\n{% endmacro %}\n", encoding="utf-8",
    )
    with pytest.raises(RenderError) as err:
        render_lesson(lesson(inference=False), make_environment(tmp_path))
    assert "_macros/cards.html:2" in str(err.value)


def test_a_missing_template_is_a_render_error(tmp_path):
    with pytest.raises(RenderError, match="no_such.html"):
        render_template(make_environment(tmp_path), "no_such.html")


def _with(ls, **changes):
    import dataclasses

    return dataclasses.replace(ls, **changes)


def _links():
    from whistbook.render.context import Links

    return Links()


def test_a_trick_is_drawn_once_for_the_page_and_the_site(monkeypatch):
    """The page and the site draw the same trick with the same arguments: the
    second is the first drawing; other arguments, or another trick, draw anew."""
    from whistbook.render import environment

    drawn = []
    real = environment.trick_svg
    monkeypatch.setattr(environment, "trick_svg", lambda t, **kw: drawn.append(t) or real(t, **kw))
    env = make_environment(None)
    draw = env.filters["trick_svg"]
    first, second = lesson().tricks[:2]
    svg = draw(first, True, False)
    assert draw(first, True, False) is svg and svg == real(first, analysis=True, four_colour=False)
    assert draw(first, False, False) == real(first, analysis=False, four_colour=False)
    draw(second, True, False)
    assert drawn == [first, first, second]
