"""Names that cannot pass for one another: seats and Guilds alike (pure: no Django).

One cleaning everywhere a player types a name or a table's title (``clean_name``,
``clean_title``): Unicode NFKC, then the invisible format, control and private-use characters
dropped (zero-width space U+200B, word joiner U+2060, soft hyphen, bidi marks and overrides
such as U+202E; a zero-width joiner only survives between two pictographs, where it glues an
emoji sequence such as a family), at most ``MAX_MARKS`` combining marks kept on one letter (a
Vietnamese letter needs two; forty stacked marks draw over the lines above and below), every
run of spaces made one, trimmed. A name with no visible character left (only spaces, fillers such as U+3164 or the
blank braille pattern, or combining marks) is refused with ``RuleViolation("bad_name")``.

Two names clash (``names_clash``) when they would look alike on a 360 px phone: equal after
``name_key``, a skeleton that folds case, accents, apostrophe and quote variants, dashes, drops spaces
and ASCII punctuation ("Anns Ravens" is "Ann's Ravens"), the
Cyrillic and Greek look-alikes of the ``confusables`` library (Unicode's confusables table),
and the Latin look-alikes "0"/"o", "1"/"l"/"i"/"|", "rn"/"m", "vv"/"w"; or equal so once
their emoji and symbols are left out ("Ann's Ravens 🦅" is "Ann's Ravens": a phone without the
emoji's font draws a box, and the log is read by the words); or confusable
character by character under that library. The skeleton is deliberately eager: two names
that merely resemble each other ("Bill" and "Bili") clash too, and the second player picks
another name, which costs less than two seats nobody can tell apart.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import lru_cache

from confusables import is_confusable, normalize

from tabletop.errors import RuleViolation

MAX_NAME = 60  # a seat, and a Guild that names its seat (guilds.rules.GUILD_NAME_MAX)
MAX_TITLE = 80
#: Combining marks kept on one base character (the rest of a run is dropped).
MAX_MARKS = 3

_DROPPED = ("Cf", "Cc", "Co", "Cs", "Cn")
_ZWJ = "\u200d"
# Letters and symbols that draw nothing (Unicode's default-ignorable fillers and blanks).
_BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e\u17b4\u17b5\u034f\u2028\u2029")
# Variants a phone draws like the ASCII sign; the confusables table misses some of them.
_FOLD = {
    **dict.fromkeys("’‘‛ʼʻʽʹ`´′‵ˊˋ＇׳ꞌ", "'"),
    **dict.fromkeys('"“”„‟″‶«»〃＂״', "''"),
    **dict.fromkeys("‐‑‒–—―−⁃﹘﹣－ー⸺⸻", "-"),
    **dict.fromkeys("0", "o"),
    **dict.fromkeys("1i|ıǀ", "l"),
}
_ASCII_PAIRS = (("rn", "m"), ("vv", "w"))
_NO_PUNCTUATION = str.maketrans("", "", "!\"#$%&'()*+,-./:;<>=?@[]\\^_`{}~")


def _pictograph(ch: str) -> bool:
    return unicodedata.category(ch) == "So" or ch == "\ufe0f"


def tidy_name(name) -> str:
    """``name`` NFKC-normalised, without invisible format/control characters, single spaces,
    trimmed; possibly empty (``clean_name`` refuses that)."""
    text = unicodedata.normalize("NFKC", str(name or ""))
    kept: list[str] = []
    marks = 0
    for i, ch in enumerate(text):
        if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me"):
            marks += 1
            if marks > MAX_MARKS:
                continue
        else:
            marks = 0
        if ch == _ZWJ:
            after = text[i + 1 : i + 2]
            if kept and after and _pictograph(kept[-1]) and _pictograph(after):
                kept.append(ch)
            continue
        if unicodedata.category(ch) in _DROPPED or ch in _BLANKS:
            continue
        kept.append(ch)
    return " ".join("".join(kept).split())


def has_visible(text: str) -> bool:
    """True when ``text`` draws at least one thing: a character that is not a space, a mark
    (which only decorates the one before it) or a blank filler."""
    return any(
        unicodedata.category(ch)[0] not in "ZMC" and ch not in _BLANKS and ch != _ZWJ for ch in text
    )


def clean_name(name, *, what: str = "your seat", limit: int = MAX_NAME) -> str:
    """``name`` as it will be shown and stored (see the module docstring): 1..``limit``
    characters with at least one visible. ``what`` names the thing in the message ("your
    seat", "your Guild"). Raises ``RuleViolation("bad_name")`` when nothing visible is left or
    it is too long."""
    clean = tidy_name(name)
    if not has_visible(clean):
        raise RuleViolation(
            "bad_name",
            f"Please give a name for {what}: one with letters, digits or signs you can see.",
        )
    if len(clean) > limit:
        raise RuleViolation("bad_name", f"Names are at most {limit} characters.")
    return clean


def clean_title(title, *, limit: int = MAX_TITLE) -> str:
    """A table's title as it will be shown and stored: ``tidy_name`` cut to ``limit``
    characters; ``""`` when nothing visible is left (the game's own title is used then).
    Never raises."""
    clean = tidy_name(title)
    return clean[:limit].strip() if has_visible(clean) else ""


@lru_cache(maxsize=4096)
def _fold_char(ch: str) -> str:
    if ch in _FOLD:
        return _FOLD[ch]
    if ch.isascii():
        return ch
    bare = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
    if bare and bare.isascii():
        return "".join(_FOLD.get(c, c) for c in bare.casefold())
    guess = normalize(ch, prioritize_alpha=True)[0]
    if guess.isascii():
        return "".join(_FOLD.get(c, c) for c in guess.casefold())
    return bare or ch


def name_key(name) -> str:
    """The skeleton two look-alike names share (module docstring): lower case, ASCII where a
    look-alike exists, no spaces (a zero-width character or a missing space between two words
    must not make a new name: "Ann'sBlades" is "Ann's Blades"), no ASCII punctuation unless
    the name is nothing else ("Anns Blades" is "Ann's Blades" too). Never raises; ``""`` for an
    invisible name."""
    text = tidy_name(name).replace(_ZWJ, "").replace("\ufe0f", "").casefold()
    key = "".join(_fold_char(ch) for ch in text)
    for pair, one in _ASCII_PAIRS:
        key = key.replace(pair, one)
    key = "".join(key.split())
    # Punctuation is a mark a tired eye skips: "Anns Ravens" is "Ann's Ravens", "A-Team" is
    # "A Team". A name of punctuation only keeps it (else every such name would be one).
    bare = key.translate(_NO_PUNCTUATION)
    return bare or key


def plain_key(name) -> str:
    """``name_key`` of ``name`` without its pictographs (emoji, symbols, their joiners and
    variation selectors): "Ann's Ravens 🦅" and "Ann's Ravens" read alike on a phone without
    that emoji's font, and a log line ("Ann's Ravens 🦅 passes") is told apart by the words.
    ``""`` when nothing but pictographs is left (such a name keeps its own ``name_key``)."""
    text = "".join(ch for ch in tidy_name(name) if not _pictograph(ch) and ch != _ZWJ)
    return name_key(text) if text.strip() else ""


def _keys(name) -> set[str]:
    return {k for k in (name_key(name), plain_key(name)) if k}


def names_clash(a: str, b: str) -> bool:
    """True when ``a`` and ``b`` would look alike at the table (see the module docstring)."""
    if _keys(a) & _keys(b):
        return True
    ta, tb = tidy_name(a), tidy_name(b)
    return is_confusable(ta.casefold(), tb.casefold()) or is_confusable(ta, tb)


def first_clash(name: str, others: Iterable[str]) -> str | None:
    """The first of ``others`` that ``name`` would be mistaken for, or ``None``. Compares
    skeletons first (cheap), then character by character only for names of similar length."""
    keys = _keys(name)
    rest = []
    for other in others:
        if keys & _keys(other):
            return other
        rest.append(other)
    size = len(tidy_name(name))
    for other in rest:
        if abs(len(tidy_name(other)) - size) <= 2 and names_clash(name, other):
            return other
    return None
