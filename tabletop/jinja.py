"""The live region in Jinja2 (Django's ``django.template.backends.jinja2.Jinja2`` backend).

The kit's live region is one Jinja2 template (``tabletop/jinja2/tabletop/live.html``;
docs/architecture.md, "The live region"): past the lobby a game's own templates are Jinja2's
when its ruleset says ``jinja_live`` (DemLoc's), else Django's, included (``django_include``).
The environment writes what Django's engine would:

- no autoescape; every ``{{ ... }}`` goes through ``finalize``, which escapes as Django does
  (``html.escape`` with quotes; a value with ``__html__``, Django's ``SafeString`` or
  Jinja2's ``Markup``, as it is; ``None`` as ``None``);
- the trailing newline of a template is kept, no white space is trimmed;
- Django's own filters (``pluralize``, ``yesno``, ``cut``, ``force_escape``, ``urlencode``)
  and ``url`` / ``static`` globals;
- the test ``absent``: Django's ``is None`` on a missing field (Jinja2's ``Undefined`` is
  not ``None``);
- the blocks (``tabletop.blocks``): ``public_block`` (a ``{% call %}``) and ``inputs_block``
  (a template of its own, rendered from its declared inputs alone, so its bytes are a
  function of them, kept by ``tabletop.blocks.render_inputs``);
- ``django_include``: a part rendered by its Django template in the same context (the lobby,
  a card game's templates, a DemLoc mission's preparation and result).
"""

from __future__ import annotations

import html as _html

from django.template import Context, engines
from django.template.defaultfilters import cut, force_escape, pluralize, urlencode, yesno
from django.templatetags.static import static
from django.urls import reverse
from django.utils.safestring import SafeString
from jinja2 import ChainableUndefined, Environment, Undefined, pass_context

from tabletop import blocks

_escape = _html.escape


def finalize(value):
    """A ``{{ ... }}`` as Django's template engine writes it with autoescape on."""
    kind = type(value)
    if kind is str:
        return _escape(value)
    if kind is int:
        return str(value)
    if hasattr(value, "__html__"):
        return value.__html__()
    if isinstance(value, Undefined):
        return ""
    return _escape(str(value))


def url(name: str, *args) -> str:
    """``{% url name args %}``."""
    return reverse(name, args=args or None)


def value(found):
    """A context value that Django's engine would call (``tabletop.live.Lazy``: the log
    lines), called; anything else as it is."""
    return found() if callable(found) else found


def absent(found) -> bool:
    """Django's ``is None`` in an ``{% if %}``: a missing field is None there."""
    return found is None or isinstance(found, Undefined)


def slice_to(found, end: int):
    """``|slice:":end"``."""
    return found[:end] if found else found


def _block(context, html: str, public: bool) -> SafeString:
    """A block's element as it stands in the render: collected (``tabletop.blocks.collect``)
    when the render collects its blocks, else between its markers."""
    sink = context.get(blocks.SINK)
    if sink is not None:
        return SafeString(blocks.collect(sink, html, public))
    return SafeString((blocks.OPEN_PUBLIC if public else blocks.OPEN) + _whole(html)
                      + blocks.CLOSE)


def _whole(html: str) -> str:
    """A block's HTML as rendered, a ``tabletop.blocks.Kept`` one with its white space."""
    return html.whole() if type(html) is blocks.Kept else html


@pass_context
def public_block(context, *parts, public=True, caller=None):
    """``{% call public_block("piece-", p.id, public=...) %}...{% endcall %}``: the block's
    element with its markers, rendered once per table state for the seats and once for the
    watchers (``tabletop.blocks.render_public``, the context's ``live_blocks``) when
    ``public`` is true, else for this view. The arguments before ``public`` make its id."""
    if not public:
        return _block(context, caller(), False)
    cache = context.get("live_blocks")
    bid = "".join(str(p) for p in parts)
    seated = context.get("seat") is not None
    found = blocks.render_public(cache, bid, seated, caller)
    sink = context.get(blocks.SINK)
    if sink is not None:  # cut once per state and kind of view (blocks.collect_public)
        return SafeString(blocks.collect_public(cache, bid, seated, sink, found))
    return SafeString(blocks.OPEN_PUBLIC + _whole(found) + blocks.CLOSE)


@pass_context
def inputs_block(context, name: str, fresh=False, **values) -> SafeString:
    """``inputs_block("app/live/id.html", name=value, ...)``: the template ``name`` rendered
    from ``values`` alone, or the bytes kept for the same values at this table
    (``tabletop.blocks.render_inputs``); ``fresh``: rendered in the whole context, kept
    nowhere (what it shows then is not a function of its inputs). The check of the tests
    (``tabletop.blocks.CHECK_INPUTS``) renders it in the whole context with each input's name
    holding the context's value of that name (the value it was picked from: an input is
    named after what it picks, ``view=view|pick("turn")``)."""
    template = context.environment.get_template(name)
    if fresh:
        return _block(context, template.render(context.get_all()), False)
    table = context.get("table")
    pk = getattr(table, "pk", None) if context.get("live_blocks") is not None else None

    def whole() -> str:
        everything = context.get_all()
        return template.render({**everything, **{
            k: value(everything[k]) if k in everything else v for k, v in values.items()}})

    return _block(context, blocks.render_inputs(pk, template, values, template.render, whole),
                  False)


@pass_context
def django_include(context, name: str, **values) -> SafeString:
    """``{% include name %}`` of a Django template in this context (``values``: ``with ...
    only``), localisation off as in the live region."""
    data = values if values else context.get_all()
    template = engines["django"].get_template(name).template
    return SafeString(template.render(Context(data, use_l10n=False)))


class DjangoLookups(Environment):
    """``a.b`` looks up a dict's key first, as Django's engine does (and a missing one is
    undefined, never the dict's method of that name), a dict's subclass's too (DemLoc's
    ``SeatPiece``); anything else as Jinja2 does."""

    def getattr(self, obj, attribute):
        if type(obj) is dict or isinstance(obj, dict):
            try:
                return obj[attribute]
            except KeyError:
                return self.undefined(obj=obj, name=attribute)
        return super().getattr(obj, attribute)


def environment(**options) -> Environment:
    """The kit's Jinja2 environment (``TEMPLATES``' Jinja2 backend): Django's escaping,
    lookups, filters and URLs, the live blocks. A game adds its own globals (``extend``).
    A missing value is empty, and so is anything looked up in it (``ChainableUndefined``:
    Django's ``{{ a.b.c }}`` with no ``a.b``)."""
    options["autoescape"] = False
    options["undefined"] = ChainableUndefined
    options.setdefault("keep_trailing_newline", True)
    env = DjangoLookups(finalize=finalize, **options)
    env.globals.update(url=url, static=static, value=value, public_block=public_block,
                       inputs_block=inputs_block, django_include=django_include,
                       slice_to=slice_to)
    env.filters.update(pluralize=pluralize, yesno=yesno, cut=cut, force_escape=force_escape,
                       urlencode=urlencode, pick=blocks.pick,
                       bar_fresh=blocks.bar_fresh)
    env.tests["absent"] = absent
    return env
