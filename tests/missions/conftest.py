"""Fixtures for the mission lifecycle: Guilds built through the real guild services, a control
point, and demo missions."""

import pytest

from guilds import models as gm
from tests.guilds.factories import AreaFactory

from .lifecycle_flow import build_guild


@pytest.fixture
def make_guild(db):
    """``make_guild(name, colour, mercenaries=("A", "B"), fame=0, feods=150) -> Guild``: a
    founded Guild with level-1 mercenaries of those names, each with a sword equipped. Cards of
    one name are shared between guilds (a mercenary card exists once in the catalog)."""

    return build_guild


@pytest.fixture
def demo_missions(db):
    from missions.demo import load_demo_missions

    return {d.kind: d for d in load_demo_missions()}


@pytest.fixture
def control_point(db):
    def make(name="Salt Gate", holder=None):
        return gm.ControlPoint.objects.create(
            name=name, area=AreaFactory(name="Docks"), kind="market", holder=holder
        )

    return make
