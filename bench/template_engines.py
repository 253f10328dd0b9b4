"""Django templates against Jinja2 for DemLoc's live blocks: the CPU of one block's render.

Two per-seat blocks of ``missions/live.html``, the turn bar (``dl-turn``) and the players panel
(``dl-players``, with its ``missions/_cmd.html`` includes), rendered from the same inputs (the
values their ``{% liveblock ... with %}`` declares, taken from a four-player DemLoc quick
mission's live context after a few commands): with Django's engine (the block's own text, cut
out of live.html) and with Jinja2 (the same markup ported by hand below; Django's filters and
``{% url %}`` as Jinja2 filters and a global). The two outputs are compared with white space
collapsed (none between tags) and the quotes' escapes made one, so both engines render the
same block. Prints the
CPU microseconds per render of each, min / median / max of ``--runs``.

    DATABASE_URL=postgres://demloc:demloc@127.0.0.1:5432/demloc_b \\
    .venv/bin/python bench/template_engines.py --renders 2000 --runs 3

Needs Jinja2 (the bench extra).
"""

from __future__ import annotations

import argparse
import logging
import os
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DB_POOL", "1")

import django  # noqa: E402

django.setup()

import jinja2  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.template import Context, engines  # noqa: E402
from django.template.base import Parser  # noqa: E402
from django.template.defaultfilters import pluralize, yesno  # noqa: E402
from django.urls import reverse  # noqa: E402
from django.utils.text import smart_split  # noqa: E402

from tabletop import services  # noqa: E402
from tabletop.live import live_context  # noqa: E402
from tabletop.registry import get_ruleset  # noqa: E402
from tabletop.rules import Command  # noqa: E402

BASE = "http://testserver"

JINJA_CMD = """{% macro cmd(url, type, label, extra="", aria="", css="", confirm="") -%}
<form hx-post="{{ url }}" data-command class="inline"{% if confirm %} hx-confirm="{{ confirm }}"{% endif %}>
<input type="hidden" name="type" value="{{ type }}">{% if extra %}<input type="hidden" name="data" value="{{ extra }}">{% endif %}
<button class="btn {{ css }}" {% if aria %}aria-label="{{ aria }}"{% endif %}>{{ label }}</button>
</form>
{%- endmacro %}"""

