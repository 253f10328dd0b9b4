#!/usr/bin/env python3
"""Writes the PWA's maskable icons (frontend/static/frontend/icon-maskable-{192,512}.png) from
the design of icon.svg: three rings on the page colour. A maskable icon is cut by the phone to a
circle, a squircle or a rounded square; only the centre circle of radius 40 % is sure to stay
(the "safe zone"), so the rings are drawn at 70 % of their size in icon.svg (outer ring radius
28 % of the icon) on a background that fills the whole square. Standard library only (zlib);
run it again after changing icon.svg: ``python3 bin/make-icons.py``."""

import struct
import zlib
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "frontend" / "static" / "frontend"
BACKGROUND = (0x14, 0x16, 0x1B)
ACCENT = (0xE0, 0xA4, 0x3A)
# icon.svg, viewBox 100: circles r=40 accent, r=34 background, r=28 accent.
RINGS = ((40, ACCENT), (34, BACKGROUND), (28, ACCENT))
SCALE = 0.70


def colour_at(x: float, y: float, size: int) -> tuple[int, int, int]:
    """The antialiased colour of the pixel whose centre is (x, y) in a ``size`` icon."""
    unit = size / 100
    r = ((x - size / 2) ** 2 + (y - size / 2) ** 2) ** 0.5 / unit / SCALE
    colour = BACKGROUND
    for radius, fill in RINGS:
        # coverage of the disc of ``radius`` at distance r, one pixel of soft edge
        edge = 1 / unit / SCALE
        cover = min(1.0, max(0.0, (radius - r) / edge + 0.5))
        if cover > 0:
            colour = tuple(
                round(c * (1 - cover) + f * cover) for c, f in zip(colour, fill, strict=True)
            )
    return colour


def png(size: int) -> bytes:
    rows = []
    for j in range(size):
        row = bytearray([0])  # filter: none
        for i in range(size):
            row.extend(colour_at(i + 0.5, j + 0.5, size))
        rows.append(bytes(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)  # 8-bit RGB
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"".join(rows), 9))
        + chunk(b"IEND", b"")
    )


if __name__ == "__main__":
    for size in (192, 512):
        path = OUT / f"icon-maskable-{size}.png"
        path.write_bytes(png(size))
        print(path)
