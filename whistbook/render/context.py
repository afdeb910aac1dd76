"""What every template receives besides the lessons: where links point, the
render options, the principles and the glossary."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Mapping, Sequence

import jinja2
from markupsafe import Markup

from ..lesson import Lesson, ThemeRef, themes_index
from ..project import Book
from .environment import template_source

Medium = Literal["html", "print", "site"]


@dataclass(frozen=True)
class RenderOptions:
    #: show double-dummy marks and notes
    analysis: bool = True
    #: four-colour suits (diamonds and clubs get their own colours)
    four_colour: bool = False
    #: the booklet's paper, "a5" or "a4"
    paper: str = "a5"
    medium: Medium = "html"


@dataclass(frozen=True)
class Links:
    """Where a page's links point. ``principles`` is the principles page's
    href ("" inside the booklet, whose principles are in the same document);
    ``lesson_pattern`` formats a lesson's href from its slug."""

    root: str = ""
    principles: str = "principles.html"
    lesson_pattern: str = "{slug}.html"

    def lesson(self, slug: str) -> str:
        return self.root + self.lesson_pattern.format(slug=slug)


@dataclass(frozen=True)
class RuleView:
    id: str
    title: str
    page: str | None
    description: str


def rule_views(rules: Mapping[str, Any]) -> list[RuleView]:
    """The principles registry as plain records, in registry order."""
    out = []
    for rule_id, r in rules.items():
        page = getattr(r, "page", None)
        out.append(RuleView(
            id=str(getattr(r, "id", rule_id) or rule_id),
            title=str(getattr(r, "title", rule_id) or rule_id),
            page=None if page in (None, "") else str(page).replace("*", ""),
            description=str(getattr(r, "description", "") or ""),
        ))
    return out


def rules_of(env: jinja2.Environment, rules: Mapping[str, Any] | None = None) -> Mapping[str, Any]:
    """``rules``, or else the registry the environment links remarks to: the
    principles a page lists are those its links point at."""
    return rules if rules is not None else env.globals["remarks"].rules  # type: ignore[union-attr]


def glossary_markdown(env: jinja2.Environment) -> str:
    return template_source(env, "_glossary.md")


def glossary_html(env: jinja2.Environment) -> Markup:
    return env.globals["remarks"].render(glossary_markdown(env), "")  # type: ignore[union-attr]


def split_lessons(lessons: Sequence[Lesson]) -> tuple[list[Lesson], list[Lesson], list[tuple[ThemeRef, list[Lesson]]]]:
    """Hands, problems, and hands by theme."""
    hands = [l for l in lessons if l.kind == "hand"]
    problems = [l for l in lessons if l.kind == "problem"]
    return hands, problems, themes_index(hands)


@dataclass(frozen=True)
class BookContext:
    """What every writer needs of the book as a whole, derived once per build:
    the lessons split into hands and problems, the hands by theme and by
    chapter, the principles and the glossary."""

    book: Book
    hands: list[Lesson]
    problems: list[Lesson]
    themes: list[tuple[ThemeRef, list[Lesson]]]
    #: (chapter title, its hands), in order; empty when the book has no chapters
    chapters: list[tuple[str, list[Lesson]]]
    rules: list[RuleView]
    glossary: Markup


def book_context(lessons: Sequence[Lesson], env: jinja2.Environment, *, rules: Mapping[str, Any] | None = None,
                 book: Book = Book(), chapters: Mapping[str, str] | None = None) -> BookContext:
    """The book-wide context; ``chapters`` maps a lesson's slug to its chapter's title."""
    hands, problems, themes = split_lessons(lessons)
    grouped: list[tuple[str, list[Lesson]]] = []
    if chapters:
        for lesson in hands:
            title = chapters.get(lesson.slug, "")
            if not grouped or grouped[-1][0] != title:
                grouped.append((title, []))
            grouped[-1][1].append(lesson)
    return BookContext(book=book, hands=hands, problems=problems, themes=themes, chapters=grouped,
                       rules=rule_views(rules_of(env, rules)), glossary=glossary_html(env))


__all__ = ["RenderOptions", "BookContext", "book_context", "Links", "RuleView", "rule_views", "rules_of", "glossary_markdown", "glossary_html",
           "split_lessons"]