JINJA = {
    "dl-turn": """<section class="card dl-turn" id="dl-turn" aria-label="Turn" data-land data-height-var="--dl-turn-h"{% if view.prompt %} data-prompt-key="{{ table.code }}-{{ view.me }}-{{ view.prompt.key }}" data-prompt="{{ view.prompt.text }}"{% if view.prompt.target %} data-prompt-target="{{ view.prompt.target }}"{% endif %}{% endif %}>
    {% if view.ended %}
      <p class="dl-ended"><strong>Mission over</strong>: {% if view.ended.reason == "surrender" %}everyone agreed to stop{% elif view.ended.reason == "objective" %}objective achieved{% elif view.ended.reason == "turn_limit" %}the last turn is over{% elif view.ended.reason == "elimination" %}total elimination{% else %}{{ view.ended.reason|replace("_", "") }}{% endif %}{% if view.ended.seat is not none %} · {% for pl in view.players %}{% if pl.seat == view.ended.seat %}{{ pl.name }}{% endif %}{% endfor %}{% endif %}</p>
    {% else %}
    <div class="dl-turn-head">
      <span class="badge warn" id="dl-turn-no">Turn {{ view.turn }}{% if view.turn_limit %} / {{ view.turn_limit }}{% endif %}</span>
      <strong class="dl-phase" id="dl-phase" title="{{ view.phase_label }}">{% if view.phase == "strategic" %}Strategic{% elif view.phase == "brawl" %}Brawl{% else %}Turn end{% endif %}</strong>
      <span class="dl-first small" title="First: {{ view.first_name }}">First: <strong id="dl-first">{{ view.first_name }}</strong></span>
    </div>
    {% if view.phase != "end" %}
      <p id="dl-acting" class="dl-acting">{% if view.my_turn %}<strong>Your move</strong>: {% if view.phase == "strategic" %}move, shoot or cast{% else %}engage and brawl{% endif %}, then pass.{% else %}<strong class="dl-nm" title="{{ view.acting_name }}">{{ view.acting_name }}</strong> is acting.{% endif %}{% if view.my_fate is not none %} <span class="badge" id="dl-my-fate">fate {{ view.my_fate }}</span>{% endif %}</p>
    {% else %}
      <p id="dl-acting" class="dl-acting">{% if view.last_turn %}That was the last turn.{% else %}Turn end: tokens back to active. Next first player: {% for o in view.next_odds %}{{ o.name }} {{ o.percent }}%{% if not loop.last %} · {% endif %}{% endfor %}{% endif %}</p>
    {% endif %}
    {% endif %}
  </section>""",
    "dl-players": JINJA_CMD + """<section class="card stack" id="dl-players">
    <h2>Players</h2>
    {% for pl in view.players %}
    <div class="dl-player" data-seat="{{ pl.seat }}">
      <div class="row dl-player-row"><strong class="dl-nm" title="{{ pl.name }}">{{ pl.name }}</strong><span class="badge" id="dl-fate-{{ pl.seat }}">fate {{ pl.fate }}</span>{% if pl.seat == view.me and not view.ended %}{{ cmd(command_url, "demloc.fate.gain", "+1", extra='{"amount": 1, "reason": "the game"}', aria="+1 fate point", css="dl-fate-plus") }}{% endif %}</div>
      {% if pl.guild != pl.name %}<p class="muted small dl-nm dl-player-guild" title="{{ pl.guild }}">{{ pl.guild }}</p>{% endif %}
      <p class="small muted dl-kills">Kills: {% for k in pl.kill_list %}<span class="dl-kill">{{ k.kind }} L{{ k.level }} × {{ k.count }}{% if pl.seat == view.me %} <form hx-post="{{ command_url }}" data-command class="inline"><input type="hidden" name="type" value="demloc.kill.count"><input type="hidden" name="d.kind" value="{{ k.kind }}"><input type="hidden" name="d.level" value="{{ k.level }}"><input type="hidden" name="d.delta" value="-1"><button class="btn" aria-label="remove a kill">−1</button></form>{% endif %}</span>{% else %}none{% endfor %}</p>
    </div>
    {% endfor %}
    {% if view.me is not none and not view.ended %}
    <details class="dl-by-hand" id="dl-by-hand">
    <summary>By hand: fate, kills{% if view.can_leave %}, leave{% endif %}</summary>
    <form hx-post="{{ command_url }}" data-command class="dl-form">
      <input type="hidden" name="type" value="demloc.fate.spend">
      <div class="dl-fields"><label>Fate points (of {{ view.my_fate }})<input name="d.amount" type="number" min="1" max="{{ view.my_fate }}" value="1" inputmode="numeric"></label><label>Reason<input name="d.reason" maxlength="80" placeholder="ability"></label></div>
      <button class="btn btn-block">Spend fate points</button>
    </form>
    <form hx-post="{{ command_url }}" data-command class="dl-form">
      <input type="hidden" name="type" value="demloc.kill.count"><input type="hidden" name="d.delta" value="1">
      <div class="dl-fields"><label>Killed a<select name="d.kind"><option>mercenary</option><option>follower</option><option>daemon</option></select></label><label>Level<select name="d.level">{% for l in "12345" %}<option>{{ l }}</option>{% endfor %}</select></label></div>
      <button class="btn btn-block">Count a kill</button>
      <p class="small muted" id="dl-kill-help">{% if view.kills_by_app %}Kills by shots, fights and arcane powers are counted by the app. Count here what it cannot know: a bleeding or poison death, an enemy killed by a card effect.{% else %}This table enters every kill by hand (6.4.2 kill counter).{% endif %}</p>
    </form>
    <p class="small muted" id="dl-stop-help"><strong>Agree to stop</strong> (beside Next) ends the mission once everyone agrees; an agreement lasts until the end of the turn (7.3.2.3).</p>
    {% if view.can_leave %}<form hx-post="{{ url('missions:leave', table.code) }}" data-command class="dl-form" id="dl-leave" hx-confirm="Leave the mission? Every character of your Guild still in play escapes (7.2.3); if only one Guild is left, the mission ends and is closed.">
      <p class="small muted">Leaving counts as the escape of all your characters still in play.</p>
      <button class="btn btn-danger btn-block">Leave the mission</button>
    </form>{% endif %}
    </details>
    {% if view.surrender or view.options.surrender == "loses" %}<p class="small muted" id="dl-surrender-note">{% if view.surrender %}{{ view.surrender|length }} of {{ view.players|length }} agree{{ view.surrender|length|pluralize("s,") }} to stop (until the end of this turn).{% endif %}{% if view.options.surrender == "loses" %} At this table the first player to agree surrenders: that Guild loses the mission (7.3.2.3).{% endif %}</p>{% endif %}
    {% if view.objective.target %}
    <p>Objective control: <strong>{{ view.objective.count }}/{{ view.objective.target }}</strong> turns{% if view.objective.counting %} (running){% endif %}</p>
    {% if view.objective.counting %}{{ cmd(command_url, "demloc.objective.control", "Suspend the counter", extra='{"action": "suspend"}') }}{% else %}{{ cmd(command_url, "demloc.objective.control", "Start counting for me", extra='{"action": "start"}') }}{% endif %}
    {% endif %}
    {% endif %}
    {% if not view.mission or view.ended %}<p><a href="{{ url('missions:reference') }}">Rules reference</a></p>{% endif %}
  </section>""",
}


