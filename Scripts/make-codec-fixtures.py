#!/usr/bin/env python3
"""Makes the image-loader test fixtures and their reference decodes.

    apt-get install -y libjpeg-turbo-progs netpbm imagemagick gcc libjpeg-dev
    pip install pillow
    python3 Scripts/make-codec-fixtures.py

Writes Tests/ImageCodecsTests/Fixtures/: each image `NAME.jpg|png` has `NAME.pgm`, the
8-bit luminance that an independent decoder produced (djpeg -grayscale for JPEG,
pngtopam -mix | ppmtopgm | pamdepth 255 for PNG, Pillow's libjpeg for CMYK/YCCK),
and the corrupt corpus under corrupt/. The tests compare against these within ±1.
"""
import shutil
import struct
import subprocess
import tempfile
import zlib
from pathlib import Path

import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "Tests" / "ImageCodecsTests" / "Fixtures"
IM = "/usr/bin/convert"   # ImageMagick itself (some images put a stand-in earlier on PATH)


def run(*args, stdin=None) -> bytes:
    return subprocess.run(args, input=stdin, check=True, capture_output=True).stdout


def colour_pattern(w=40, h=24) -> np.ndarray:
    """Asymmetric RGB test card: gradients, a bright block top-left, a dark bar right."""
    y, x = np.mgrid[0:h, 0:w]
    img = np.stack([x * 255 // (w - 1), y * 255 // (h - 1), (x + y) * 255 // (w + h - 2)], -1)
    img[2:8, 2:12] = [250, 240, 30]
    img[:, w - 6:w - 3] = [20, 30, 160]
    img[h - 5:h - 2, 4:9] = [200, 20, 20]
    return img.astype(np.uint8)


def gray_pattern(w=32, h=16) -> np.ndarray:
    """An asymmetric gray "F" on a gradient, 8-aligned so jpegtran can transform it losslessly."""
    y, x = np.mgrid[0:h, 0:w]
    img = (40 + x * 5 + y * 2).astype(np.uint8)
    img[2:14, 3:6] = 250
    img[2:5, 3:14] = 250
    img[7:9, 3:11] = 250
    return img


def write_pnm(path: Path, arr: np.ndarray, maxval=255):
    kind = "P5" if arr.ndim == 2 else "P6"
    dtype = ">u2" if maxval > 255 else "u1"
    header = f"{kind}\n{arr.shape[1]} {arr.shape[0]}\n{maxval}\n".encode()
    path.write_bytes(header + arr.astype(dtype).tobytes())


def pgm_of_png(png: Path) -> bytes:
    pam = run("pngtopam", "-mix", "-background=white", str(png))
    if pam.startswith(b"P6"):
        pam = run("ppmtopgm", stdin=pam)
    return run("pamdepth", "255", stdin=pam)


def exif_app1(orientation: int, big_endian: bool) -> bytes:
    e = ">" if big_endian else "<"
    tiff = (b"MM" if big_endian else b"II") + struct.pack(e + "HI", 42, 8)
    tiff += struct.pack(e + "H", 1) + struct.pack(e + "HHIHH", 0x0112, 3, 1, orientation, 0)
    tiff += struct.pack(e + "I", 0)
    body = b"Exif\0\0" + tiff
    return b"\xff\xe1" + struct.pack(">H", len(body) + 2) + body


def with_segment(jpeg: bytes, segment: bytes) -> bytes:
    return jpeg[:2] + segment + jpeg[2:]


YCCK_WRITER = r"""
#include <stdio.h>
#include <stdlib.h>
#include <jpeglib.h>
/* ycck OUT W H < raw gray bytes: writes an Adobe YCCK JPEG whose only ink is K. */
int main(int argc, char **argv) {
    int w = atoi(argv[2]), h = atoi(argv[3]);
    unsigned char *gray = malloc(w * h), *row = malloc(w * 4);
    fread(gray, 1, w * h, stdin);
    struct jpeg_compress_struct c; struct jpeg_error_mgr e;
    c.err = jpeg_std_error(&e); jpeg_create_compress(&c);
    FILE *f = fopen(argv[1], "wb"); jpeg_stdio_dest(&c, f);
    c.image_width = w; c.image_height = h; c.input_components = 4;
    c.in_color_space = JCS_CMYK; jpeg_set_defaults(&c);
    jpeg_set_colorspace(&c, JCS_YCCK); jpeg_set_quality(&c, 95, TRUE);
    jpeg_start_compress(&c, TRUE);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {  /* Adobe convention: stored = 255 - ink */
            row[4*x] = row[4*x+1] = row[4*x+2] = 255; row[4*x+3] = gray[y*w+x];
        }
        JSAMPROW r = row; jpeg_write_scanlines(&c, &r, 1);
    }
    jpeg_finish_compress(&c); fclose(f); return 0;
}
"""


def cmyk_reference(path: Path) -> np.ndarray:
    """Pillow (libjpeg) reads the ink values; luminance = R,G,B from ink, Rec. 601."""
    c, m, y, k = (np.asarray(ch, dtype=np.int64) for ch in Image.open(path).split())
    r, g, b = ((255 - v) * (255 - k) for v in (c, m, y))
    return ((r * 299 + g * 587 + b * 114 + 127500) // 255000).astype(np.uint8)


def make_jpegs(tmp: Path):
    colour, gray = colour_pattern(), gray_pattern()
    write_pnm(tmp / "colour.ppm", colour)
    write_pnm(tmp / "gray.pgm", gray)
    variants = {
        "jpeg-gray-baseline": ["-grayscale", "-quality", "90"],
        "jpeg-gray-progressive": ["-grayscale", "-progressive", "-quality", "90"],
        "jpeg-ycbcr-420": ["-sample", "2x2", "-quality", "90"],
        "jpeg-ycbcr-444": ["-sample", "1x1", "-quality", "90"],
        "jpeg-ycbcr-progressive": ["-progressive", "-quality", "85"],
        "jpeg-rgb": ["-rgb", "-quality", "90"],
    }
    for name, flags in variants.items():
        data = run("cjpeg", *flags, str(tmp / "colour.ppm"))
        (OUT / f"{name}.jpg").write_bytes(data)
        (OUT / f"{name}.pgm").write_bytes(run("djpeg", "-grayscale", "-pnm", str(OUT / f"{name}.jpg")))

    # CMYK (ImageMagick writes Adobe-inverted CMYK) and YCCK (libjpeg, Adobe).
    run(IM, str(tmp / "gray.pgm"), "-colorspace", "CMYK", "-quality", "95",
        str(OUT / "jpeg-cmyk-adobe.jpg"))
    write_pnm(OUT / "jpeg-cmyk-adobe.pgm", cmyk_reference(OUT / "jpeg-cmyk-adobe.jpg"))
    (tmp / "ycck.c").write_text(YCCK_WRITER)
    run("gcc", "-O1", "-o", str(tmp / "ycck"), str(tmp / "ycck.c"), "-ljpeg")
    run(str(tmp / "ycck"), str(OUT / "jpeg-ycck-adobe.jpg"), "32", "16",
        stdin=(255 - gray).tobytes())
    write_pnm(OUT / "jpeg-ycck-adobe.pgm", cmyk_reference(OUT / "jpeg-ycck-adobe.jpg"))

    # MPO: two JPEGs back to back, an MPF APP2 in the first; the first image is read.
    first = (OUT / "jpeg-ycbcr-420.jpg").read_bytes()
    second = run("cjpeg", "-grayscale", str(tmp / "gray.pgm"))
    mpf = b"MPF\0" + b"MM\0\x2a\0\0\0\x08" + b"\0\0"
    (OUT / "jpeg-mpo.jpg").write_bytes(
        with_segment(first, b"\xff\xe2" + struct.pack(">H", len(mpf) + 2) + mpf) + second)
    shutil.copy(OUT / "jpeg-ycbcr-420.pgm", OUT / "jpeg-mpo.pgm")

    # EXIF orientation: the stored image is the upright one transformed losslessly by
    # jpegtran with the inverse operation; the reference is the upright decode.
    upright = run("cjpeg", "-grayscale", "-quality", "95", str(tmp / "gray.pgm"))
    (tmp / "upright.jpg").write_bytes(upright)
    (OUT / "jpeg-upright.pgm").write_bytes(run("djpeg", "-grayscale", "-pnm", str(tmp / "upright.jpg")))
    inverse = {1: [], 2: ["-flip", "horizontal"], 3: ["-rotate", "180"],
               4: ["-flip", "vertical"], 5: ["-transpose"], 6: ["-rotate", "270"],
               7: ["-transverse"], 8: ["-rotate", "90"]}
    for value, op in inverse.items():
        stored = run("jpegtran", "-perfect", "-copy", "none", *op, str(tmp / "upright.jpg"))
        (OUT / f"jpeg-exif-{value}.jpg").write_bytes(
            with_segment(stored, exif_app1(value, big_endian=value % 2 == 0)))

    # DCT scaling: references decoded by djpeg at the same scale.
    big = np.kron(gray_pattern(), np.ones((3, 3), dtype=np.uint8))  # 96x48
    write_pnm(tmp / "big.pgm", big)
    (OUT / "jpeg-scaled.jpg").write_bytes(run("cjpeg", "-quality", "90", str(tmp / "big.pgm")))
    for d in (2, 4, 8):
        (OUT / f"jpeg-scaled-1_{d}.pgm").write_bytes(
            run("djpeg", "-grayscale", "-pnm", "-scale", f"1/{d}", str(OUT / "jpeg-scaled.jpg")))


def make_colour_jpegs(tmp: Path):
    """Colour kept beside the luminance (ImageLoadOptions.chromaBlock): the test card four
    times larger, 4:2:0, for DCT scaling; the 4:4:4 card stored a quarter turn back with
    EXIF orientation 6, for the planes' turning. The tests compute the expected chroma
    from the card itself."""
    write_pnm(tmp / "colour-big.ppm", np.kron(colour_pattern(), np.ones((4, 4, 1), dtype=np.uint8)))
    (OUT / "jpeg-colour-scaled.jpg").write_bytes(
        run("cjpeg", "-sample", "2x2", "-quality", "90", str(tmp / "colour-big.ppm")))
    stored = run("jpegtran", "-perfect", "-copy", "none", "-rotate", "270", str(OUT / "jpeg-ycbcr-444.jpg"))
    (OUT / "jpeg-colour-exif-6.jpg").write_bytes(with_segment(stored, exif_app1(6, big_endian=True)))


def make_pngs(tmp: Path):
    colour, gray = colour_pattern(), gray_pattern()
    rgb = Image.fromarray(colour)
    l8 = Image.fromarray(gray)
    alpha = Image.fromarray(np.tile(np.linspace(0, 255, 40).astype(np.uint8), (24, 1)))
    saves = {
        "png-gray1": l8.point(lambda v: 255 if v > 128 else 0).convert("1"),
        "png-gray8": l8,
        "png-gray16": Image.fromarray(gray.astype(np.uint16) * 257),
        "png-graya8": Image.merge("LA", [rgb.convert("L"), alpha]),
        "png-rgb8": rgb,
        "png-rgba8": Image.merge("RGBA", [*rgb.split(), alpha]),
    }
    for name, img in saves.items():
        img.save(OUT / f"{name}.png")
    l8.save(OUT / "png-gray8-trns.png", transparency=int(gray[0, 0]))
    rgb.save(OUT / "png-rgb8-trns.png", transparency=tuple(int(v) for v in colour[0, 0]))
    for bits in (1, 2, 4, 8):
        pal = rgb.quantize(colors=2 ** bits, dither=Image.Dither.NONE)
        pal.save(OUT / f"png-palette{bits}.png", bits=bits)
    pal = rgb.quantize(colors=16, dither=Image.Dither.NONE)
    pal.save(OUT / "png-palette-trns.png", transparency=bytes(range(0, 256, 16)))
    # bit depths and layouts Pillow does not write: netpbm's pnmtopng
    g2 = (gray.astype(np.int64) * 3 // 255).astype(np.uint8)
    write_pnm(tmp / "g2.pgm", g2, maxval=3)
    (OUT / "png-gray2.png").write_bytes(run("pnmtopng", str(tmp / "g2.pgm")))
    g4 = (gray.astype(np.int64) * 15 // 255).astype(np.uint8)
    write_pnm(tmp / "g4.pgm", g4, maxval=15)
    (OUT / "png-gray4.png").write_bytes(run("pnmtopng", str(tmp / "g4.pgm")))
    (OUT / "png-gray4-interlaced.png").write_bytes(run("pnmtopng", "-interlace", str(tmp / "g4.pgm")))
    write_pnm(tmp / "rgb16.ppm", colour.astype(np.uint16) * 257 + 11, maxval=65535)
    (OUT / "png-rgb16.png").write_bytes(run("pnmtopng", str(tmp / "rgb16.ppm")))
    write_pnm(tmp / "a16.pgm", np.asarray(alpha, dtype=np.uint16) * 257, maxval=65535)
    (OUT / "png-rgba16.png").write_bytes(
        run("pnmtopng", "-alpha", str(tmp / "a16.pgm"), str(tmp / "rgb16.ppm")))
    write_pnm(tmp / "c8.ppm", colour)
    (OUT / "png-rgb8-interlaced.png").write_bytes(run("pnmtopng", "-interlace", str(tmp / "c8.ppm")))
    write_pnm(tmp / "a8.pgm", np.asarray(alpha))
    (OUT / "png-rgba8-interlaced.png").write_bytes(
        run("pnmtopng", "-interlace", "-alpha", str(tmp / "a8.pgm"), str(tmp / "c8.ppm")))
    for png in sorted(OUT.glob("png-*.png")):
        png.with_suffix(".pgm").write_bytes(pgm_of_png(png))


def png_chunk(kind: bytes, body: bytes, crc=None) -> bytes:
    crc = zlib.crc32(kind + body) if crc is None else crc
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)


def make_corrupt():
    bad = OUT / "corrupt"
    bad.mkdir(exist_ok=True)
    jpeg = (OUT / "jpeg-ycbcr-420.jpg").read_bytes()
    sos = jpeg.index(b"\xff\xda")
    (bad / "empty.jpg").write_bytes(b"")
    (bad / "jpeg-cut-in-header.jpg").write_bytes(jpeg[:60])
    (bad / "jpeg-cut-before-scan.jpg").write_bytes(jpeg[:sos + 2])
    (bad / "jpeg-cut-early-in-scan.jpg").write_bytes(jpeg[:sos + 40])
    (bad / "jpeg-cut-late-in-scan.jpg").write_bytes(jpeg[:len(jpeg) - 30])
    (bad / "jpeg-soi-only.jpg").write_bytes(jpeg[:3])
    sof = jpeg.index(b"\xff\xc0")
    huge = bytearray(jpeg)
    huge[sof + 5:sof + 9] = struct.pack(">HH", 60000, 60000)
    (bad / "jpeg-60000x60000.jpg").write_bytes(bytes(huge))
    png = (OUT / "png-rgb8.png").read_bytes()
    (bad / "png-bad-crc.png").write_bytes(png[:29] + bytes([png[29] ^ 0xFF]) + png[30:])
    ihdr = struct.pack(">IIBBBBB", 60000, 60000, 8, 0, 0, 0, 0)
    idat = png_chunk(b"IDAT", zlib.compress(b"\0" * 100))
    (bad / "png-60000x60000.png").write_bytes(
        b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + idat + png_chunk(b"IEND", b""))
    (bad / "png-truncated.png").write_bytes(png[:len(png) // 2])
    (bad / "wrong-magic.jpg").write_bytes(b"GIF89a" + jpeg[6:])
    (bad / "random.bin").write_bytes(np.random.default_rng(7).integers(0, 256, 4096, dtype=np.uint8).tobytes())


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as t:
        make_jpegs(Path(t))
        make_colour_jpegs(Path(t))
        make_pngs(Path(t))
    make_corrupt()
    print(f"fixtures written to {OUT}")


if __name__ == "__main__":
    main()
