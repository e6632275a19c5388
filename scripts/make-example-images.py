#!/usr/bin/env python3
"""Write the example content tree's PNG images.

Usage: make-example-images.py [OUTPUT_DIR]   (default: content/images at the repo root)

Every image is an 8-bit RGB PNG (colour type 2): no alpha channel, no tRNS chunk, so
it passes Apple's "no transparency" rule. Full-size images are 3840 px wide, bullet
icons 1024 x 1024 px, as Apple requires. Shapes are flat and drawn row by row, and each
row is filtered with "Up" when it repeats the row above and "Sub" otherwise, so zlib
squeezes the files down to a few kilobytes (deflate cannot go below ~1/1000 of the raw
pixels, so a 3840 x 1280 image still takes ~15 KB).

Only the standard library is used, and the output is byte-for-byte deterministic: no
timestamps, no text chunks, fixed zlib level.
"""

import math
import struct
import sys
import zlib
from pathlib import Path

# ---------------------------------------------------------------------------
# PNG writing
# ---------------------------------------------------------------------------


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (struct.pack(">I", len(data)) + kind + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))


def encode_png(width: int, height: int, rows) -> bytes:
    """rows yields `height` bytes objects of width*3 RGB bytes each."""
    raw = bytearray()
    previous = None
    for row in rows:
        assert len(row) == width * 3, "row has the wrong length"
        if row == previous:
            raw += b"\x02" + bytes(len(row))          # filter Up: all zeros
        else:
            sub = bytearray(len(row))                 # filter Sub
            sub[:3] = row[:3]
            for i in range(3, len(row)):
                sub[i] = (row[i] - row[i - 3]) & 0xFF
            raw += b"\x01" + sub
        previous = row
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB, no interlace
    return (b"\x89PNG\r\n\x1a\n"
            + _chunk(b"IHDR", ihdr)
            + _chunk(b"IDAT", zlib.compress(bytes(raw), 9))
            + _chunk(b"IEND", b""))


# ---------------------------------------------------------------------------
# A tiny scanline rasteriser: every shape gives, for a row y, the half-open
# pixel spans [x0, x1) it covers (sampled at pixel centres).
# ---------------------------------------------------------------------------


class Rect:
    def __init__(self, x0, y0, x1, y1, colour):
        self.x0, self.y0, self.x1, self.y1, self.colour = x0, y0, x1, y1, colour

    def spans(self, y):
        yc = y + 0.5
        if self.y0 <= yc < self.y1:
            return [(math.ceil(self.x0 - 0.5), math.floor(self.x1 - 0.5) + 1)]
        return []


class Circle:
    def __init__(self, cx, cy, r, colour, lower_half_only=False, upper_half_only=False):
        self.cx, self.cy, self.r, self.colour = cx, cy, r, colour
        self.lower, self.upper = lower_half_only, upper_half_only

    def spans(self, y):
        dy = y + 0.5 - self.cy
        if abs(dy) >= self.r or (self.lower and dy < 0) or (self.upper and dy > 0):
            return []
        half = math.sqrt(self.r * self.r - dy * dy)
        return [(math.ceil(self.cx - half - 0.5), math.floor(self.cx + half - 0.5) + 1)]


class Polygon:
    """A convex polygon given as a list of (x, y) points."""

    def __init__(self, points, colour):
        self.points, self.colour = points, colour

    def spans(self, y):
        yc = y + 0.5
        xs = []
        n = len(self.points)
        for i in range(n):
            (xa, ya), (xb, yb) = self.points[i], self.points[(i + 1) % n]
            if ya == yb or not (min(ya, yb) <= yc < max(ya, yb)):
                continue
            xs.append(xa + (yc - ya) * (xb - xa) / (yb - ya))
        if len(xs) < 2:
            return []
        lo, hi = min(xs), max(xs)
        return [(math.ceil(lo - 0.5), math.floor(hi - 0.5) + 1)]


class RoundRect:
    def __init__(self, x0, y0, x1, y1, r, colour):
        self.x0, self.y0, self.x1, self.y1, self.r, self.colour = x0, y0, x1, y1, r, colour

    def spans(self, y):
        yc = y + 0.5
        if not (self.y0 <= yc < self.y1):
            return []
        inset = 0.0
        if yc < self.y0 + self.r:
            d = self.y0 + self.r - yc
            inset = self.r - math.sqrt(max(0.0, self.r * self.r - d * d))
        elif yc > self.y1 - self.r:
            d = yc - (self.y1 - self.r)
            inset = self.r - math.sqrt(max(0.0, self.r * self.r - d * d))
        return [(math.ceil(self.x0 + inset - 0.5), math.floor(self.x1 - inset - 0.5) + 1)]


def thick_line(x0, y0, x1, y1, width, colour):
    """A stroke with round caps: a quad plus two circles."""
    dx, dy = x1 - x0, y1 - y0
    length = math.hypot(dx, dy)
    nx, ny = -dy / length * width / 2, dx / length * width / 2
    return [
        Polygon([(x0 + nx, y0 + ny), (x1 + nx, y1 + ny), (x1 - nx, y1 - ny), (x0 - nx, y0 - ny)], colour),
        Circle(x0, y0, width / 2, colour),
        Circle(x1, y1, width / 2, colour),
    ]


