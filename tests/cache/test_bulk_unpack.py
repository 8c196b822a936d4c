"""One pass over every record (an LDIF export) reads the records the cache's codec reads,
whichever way each was stored: with a raw-text or a trained dictionary, larger than the
one-pass buffer, or as plain JSON text."""

from __future__ import annotations

import json
import sqlite3

from corpdir.cache import bulk_unpack
from corpdir.cache import phonebook as reads
from corpdir.cache.blobs import Codec
from corpdir.cache.bulk_unpack import expanding
from corpdir.cache.store import CacheStore


def test_every_record_reads_as_the_codec_reads_it(tmp_path):
    reader, codec, stored = _cache(tmp_path)
    with expanding(reader) as one_pass:
        assert type(one_pass) is not Codec  # this system's libzstd, not the fallback
        assert [one_pass.unpack(blob) for blob in stored] == [codec.unpack(blob) for blob in stored]
    everyone = list(reads.all_records(reader, "user"))
    assert len(everyone) == 62 and {"山田 太郎", "文字 列", "新人 059"} <= {u["fullname"] for u in everyone}
    assert next(u for u in everyone if u["userId"] == 2)["position"] == "部長" * 200_000
    reader.close()


def test_without_the_library_the_codec_reads_every_record(tmp_path, monkeypatch):
    reader, codec, stored = _cache(tmp_path)
    monkeypatch.setattr(bulk_unpack, "_LIB", False)  # as on a system without libzstd
    with expanding(reader) as one_pass:
        assert [one_pass.unpack(blob) for blob in stored] == [codec.unpack(blob) for blob in stored]
    assert len(list(reads.all_records(reader, "user"))) == 62
    reader.close()


def _cache(tmp_path):
    """(a reader, its codec, every user blob) of a cache holding each kind of stored record."""
    path = tmp_path / "cache.sqlite3"
    store = CacheStore(path)
    store.put_users([{"userId": 1, "fullname": "山田 太郎", "phoneNum": "03-1234-5678"}])  # too few to train on
    store.put_users([{"userId": 100 + i, "fullname": f"新人 {i:03d}", "fullnameKana": "シンジン", "extensionNum": f"{7000 + i}",
                      "email1": f"new{i}@example.com"} for i in range(60)])  # a trained dictionary
    store.put_users([{"userId": 2, "fullname": "長い 名前", "position": "部長" * 200_000}])  # 1.2 MB expanded
    store.close()
    conn = sqlite3.connect(path)
    conn.execute("UPDATE users SET data = ? WHERE id = 101", (json.dumps({"userId": 101, "fullname": "文字 列"}),))
    conn.commit()
    conn.close()

    reader = reads.open_reader(path, "JP", mapped=False)
    stored = [blob for (blob,) in reader.execute("SELECT data FROM users")]
    assert {type(b) for b in stored} == {bytes, str} and len({b[0] for b in stored if isinstance(b, bytes)}) == 2
    return reader, Codec(reader), stored
