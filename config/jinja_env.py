"""The Jinja2 environment of ``TEMPLATES``' Jinja2 backend: the kit's (``tabletop.jinja``)
with each game's globals (DemLoc's ``missions.jinja``). docs/architecture.md, "The live
region"."""

from jinja2 import Environment

from missions import jinja as missions_jinja
from tabletop import jinja as tabletop_jinja


def environment(**options) -> Environment:
    env = tabletop_jinja.environment(**options)
    missions_jinja.extend(env)
    return env