def render(width, height, background, shapes):
    """background(y) -> colour of row y; shapes are painted in order over it."""
    for y in range(height):
        row = bytearray(bytes(background(y)) * width)
        for shape in shapes:
            pixel = bytes(shape.colour)
            for x0, x1 in shape.spans(y):
                x0, x1 = max(0, x0), min(width, x1)
                if x1 > x0:
                    row[x0 * 3:x1 * 3] = pixel * (x1 - x0)
        yield bytes(row)


def banded(top, bottom, height, bands):
    """A vertical gradient quantised into `bands` flat bands."""
    def colour(y):
        band = min(bands - 1, y * bands // height)
        t = band / (bands - 1)
        return tuple(round(a + (b - a) * t) for a, b in zip(top, bottom))
    return colour


# ---------------------------------------------------------------------------
# The images
# ---------------------------------------------------------------------------

FULL_WIDTH = 3840
ICON = 1024

# Mid-tone colours that read on both light and dark backgrounds.
TEAL = (38, 140, 150)
GREEN = (52, 168, 98)
WHITE = (250, 250, 247)
CREAM = (255, 236, 200)
SUN = (255, 196, 84)
INK = (40, 52, 74)
CORAL = (236, 112, 92)
PLUM = (120, 88, 170)
SKY_TOP, SKY_BOTTOM = (66, 96, 168), (246, 172, 120)


def streak_hero():
    """3840 x 1280: a winding path of lesson cards climbing towards a sun."""
    w, h = FULL_WIDTH, 1280
    shapes = [
        Circle(3000, 430, 260, SUN),
        Circle(3000, 430, 180, CREAM),
        Rect(0, 1010, w, h, (58, 74, 110)),          # ground
        Rect(0, 1040, w, h, (48, 62, 96)),
    ]
    # Cards on a rising, gently curving path from bottom left to the sun.
    for i in range(9):
        t = i / 8
        cx = 420 + t * 2300
        cy = 960 - t * 520 - 90 * math.sin(t * math.pi * 2)
        size = 220 - i * 12
        colour = WHITE if i % 2 == 0 else CREAM
        shapes.append(RoundRect(cx - size, cy - size * 0.62, cx + size, cy + size * 0.62, 36, colour))
        shapes.append(Rect(cx - size * 0.6, cy - 12, cx + size * 0.6, cy + 12, TEAL))
    return w, h, banded(SKY_TOP, SKY_BOTTOM, h, 16), shapes


def family_hero():
    """3840 x 960: three figures of different heights standing side by side."""
    w, h = FULL_WIDTH, 960
    shapes = []
    for cx, head_y, r, colour in ((1480, 300, 115, CORAL), (1920, 210, 135, PLUM), (2340, 470, 95, SUN)):
        half_width = r * 1.55
        shapes.append(RoundRect(cx - half_width, head_y + r * 1.3, cx + half_width, 1200, half_width * 0.8, colour))
        shapes.append(Circle(cx, head_y, r, WHITE))
    shapes.append(Rect(0, 820, w, h, (34, 98, 106)))  # ground, over the figures' feet
    return w, h, banded((24, 120, 132), (250, 214, 160), h, 12), shapes


def icon(background, shapes):
    return ICON, ICON, (lambda y: background), shapes


def check_icon():
    return icon(INK, [Circle(512, 512, 400, GREEN)]
                + thick_line(330, 530, 460, 660, 96, WHITE)
                + thick_line(460, 660, 720, 380, 96, WHITE))


def offline_icon():
    shapes = [RoundRect(112, 112, 912, 912, 180, TEAL),
              Rect(462, 230, 562, 560, WHITE),
              Polygon([(332, 520), (692, 520), (512, 700)], WHITE),
              Rect(272, 740, 752, 800, WHITE),
              Rect(272, 620, 332, 800, WHITE),
              Rect(692, 620, 752, 800, WHITE)]
    return icon(INK, shapes)


def speak_icon():
    shapes = [RoundRect(150, 200, 874, 700, 140, CORAL),
              Polygon([(300, 650), (480, 650), (260, 860)], CORAL)]
    for x in (352, 512, 672):
        shapes.append(Circle(x, 450, 52, WHITE))
    return icon(INK, shapes)


def family_icon():
    shapes = [Circle(512, 512, 400, PLUM)]
    for cx, cy, r in ((340, 475, 70), (684, 475, 70), (512, 510, 56)):
        shapes.append(Circle(cx, cy + r * 2.5, r * 1.7, WHITE, upper_half_only=True))
        shapes.append(Circle(cx, cy, r, WHITE))
    return icon(INK, shapes)


IMAGES = {
    "streak-hero.png": streak_hero,
    "family-hero.png": family_hero,
    "icons/check.png": check_icon,
    "icons/offline.png": offline_icon,
    "icons/speak.png": speak_icon,
    "icons/family.png": family_icon,
}


def main(argv):
    if len(argv) > 2:
        sys.exit("usage: make-example-images.py [OUTPUT_DIR]")
    out = Path(argv[1]) if len(argv) == 2 else Path(__file__).resolve().parent.parent / "content" / "images"
    for name, make in IMAGES.items():
        width, height, background, shapes = make()
        data = encode_png(width, height, render(width, height, background, shapes))
        path = out / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        print(f"{path}: {width}x{height}, {len(data)} bytes")


if __name__ == "__main__":
    main(sys.argv)
