"""What a hostile image costs the server, over real HTTP against
`corpdir server` in a process of its own, measured by its peak resident memory (VmHWM):
a progressive JPEG is decoded whole before it can be scaled down to a thumbnail."""

from __future__ import annotations

import io
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
from PIL import Image

from tests.server.conftest import error_of
from tests.server.served import Served

ADMIN = {"Authorization": "Bearer demo-admin", "Content-Type": "image/jpeg"}


def _progressive(side: int, subsampling: int) -> bytes:
    """A smooth gradient: small as a file, ``side`` x ``side`` pixels once decoded."""
    out = io.BytesIO()
    Image.linear_gradient("L").resize((side, side)).convert("RGB").save(
        out, "JPEG", progressive=True, quality=30, subsampling=subsampling)
    return out.getvalue()


def test_a_progressive_6320_pixel_square_is_refused_naming_the_limit(serve: Any):
    served: Served = serve("--demo", "--size", "20", "--no-rate-limit")
    assert served.get("/users/1", headers=ADMIN).status_code == 200
    jpeg = _progressive(6320, 2)  # ~235 KB, 4:2:0: +119 MB to decode for a thumbnail
    assert len(jpeg) < 300_000
    served.reset_peak()
    r = httpx.put(f"{served.url}/users/1/photo", content=jpeg, headers=ADMIN, timeout=60)
    assert r.status_code == 413, r.text
    assert "16,000,000 pixels" in error_of(r)["message"] and "progressive" in error_of(r)["message"]
    assert served.rss_mb("VmHWM") - served.rss_mb() < 20  # refused from its header


def test_ten_progressive_uploads_at_once_cost_two_decodes(serve: Any):
    served: Served = serve("--demo", "--size", "20", "--no-rate-limit")
    assert served.get("/users/1", headers=ADMIN).status_code == 200
    jpeg = _progressive(3900, 0)  # 15.2 Mpx, 4:4:4: under the limit, ~90 MB of coefficients to decode

    def upload(user_id: int) -> int:
        return httpx.put(f"{served.url}/users/{user_id}/photo", content=jpeg, headers=ADMIN, timeout=300).status_code

    assert upload(1) == 204  # warm-up
    start = served.rss_mb()
    served.reset_peak()
    with ThreadPoolExecutor(10) as pool:
        assert list(pool.map(upload, range(1, 11))) == [204] * 10
    assert served.rss_mb("VmHWM") - start < 300, (start, served.rss_mb("VmHWM"))  # ten decodes at once: ~900 MB
    thumb = httpx.get(f"{served.url}/users/7/photo", params={"size": "THUMBNAIL"}, headers=ADMIN, timeout=60)
    assert thumb.status_code == 200 and Image.open(io.BytesIO(thumb.content)).size == (160, 160)