def django_block(block_id: str):
    """The block ``block_id`` of missions/live.html: ``(its inputs' template text, a Django
    template of its content)``."""
    text = (ROOT / "missions/templates/missions/live.html").read_text()
    start = re.search(r'\{% liveblock "' + re.escape(block_id) + r'" with (.*?) %\}', text)
    end = text.index("{% endliveblock %}", start.end())
    engine = engines["django"].engine
    body = engine.from_string("{% load missions_tags live_blocks %}" + text[start.end():end])
    return start.group(1), body


def inputs(spec: str, context: dict) -> dict:
    """The values of a ``with`` list, resolved as the tag resolves them."""
    engine = engines["django"].engine
    parser = Parser([], builtins=engine.template_builtins)
    parser.add_library(engine.template_libraries["live_blocks"])
    out = {}
    for bit in smart_split(spec):
        name, _, expression = bit.partition("=")
        out[name] = parser.compile_filter(expression).resolve(Context(context))
    return out


def jinja_env() -> jinja2.Environment:
    env = jinja2.Environment(autoescape=True)
    env.filters["pluralize"] = pluralize
    env.filters["yesno"] = yesno
    env.globals["url"] = lambda name, *args: reverse(name, args=args)
    return env


def same(a: str, b: str) -> bool:
    def norm(s):
        s = s.replace("&#x27;", "&#39;").replace("&quot;", '"').replace("&#34;", '"')
        return re.sub(r">\s+<", "><", re.sub(r"\s+", " ", s)).strip()
    return norm(a) == norm(b)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--renders", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    call_command("migrate", verbosity=0)
    table, host = services.table_create(ruleset="demloc", host_name="P1")
    seats = [host] + [services.seat_join(table=table, name=f"P{n}") for n in range(2, 5)]
    services.run_command(table, host, Command("table.start"))
    game = get_ruleset("demloc")
    for i in range(8):  # fate points and kills, so the panel has something in it
        seat = seats[i % 4]
        services.run_command(table, seat, Command("demloc.fate.gain", {"amount": 1, "reason": "b"}))
        services.run_command(table, seat, Command("demloc.kill.count", {
            "kind": "mercenary", "level": 1 + i % 3, "delta": 1}))
    table.refresh_from_db()
    context = live_context(None, table, seats[1], base_url=BASE)
    assert game is not None
    env = jinja_env()
    print(f"Jinja2 {jinja2.__version__}; Django {django.get_version()}; a four-player DemLoc "
          f"table at version {table.version}, seat 2's view")
    for block_id, source in JINJA.items():
        spec, dj = django_block(block_id)
        values = inputs(spec, context)
        jj = env.from_string(source)
        a, b = dj.render(Context(values)), jj.render(**values)
        assert same(a, b), f"{block_id}: the two engines differ\n{a}\n----\n{b}"
        figures = {"django": [], "jinja2": []}
        for _ in range(args.runs):
            started = time.process_time()
            for _ in range(args.renders):
                dj.render(Context(values))
            figures["django"].append((time.process_time() - started) / args.renders * 1e6)
            started = time.process_time()
            for _ in range(args.renders):
                jj.render(**values)
            figures["jinja2"].append((time.process_time() - started) / args.renders * 1e6)
        d, j = (statistics.median(figures[k]) for k in ("django", "jinja2"))
        print(f"{block_id} ({len(a)} bytes): Django "
              f"{' / '.join(f'{x:.0f}' for x in sorted(figures['django']))} us, Jinja2 "
              f"{' / '.join(f'{x:.0f}' for x in sorted(figures['jinja2']))} us "
              f"(min / median / max of {args.runs}); Django / Jinja2 {d / j:.1f}x "
              f"(load {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
