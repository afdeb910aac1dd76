"""The booklet, laid out in parts by the build's workers and joined.

Each lesson's part is laid out as soon as the lesson is made; the parts
that need the whole book (the front matter, the lessons by theme, the
answers) once it is known, with the page numbers the other parts give; then
the parts are joined into one PDF (:class:`Booklet`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Sequence

from .buildcache import PACKAGE, code_key, digest, folder_key
from .lesson import Lesson
from .progress import Progress
from .project import Book
from .workers import BOOK, FILL, Batch, Pool



#: the back matter's parts, in order, each from a new page (see templates/booklet.html)
BACK_MATTER = ("themes", "principles", "glossary")
#: those that print the lessons' page numbers ("back" is the three as one part)
NUMBERED_BACK = ("themes", "back")


class Booklet:
    """The booklet, laid out in parts by the pool's workers: each lesson's part
    as soon as the lesson is made (:meth:`add`), the rest once the whole book
    is known (:meth:`lay_out`).

    :raises RenderError: when a template fails or a resource is refused.
    """

    def __init__(self, env: Any, book: Book, templates: Path, base: Any, pool: Pool) -> None:
        from .render.context import RenderOptions
        from .render.pdf import booklet_css, running_title_css

        self.env, self.book, self.pool = env, book, pool
        #: the book's context before its lessons are known (enough for a lesson's own part)
        self.base = base
        self.printed = RenderOptions(analysis=book.analysis_in_booklet, four_colour=book.four_colour,
                                     paper=book.paper, medium="print")
        # the title first, so that a project's stylesheet may set the string otherwise
        self.css = running_title_css(book.title) + booklet_css(env, book.paper, four_colour=book.four_colour)
        #: what a lesson's part is made from besides the lesson: the code, the
        #: stylesheet, the templates and the book's settings (see :meth:`lesson_job`)
        self.key = digest(code_key(), self.css, folder_key(PACKAGE / "templates"), folder_key(templates),
                          repr(self.printed), repr(book))
        #: each lesson's part's job, by the lesson's name
        self.parts: dict[str, tuple[str, Any]] = {}
        #: the jobs of the back matter's parts that need no lessons, by name (see :meth:`begin`)
        self.back: dict[str, tuple[str, Any]] = {}

    def html(self, part: str, book: Any, **kw: Any) -> str:
        from .render.pdf import booklet_part_html

        return booklet_part_html(part, book, self.env, options=self.printed, **kw)

    def jobs(self, htmls: Sequence[str]) -> list[tuple[str, tuple]]:
        """Parts' jobs, each keyed by its HTML."""
        return [(digest(code_key(), self.css, html), (html, self.css)) for html in htmls]

    def lesson_job(self, key: str, lesson: Lesson) -> tuple[str, Any]:
        """A lesson's part's job, keyed by the lesson's key (``key``, from its
        file and the code) and :attr:`key`: its HTML is rendered only when the
        part is not in the store. A lesson's part is made from the lesson and
        the book's settings alone, not from the other lessons."""
        return digest(self.key, "lesson", key), lambda: (self.html("lesson", self.base, lesson=lesson), self.css)

    def start(self, jobs: Sequence[tuple[str, Any]], *, draw: bool = True, rank: int = BOOK) -> Batch:
        """The parts laid out by the workers; without ``draw``, only their
        lengths and anchors (stored apart: never joined)."""
        kind, fn = ("booklet", _lay_out_part) if draw else ("booklet-length", _measure_part)
        return self.pool.start(kind, fn, jobs, weight=lambda args: len(args[0]), rank=rank)

    def add(self, key: str, printed: Lesson) -> None:
        """Give a lesson's part to the workers, as soon as the lesson is made
        (its part does not change when the other lessons do)."""
        self.parts[printed.slug] = job = self.lesson_job(key, printed)
        self.start([job], rank=FILL)

    def begin(self) -> None:
        """Give the workers the parts that need no lessons: the principles and
        the glossary (which print no page numbers), made from the book's
        settings alone and keyed by them like a lesson's part."""
        for part in BACK_MATTER:
            if part not in NUMBERED_BACK:
                self.back[part] = digest(self.key, part), lambda part=part: (self.html(part, self.base), self.css)
        self.start(list(self.back.values()), rank=FILL)

    def lay_out(self, book: Any, progress: Progress) -> tuple[list[Any], Any]:
        """Every part of the booklet laid out, in order, and the page numbers
        (:meth:`join` makes the PDF of them); the parts laid out (not those
        from the store) are counted as they are done, and the front matter."""
        body = [self.parts.get(l.slug) or self.jobs([self.html("lesson", self.base, lesson=l)])[0]
                for l in book.hands + book.problems]
        if book.problems:
            body += self.jobs([self.html("answers", book)])
        anchors = [f"{l.slug}-lesson" for l in book.hands + book.problems] + ["answers", *BACK_MATTER]
        stand_ins = dict.fromkeys(anchors, 888)

        # The front matter (cover, contents) and the lessons by theme print page
        # numbers, but their lengths do not depend on the numbers: both are
        # measured with stand-ins beside the lessons (laid out, not drawn), then
        # laid out with the numbers, side by side. The principles and the
        # glossary print none: each is a part laid out once (begun by :meth:`begin`).
        def front_html(pages: Mapping[str, int]) -> str:
            return self.html("front", book, pages=pages)

        def back_html(part: str, pages: Mapping[str, int]) -> str:
            return self.html(part, book, pages=pages if part in NUMBERED_BACK else {})

        drawn = self.start([*body, *(self.back.get(part) or self.jobs([back_html(part, {})])[0]
                                     for part in BACK_MATTER[1:])])
        measured = self.start(self.jobs([front_html(stand_ins), back_html("themes", stand_ins)]), draw=False)
        names = [l.title for l in book.hands + book.problems] + ["the answers"] * bool(book.problems) + [
            f"the {part}" for part in BACK_MATTER[1:]]
        counter = progress.counter(f"laying out the booklet ({self.book.paper.upper()})", len(drawn.made),
                                   prefix="booklet: ")
        laid = self.pool.finish(drawn, lambda k, _: counter.step(names[k]) if k in drawn.made else None)
        counter.end()
        numbered_anew = False
        parts, back = laid[:len(body)], laid[len(body):]
        front, themes = self.pool.finish(measured)
        back_parts = BACK_MATTER
        if all(name in part.anchors for name, part in zip(BACK_MATTER, [themes, *back])):
            back = [themes, *back]
        else:  # a project's booklet.html that knows the back matter as one part only
            back_parts = ("back",)
            back = self.pool.finish(self.start(self.jobs([back_html("back", stand_ins)]), draw=False))

        def numbers(start: int, laid: Sequence[Any]) -> dict[str, int]:
            out = {}
            for part in laid:
                for name, (page, _, _) in part.anchors.items():
                    out.setdefault(name, start + page + 1)
                start += part.pages
            return out

        for _ in range(3):
            batch = self.start(self.jobs([front_html(numbers(front.pages, [*parts, *back])),
                                          back_html(back_parts[0], numbers(front.pages, parts))]))
            self.numbers(sum(p.pages for p in [front, *parts, *back]))  # beside them, for the stand-ins' length
            again, numbered = self.pool.finish(batch)
            numbered_anew |= bool(batch.made)
            settled = again.pages == front.pages and numbered.pages == back[0].pages
            front, back = again, [numbered, *back[1:]]
            if settled:
                break
        everything = [front, *parts, *back]
        [page_numbers] = self.pool.finish(self.numbers(sum(p.pages for p in everything)))
        if numbered_anew:
            progress.say("booklet: the contents and the lessons by theme laid out with the page numbers")
        for part in everything:
            for message in part.warnings:
                progress.say(f"booklet: {message}")
        return everything, page_numbers

    def join(self, laid: tuple[list[Any], Any]) -> tuple[bytes, int]:
        """The booklet's PDF, joined from its parts, and its page count."""
        from .render.pdf import join_parts

        parts, page_numbers = laid
        return (join_parts(parts, page_numbers, title=self.book.title, author=self.book.author),
                sum(p.pages for p in parts))

    def numbers(self, last: int) -> Batch:
        """The page numbers of a booklet of ``last`` pages, laid out once (a
        few pages: see :func:`whistbook.render.pdf.lay_out_numbers`)."""
        from .render.pdf import lay_out_numbers

        key = digest(code_key(), self.css, str(last), self.book.paper)
        args = (self.css, last, self.book.paper)
        return self.pool.start("numbers", lay_out_numbers, [(key, args)])


def _lay_out_part(html: str, css: str, draw: bool = True) -> Any:
    """One part of the booklet laid out (in a worker that may have made lessons before)."""
    from . import solver
    from .render import pdf

    solver.release()  # the lessons are made: the solver's tables would only add to the layout's memory
    return pdf.lay_out_part(html, css, draw=draw)


def _measure_part(html: str, css: str) -> Any:
    """One part of the booklet laid out but not drawn: its length and anchors."""
    return _lay_out_part(html, css, draw=False)


__all__ = ["Booklet", "BACK_MATTER", "NUMBERED_BACK"]
