"""``{% liveblock %}``: one block of the live region (``tabletop.blocks``).

    {% load live_blocks %}
    {% liveblock "dl-log" public %}<details id="dl-log">...</details>{% endliveblock %}
    {% liveblock "piece-" p.id public=p.public %}...{% endliveblock %}

The arguments before the options make the block's id (joined); the content is one element
carrying that id. ``public`` (or ``public=<expression>``, public when true): the block shows
nothing that differs between the seats (nor between the watchers), so it is rendered once per
table state for the seats and once for the watchers, and the same bytes serve every view (``tabletop.blocks.public_blocks``, handed to the template as
``live_blocks``). A render outside the live region (no ``live_blocks``) renders the content.
"""

from __future__ import annotations

from django import template

from tabletop import blocks

register = template.Library()


class LiveBlockNode(template.Node):
    def __init__(self, parts, public, nodelist) -> None:
        self.parts, self.public, self.nodelist = parts, public, nodelist

    def render(self, context) -> str:
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


@register.tag("liveblock")
def liveblock(parser, token):
    bits = token.split_contents()[1:]
    parts, public = [], None
    for bit in bits:
        if bit == "public":
            public = True
        elif bit.startswith("public="):
            public = parser.compile_filter(bit[len("public="):])
        else:
            parts.append(parser.compile_filter(bit))
    if not parts:
        raise template.TemplateSyntaxError("liveblock needs the block's id")
    nodelist = parser.parse(("endliveblock",))
    parser.delete_first_token()
    return LiveBlockNode(parts, public, nodelist)
