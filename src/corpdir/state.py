"""What corpdir remembers between runs (chosen theme, recent lookups per profile): a small
JSON file in the platformdirs state dir, written atomically so a crash never leaves half a
file."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any, Callable

from corpdir.paths import state_dir

RECENT_LOOKUPS_KEPT = 50


def state_path() -> Path:
    return state_dir() / "state.json"


class State:
    def __init__(self, path: Path | None = None) -> None:
        self.path = path or state_path()
        try:
            self.data: dict[str, Any] = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            self.data = {}

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)

    def set(self, key: str, value: Any) -> None:
        self.data[key] = value
        self.save()

    def recent_lookups(self, profile: str) -> list[str]:
        """The numbers looked up on this profile (service and key), the latest first: an
        admin session on another service must not list the desk's numbers. The one list
        of earlier versions, whose profile is unknown, is taken over by the first profile
        that asks (on one profile, nothing is lost) and is then gone."""
        key = f"recent_lookups:{profile}"
        if key not in self.data and "recent_lookups" in self.data:
            self.data[key] = self.data.pop("recent_lookups")
            self.save()
        return list(self.data.get(key, []))

    def remember_lookup(self, profile: str, number: str, same: Callable[[str, str], bool] | None = None) -> None:
        """``number`` first; an earlier entry ``same`` says is that number written another
        way ('+81 3-1234-5678' after '03-1234-5678') goes, or the list showed it twice."""
        recent = [n for n in self.recent_lookups(profile) if n != number and not (same and same(n, number))]
        self.set(f"recent_lookups:{profile}", [number, *recent][:RECENT_LOOKUPS_KEPT])

    def forget_lookup(self, profile: str, number: str) -> None:
        self.set(f"recent_lookups:{profile}", [n for n in self.recent_lookups(profile) if n != number])

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".state-")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(self.data, fh, ensure_ascii=False, indent=1)
        os.replace(tmp, self.path)
