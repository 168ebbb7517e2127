#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""png_not_blank.py FILE.png: exit 0 when the PNG decodes and shows a picture, 1 when it is
blank (one colour, or nearly so) or not a PNG Chromium writes (8-bit RGB or RGBA). The
standard library only: zlib for the data, the five PNG row filters undone by hand."""
import struct
import sys
import zlib


def rows(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, width = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or colour not in (2, 6) or interlace:
                raise ValueError(f"unexpected PNG format (bit depth {depth}, colour type {colour}, interlace {interlace})")
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
    raw = zlib.decompress(idat)
    stride = width * bpp
    prev = bytearray(stride)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif f == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, prev))
        elif f == 3:
            for i in range(stride):
                line[i] = (line[i] + ((line[i - bpp] if i >= bpp else 0) + prev[i]) // 2) & 255
        elif f == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b, c = prev[i], (prev[i - bpp] if i >= bpp else 0)
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        yield width, bpp, line
        prev = line


def main():
    colours, pixels, background, off = set(), 0, None, 0
    for width, bpp, line in rows(sys.argv[1]):
        for x in range(0, width * bpp, bpp * 4):  # every 4th pixel is plenty
            px = bytes(line[x:x + 3])
            background = background or px
            colours.add(px)
            pixels += 1
            off += px != background
    share = off / max(pixels, 1)
    print(f"{sys.argv[1]}: {len(colours)} colours, {100 * share:.1f}% of the sampled pixels differ from the first")
    return 0 if len(colours) >= 8 and share >= 0.01 else 1


if __name__ == "__main__":
    sys.exit(main())
