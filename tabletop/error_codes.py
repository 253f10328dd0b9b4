"""The catalogue of error codes (docs/architecture.md, "Interfaces and errors"): code ->
(class, usual message), gathered from the apps.

Each app declares every code its source raises in its own ``codes.py``: ``CODES``, ``{code:
(class, message)}`` (``tabletop/codes.py`` the kit's, ``missions/codes.py``, ``guilds/codes.py``,
``tabletop/<game>/codes.py``). One class, hence one HTTP status, per code: ``RuleViolation``
400, ``NotAllowed`` 403, ``NotFound`` 404, ``Conflict`` 409, ``Throttled`` 429; a code two apps
raise is declared by both, with the same class. The messages are the usual wording; a raise may
say more. Nothing is read from the source at run time: ``tests/codes_scan.py`` reads it in the
tests, and ``tests/tabletop/test_error_catalogue.py`` fails when a code raised in an app is not
declared by it (or with another class), or a declared code is raised nowhere.
"""

from __future__ import annotations

from functools import cache
from importlib import import_module
from types import ModuleType

from django.apps import AppConfig, apps
from django.utils.module_loading import module_has_submodule

from tabletop.errors import TabletopError


def codes_of(config: AppConfig) -> ModuleType | None:
    """The ``codes`` module of the app ``config`` (None: the app raises no code)."""
    if not module_has_submodule(config.module, "codes"):
        return None
    return import_module(f"{config.name}.codes")


@cache
def catalogue() -> dict[str, tuple[type[TabletopError], str]]:
    """Every code of every installed app (``codes.CODES``), sorted: ``{code: (class,
    message)}``; for a code several apps declare, the message of the first app in
    ``INSTALLED_APPS``. Call it once the apps are loaded (``AppRegistryNotReady`` before).
    Raises ``ValueError`` when two apps declare a code with different classes."""
    found: dict[str, tuple[type[TabletopError], str]] = {}
    for config in apps.get_app_configs():
        module = codes_of(config)
        for code, (cls, message) in getattr(module, "CODES", {}).items():
            if code in found and found[code][0] is not cls:
                raise ValueError(
                    f"{code!r} is a {found[code][0].__name__} and, in {config.name}, a "
                    f"{cls.__name__}: one class (one HTTP status) per code"
                )
            found.setdefault(code, (cls, message))
    return dict(sorted(found.items()))
