"""Tables and keys of the config file that no setting has: ``[servce]``, ``base_ulr``.

A section that ignores keys it does not know (``[service]``, ``[ui]``, ``[calls]``,
``[gateway]``, ``[ssh]``) would otherwise drop a typo without a word, and the user would
wonder why the gateway still listens on 8765. Each one is a warning on stderr (logger
``corpdir.config``) naming the file, the line, the table and key, and the nearest known
name; the start goes on, as it does for a config file others can read. The sections that
refuse unknown keys (``[messages]``, a feed, the dialer) name them as mistakes instead, with
the same suggestion (:func:`suggestion`). ``[keymap]`` is the app's to check.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any, Iterable

from pydantic import BaseModel

_said: set[str] = set()  # each warning once a process: a command may load the settings twice


def suggestion(name: str, known: Iterable[str], shown: str = "{}") -> str:
    """``did you mean base_url?`` for the nearest of ``known``, else the names it could be
    (each written as ``shown``: ``[{}]`` for a table). difflib is imported here: most
    starts have no typo to suggest for."""
    import difflib

    known = sorted(known)
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    if close:
        return f"did you mean {shown.format(close[0])}?"
    return "known: " + ", ".join(shown.format(name) for name in known)


def unknown(tables: dict[str, Any], sections: dict[str, Any]) -> list[tuple[str, str | None, str]]:
    """(table, key or None for the table itself, suggestion) for each table of the file that
    is no section, and each key of a section that ignores unknown keys that is no setting
    (``sections``: each table's type; a plain table's, ``[keymap]``'s, is not checked)."""
    found: list[tuple[str, str | None, str]] = []
    for table, values in tables.items():
        model = sections.get(table)
        if table not in sections:
            found.append((table, None, suggestion(table, sections, "[{}]")))
        elif _ignores_unknown(model) and isinstance(values, dict):
            found += [(table, key, suggestion(key, model.model_fields)) for key in values if key not in model.model_fields]
    return found


def known_at(model: Any, where: Iterable[str | int]) -> set[str]:
    """The keys the table at ``where`` (pydantic's error location below ``model``: field
    names, list indexes, a tagged union's tag) takes: what a refused key is compared with."""
    models = {model}
    for part in where:
        if isinstance(part, int):
            continue
        fields = [m.model_fields[part] for m in models if part in m.model_fields]
        if fields:
            models = {m for field in fields for m in _models(field.annotation)}
        else:  # a tagged union's member, named by its tag (``baresip``)
            models = {m for m in models if "kind" in m.model_fields and part in m.model_fields["kind"].annotation.__args__}
    return {name for m in models for name in m.model_fields}


def _models(annotation: Any) -> set[type[BaseModel]]:
    """The models in a field's type (``list[A | B] | None`` gives A and B)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return {annotation}
    return {m for arg in getattr(annotation, "__args__", ()) for m in _models(arg)}


def _ignores_unknown(model: Any) -> bool:
    return isinstance(model, type) and issubclass(model, BaseModel) and model.model_config.get("extra") == "ignore"


def _line(text: str, table: str, key: str | None) -> int | None:
    """The line of the file that sets ``[table] key`` (or opens ``[table]``), if written the
    plain way (``[table]`` then ``key = ...``, or ``table.key = ...`` at the top)."""
    current = ""
    for number, line in enumerate(text.splitlines(), 1):
        header = re.match(r"\s*\[\[?\s*([^\]]+?)\s*\]", line)
        if header:
            current = header.group(1).split(".")[0].strip('"')
            if key is None and current == table:
                return number
            continue
        name = re.match(r"\s*([\w\".-]+)\s*=", line)
        if name:
            parts = [p.strip('"') for p in name.group(1).split(".")]
            where = [current, *parts] if current else parts
            if where[:2] == [table, key] or (key is None and where[0] == table):
                return number
    return None


def warn_unknown(path: Path, tables: dict[str, Any], sections: dict[str, Any]) -> None:
    """Warns once a process about each unknown table and key of the file at ``path``
    (``tables``: as read); the file is read again for the lines only when there is one."""
    found = unknown(tables, sections)
    try:
        text = path.read_text(encoding="utf-8-sig") if found else ""
    except (OSError, ValueError):  # replaced since it was read: the warning goes without its line
        text = ""
    for table, key, hint in found:
        line = _line(text, table, key)
        where = f"{path}, line {line}" if line else path
        what = f"[{table}] {key}: no such setting" if key else f"[{table}]: no such table"
        message = f"{where}: {what}, ignored ({hint})"
        if message not in _said:
            _said.add(message)
            logging.getLogger("corpdir.config").warning("corpdir: %s", message)


def warn_unknown_variables(environment: Iterable[str], exact: Iterable[str], any_case: Iterable[str]) -> None:
    """Warns once a process about each ``CORPDIR_*`` variable of ``environment`` (its names)
    that corpdir does not read: ``CORPDIR_BASEURL=...`` was dropped without a word, the app
    starting on the embedded demo. ``exact``: names read as written (the service's, the
    places); ``any_case``: names read in any case (a section's, ``CORPDIR_UI_THEME``)."""
    exact, upper = set(exact), {name.upper() for name in any_case}
    for name in sorted(environment):
        if not name.upper().startswith("CORPDIR_") or name in exact or name.upper() in upper:
            continue
        import difflib

        # compared without the prefix all share, which made FOO look like REGION
        close = difflib.get_close_matches(name.upper()[8:], sorted(known[8:] for known in exact | upper), n=1, cutoff=0.6)
        message = f"{name}: no such variable, ignored" + (f" (did you mean CORPDIR_{close[0]}?)" if close else "")
        if message not in _said:
            _said.add(message)
            logging.getLogger("corpdir.config").warning("corpdir: %s", message)
