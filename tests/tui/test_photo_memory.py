"""Photos cost memory in proportion to the cells they fill, not to the pixels they declare:
a photo over the pixel limit is refused from its header (shown as a sentence, never
decoded), and a large JPEG under it is decoded at a reduced scale (Image.draft)."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import zlib

import pytest
from PIL import Image
from textual.app import App, ComposeResult

from corpdir.service.images import ImageTooLarge, NotAnImage, read_jpeg
from corpdir.tui.widgets.photo import PhotoView, render_pixels


def jpeg(width: int, height: int) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (200, 120, 40)).save(out, "JPEG", quality=60)
    return out.getvalue()


def declaring(width: int, height: int) -> bytes:
    """A small JPEG whose header (SOF0) declares ``width`` x ``height``: what a hostile or
    broken service can send in a few kilobytes."""
    data = bytearray(jpeg(64, 64))
    sof = data.index(b"\xff\xc0")
    data[sof + 5:sof + 9] = height.to_bytes(2, "big") + width.to_bytes(2, "big")
    return bytes(data)


def test_a_photo_over_the_pixel_limit_is_refused_from_its_header():
    with pytest.raises(ImageTooLarge, match="13000x13000 pixels"):
        render_pixels(declaring(13000, 13000), 40, 20)


def test_an_upload_over_the_pixel_limit_is_refused_before_sending(tmp_path):
    path = tmp_path / "huge.jpg"
    path.write_bytes(declaring(13000, 13000))
    with pytest.raises(NotAnImage, match="13000x13000 pixels: at most 40,000,000 pixels"):
        read_jpeg(path)
    png = tmp_path / "huge.png"
    def chunk(kind: bytes, data: bytes) -> bytes:
        return len(data).to_bytes(4, "big") + kind + data + zlib.crc32(kind + data).to_bytes(4, "big")

    png.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", (9000).to_bytes(4, "big") * 2 + bytes([8, 2, 0, 0, 0]))
                    + chunk(b"IDAT", b"") + chunk(b"IEND", b""))  # a PNG declaring 9000x9000
    with pytest.raises(NotAnImage, match="9000x9000 pixels"):
        read_jpeg(png)


class OnePhoto(App):
    def compose(self) -> ComposeResult:
        yield PhotoView(cells=(40, 20))


async def test_the_photo_pane_says_why_instead_of_decoding():
    app = OnePhoto()
    async with app.run_test(size=(80, 24)) as pilot:
        view = app.query_one(PhotoView)
        await view.show(declaring(13000, 13000))
        await pilot.pause()
        assert "not shown: the image is 13000x13000 pixels" in str(view.render())


def test_a_large_jpeg_is_decoded_at_the_scale_it_is_shown(tmp_path):
    """6000x4000 (24 Mpx, 72 MB as RGB) shown in 40x20 cells: the process's peak memory grows
    by a few MB, not by the full decode."""
    path = tmp_path / "big.jpg"
    path.write_bytes(jpeg(6000, 4000))
    code = ("import resource, sys, pathlib; import PIL.Image, rich_pixels\n"
            "from corpdir.tui.widgets.photo import render_pixels\n"
            "data = pathlib.Path(sys.argv[1]).read_bytes()\n"
            "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
            "picture = render_pixels(data, 40, 20)\n"
            "after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
            "print(picture.width, (after - before) // 1024)")
    result = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, env=os.environ,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    width, grown_mib = map(int, result.stdout.split())
    assert width == 40  # 3:2 in 40x40 pixels: 40x27
    assert grown_mib < 20, f"peak RSS grew by {grown_mib} MiB"
