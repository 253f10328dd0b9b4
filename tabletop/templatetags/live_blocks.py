"""``{% liveblock %}``: one block of the live region (``tabletop.blocks``).

    {% load live_blocks %}
    {% liveblock "dl-log" public %}<details id="dl-log">...</details>{% endliveblock %}
    {% liveblock "piece-" p.id public=p.public %}...{% endliveblock %}
    {% liveblock "dl-turn" with view=view|pick:"turn phase players[seat,name]" code=table.code %}
      ...{% endliveblock %}

The arguments before the options make the block's id (joined); the content is one element
carrying that id. ``public`` (or ``public=<expression>``, public when true): the block shows
nothing that differs between the seats (nor between the watchers), so it is rendered once per
table state for the seats and once for the watchers, and the same bytes serve every view (``tabletop.blocks.public_blocks``, handed to the template as
``live_blocks``). A render outside the live region (no ``live_blocks``) renders the content.

``with name=<expression> ...`` (last): the block's inputs. Its content is rendered in a context
holding those names only (as ``{% include ... with ... only %}``), so its bytes depend on
nothing else, and the bytes rendered for the same values at the same table are reused
(``tabletop.blocks.kept_block``): a block is rendered again only when its inputs changed,
whichever seat or version asks. ``pick`` narrows a dict, an object or a list of them to the
fields the block reads. ``fresh=<expression>``: when true, the block is rendered in the whole
context and kept nowhere (what it shows then is not a function of its inputs: a closed
mission's next one is read from the database).
"""

from __future__ import annotations

from functools import lru_cache

from django import template

from tabletop import blocks

register = template.Library()


class LiveBlockNode(template.Node):
    def __init__(self, parts, public, nodelist, inputs=None, fresh=None) -> None:
        self.parts, self.public, self.nodelist = parts, public, nodelist
        self.inputs, self.fresh = inputs, fresh

    def render(self, context) -> str:
        if self.inputs is not None:
            return blocks.OPEN + self._render_inputs(context) + blocks.CLOSE
        public = self.public is True or (self.public is not None and self.public is not False
                                         and bool(self.public.resolve(context)))
        cache = context.get("live_blocks") if public else None
        if cache is not None:
            # one rendering for the seats, one for the watchers (a seated phone may have
            # controls on another's card that a watcher, who sends nothing, must not)
            bid = "".join(str(p.resolve(context)) for p in self.parts)
            bid += "|seat" if context.get("seat") is not None else "|watch"
            html = cache.get(bid)
            if html is None:
                html = cache[bid] = self.nodelist.render(context)
                blocks.public_renders += 1
            else:
                blocks.public_hits += 1
        else:
            html = self.nodelist.render(context)
        return (blocks.OPEN_PUBLIC if public else blocks.OPEN) + html + blocks.CLOSE

    def _render_inputs(self, context) -> str:
        """The block rendered from its declared inputs alone, or the bytes kept for them."""
        if self.fresh is not None and self.fresh.resolve(context):
            return self.nodelist.render(context)
        values = {name: value.resolve(context) for name, value in self.inputs}
        table = context.get("table")
        pk = getattr(table, "pk", None) if context.get("live_blocks") is not None else None
        key = None
        if pk is not None:
            try:
                key = blocks.fingerprint(tuple(values.values()))
            except blocks.Uncacheable:
                key = None
        html = blocks.kept_block(pk, self, key) if key is not None else None
        if html is None:
            html = self.nodelist.render(context.new(values))
            if key is not None:
                blocks.keep_block(pk, self, key, html)
        if blocks.CHECK_INPUTS:
            # the whole context, each input's name holding the value it was picked from
            with context.push({name: _unfiltered(value, context) for name, value in self.inputs}):
                whole = self.nodelist.render(context)
            if whole != html:
                bid = "".join(str(p.resolve(context)) for p in self.parts)
                raise template.TemplateSyntaxError(
                    f"liveblock {bid!r} reads what its inputs leave out: rendered from them"
                    f"\n{html}\nin the whole context\n{whole}")
        return html


def _unfiltered(expression, context):
    """The value of ``expression`` before its filters (``view`` of ``view|pick:"a"``)."""
    var = expression.var
    return var.resolve(context) if isinstance(var, template.Variable) else var


@register.tag("liveblock")
def liveblock(parser, token):
    bits = token.split_contents()[1:]
    parts, public, inputs, fresh = [], None, None, None
    for bit in bits:
        if inputs is not None:
            name, eq, expression = bit.partition("=")
            if not eq or not name.isidentifier():
                raise template.TemplateSyntaxError(f"liveblock: {bit!r} is not name=value")
            inputs.append((name, parser.compile_filter(expression)))
        elif bit == "with":
            inputs = []
        elif bit == "public":
            public = True
        elif bit.startswith("public="):
            public = parser.compile_filter(bit[len("public="):])
        elif bit.startswith("fresh="):
            fresh = parser.compile_filter(bit[len("fresh="):])
        else:
            parts.append(parser.compile_filter(bit))
    if not parts:
        raise template.TemplateSyntaxError("liveblock needs the block's id")
    if inputs is not None and public is not None:
        raise template.TemplateSyntaxError(
            "liveblock: a block with inputs is shared by every view with the same inputs; "
            "public is for blocks without")
    if inputs == []:
        raise template.TemplateSyntaxError("liveblock: with, but no inputs")
    nodelist = parser.parse(("endliveblock",))
    parser.delete_first_token()
    return LiveBlockNode(parts, public, nodelist, inputs, fresh)


@lru_cache(maxsize=512)
def _fields(spec: str) -> tuple:
    """``"a b[c,d]"`` -> ``(("a", None), ("b", (("c", None), ("d", None))))``."""
    out = []
    for token in spec.split():
        name, _, sub = token.partition("[")
        out.append((name, _fields(sub.rstrip("]").replace(",", " ")) if sub else None))
    return tuple(out)


def _pick(value, fields: tuple):
    if not value or isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)):
        return [_pick(v, fields) for v in value]
    out = {}
    is_dict = isinstance(value, dict)
    for name, sub in fields:
        if is_dict:
            if name not in value:
                continue  # left out, as the whole value leaves it out (never None)
            found = value[name]
        else:
            found = getattr(value, name, _pick)
            if found is _pick:
                continue
            if callable(found):  # as a template calls it (a model's get_FOO_display)
                found = found()
        out[name] = found if sub is None else _pick(found, sub)
    return out


@register.filter
def pick(value, spec: str):
    """The fields of ``value`` named in ``spec`` (space-separated; ``name[a,b]`` picks ``a``
    and ``b`` of that field's value): a dict of them, for a dict or an object (a method is
    called, as a template would); each element picked for a list; a missing field is left
    out; an empty value (None, ``{}``, ``""``) as it is. A block's input (``liveblock ...
    with``): what the block reads and nothing more, so the block is rendered again only when
    one of those changed."""
    return _pick(value, _fields(str(spec or "")))


@register.filter
def bar_fresh(game, view) -> bool:
    """Whether the bottom bar of ``game`` is rendered in the whole context at ``view``
    (``fresh``): a game bar without ``bar_reads``, or whose ``bar_fresh(view)`` says so
    (``tabletop.rules.Ruleset.bar_reads``)."""
    if not getattr(game, "bar_template", ""):
        return False
    if not getattr(game, "bar_reads", ""):
        return True
    fresh = getattr(game, "bar_fresh", None)
    return bool(fresh(view)) if fresh is not None else False
