"""Repair to WeasyPrint 70's cascade: pseudo-elements' styles made only when
asked for.

WeasyPrint's own stylesheet gives every element six pseudo-elements, whose
rules it cascades and whose styles it makes at once, though only list
items, footnotes and notes ever ask for them. :func:`cascade` (WeasyPrint's
``StyleFor.__init__``) keeps a pseudo-element's rules and :func:`style_for`
(its ``__call__``) makes the style when the box builder asks, unless the
rules set ``anchor``; an element whose style is shared with one cascaded
before is not cascaded again.
"""

from __future__ import annotations

from math import inf
from typing import Any


_stock_cascade: Any = None
_stock_style_for: Any = None


def _lazy_pseudo_styles() -> None:
    """WeasyPrint's own stylesheet gives every element six pseudo-elements
    (``::marker``, ``::footnote-call``, ``::footnote-marker``, ``::note-call``,
    ``::note-marker``, ``::note-callback``): WeasyPrint cascades their rules
    and makes their styles at once, more cascading than for the elements
    themselves, though only list items, footnotes and notes ever ask for
    them. :func:`cascade` keeps a pseudo-element's rules and leaves the
    cascade and its style until the box builder asks (:func:`style_for`),
    unless its rules set ``anchor`` (the one value read when a style is
    made); and it cascades an element's own rules only when its style is not
    shared with an element cascaded before."""
    global _stock_cascade, _stock_style_for
    from weasyprint.css import StyleFor

    if _stock_cascade is not None:
        return
    _stock_cascade, _stock_style_for = StyleFor.__init__, StyleFor.__call__
    StyleFor.__init__ = cascade
    StyleFor.__call__ = style_for


#: id of a declaration block -> (the block, whether it sets ``anchor``)
_SETS_ANCHOR: dict[int, tuple[Any, bool]] = {}


def _sets_anchor(declarations: Any) -> bool:
    known = _SETS_ANCHOR.get(id(declarations))
    if known is None or known[0] is not declarations:
        known = _SETS_ANCHOR[id(declarations)] = (
            declarations, any(name == "anchor" for name, _, _ in declarations))
    return known[1]


def _apply(style: dict, rules: list) -> None:
    """Cascade ``rules`` ((origin, layer order, specificity, declarations), in
    WeasyPrint's order) into ``style``, as WeasyPrint's ``StyleFor`` does."""
    from weasyprint.css import declaration_precedence

    for origin, layer_order, specificity, declarations in rules:
        for name, values, importance in declarations:
            weight = (declaration_precedence(origin, importance), layer_order, specificity)
            old_weight = style.get(name, (None, None))[1]
            if old_weight is None or old_weight <= weight:
                style[name] = values, weight


def _style_attributes(html: Any, presentational_hints: Any, cascaded_styles: dict) -> dict:
    """Cascade the elements' ``style`` attributes (and presentational hints)
    as WeasyPrint's ``StyleFor`` does; each element's declarations."""
    from weasyprint.css import declaration_precedence, find_style_attributes
    from weasyprint.css.validation import preprocess_declarations

    elements_declarations = {}
    for specificity, element, declarations, base_url in find_style_attributes(
            html.etree_element, presentational_hints, html.base_url):
        style = cascaded_styles.setdefault((element, None), {})
        elements_declarations[element] = tuple(declarations)
        for name, values, importance in preprocess_declarations(base_url, declarations):
            weight = (declaration_precedence("author", importance), inf, specificity)
            old_weight = style.get(name, (None, None))[1]
            if old_weight is None or old_weight <= weight:
                style[name] = values, weight
    return elements_declarations


def _match(element: Any, sheets: Any) -> tuple[list, list, dict]:
    """The stylesheets' rules that match ``element``, in WeasyPrint's order:
    the keys by which WeasyPrint shares a style, the element's own rules, and
    each pseudo-element's (rules as :func:`_apply` takes them)."""
    selectors_keys: list = []
    own: list = []
    pseudos: dict = {}
    for sheet, origin, sheet_specificity in sheets:
        for specificity, _, pseudo_type, (declarations, layer) in sheet.matcher.match(element):
            layer_order = inf if layer is None else sheet.layers.index(layer)
            selectors_keys.append((sheet, specificity, id(declarations), layer_order))
            rule = (origin, layer_order, sheet_specificity or specificity, declarations)
            if pseudo_type is None:
                own.append(rule)
            else:
                pseudos.setdefault(pseudo_type, []).append(rule)
    return selectors_keys, own, pseudos


def cascade(self: Any, html: Any, sheets: Any, presentational_hints: Any, font_config: Any,
            target_collector: Any) -> None:
    """WeasyPrint 70's ``StyleFor.__init__``, keeping pseudo-elements' rules
    for later (:func:`_lazy_pseudo_styles`)."""
    from weasyprint.css import PROGRESS_LOGGER

    self._cascaded_styles = cascaded_styles = {}
    self._computed_styles = computed_styles = {}
    self.initial_page_sizes = {"box": None, "area": None}
    self._sheets = sheets
    self.font_config = font_config
    #: (element, pseudo-element) -> (its rules, root element, base URL)
    self._pending_pseudo = pending = {}

    PROGRESS_LOGGER.info("Step 3 - Applying CSS")
    elements_declarations = _style_attributes(html, presentational_hints, cascaded_styles)

    # elements in tree order: a parent's style is made before its children's
    computed_cache = {}
    root = html.etree_element
    for element in html.wrapper_element.iter_subtree():
        etree_element = element.etree_element
        parent = element.parent.etree_element if element.parent else None
        parent_id = id(computed_styles[parent, None]) if element.parent else None
        element_declarations = elements_declarations.get(etree_element)
        selectors_keys, own, pseudos = _match(element, sheets)
        for pseudo_type, rules in pseudos.items():
            if any(_sets_anchor(rule[3]) for rule in rules):
                _apply(cascaded_styles.setdefault((etree_element, pseudo_type), {}), rules)
            else:
                pending[etree_element, pseudo_type] = (rules, root, html.base_url)
        key = (parent_id, element_declarations, tuple(selectors_keys))
        if key in computed_cache:
            # the same rules and parent as an element before: the same style
            computed_styles[etree_element, None] = computed_cache[key]
        else:
            _apply(cascaded_styles.setdefault((etree_element, None), {}), own)
            self.set_computed_styles(
                etree_element, root=root, parent=parent, base_url=html.base_url,
                target_collector=target_collector)
            computed_cache[key] = computed_styles[etree_element, None]

    # pseudo-elements whose rules set an anchor, in WeasyPrint's order
    for element, pseudo_type in cascaded_styles:
        if pseudo_type:
            self.set_computed_styles(
                element, pseudo_type=pseudo_type, root=root, parent=element,
                base_url=html.base_url, target_collector=target_collector)
    # the cascaded styles of pages are kept here
    self._cascaded_styles.clear()


def style_for(self: Any, element: Any, pseudo_type: Any = None) -> Any:
    """``StyleFor.__call__``, which first cascades and makes a pseudo-element's
    style kept for later by :func:`cascade`."""
    if pseudo_type is not None:
        kept = self.__dict__.get("_pending_pseudo", {}).pop((element, pseudo_type), None)
        if kept is not None:
            from weasyprint.css import ComputedStyle

            rules, root, base_url = kept
            cascaded: dict = {}
            _apply(cascaded, rules)
            computed = self._computed_styles
            computed[element, pseudo_type] = ComputedStyle(
                computed[element, None], cascaded, pseudo_type, computed[root, None], base_url,
                self.font_config, self.initial_page_sizes)
    return _stock_style_for(self, element, pseudo_type)
