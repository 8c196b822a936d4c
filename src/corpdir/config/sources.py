"""Where :func:`corpdir.config.load_settings` takes its values from, before pydantic checks
them: the ``CORPDIR_<SECTION>_<KEY>`` variables of each section, and their merge with the
flags, the service's values and the config file.

It reads the environment as pydantic-settings' ``EnvSettingsSource`` did for corpdir's
sections (docs/decisions.md, "The settings without pydantic-settings"): the variable's
name in any case; a field that holds a list, a table or a model is JSON; a field that may
also be something else (``dialer``: a table or nothing) keeps the text when it is not JSON,
and the model's check then names what is wrong. JSON keys are taken as written.
"""

from __future__ import annotations

import json
import os
import types
import typing
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, get_args, get_origin

from pydantic import BaseModel

from corpdir.paths import SettingsError

_COMPLEX = (BaseModel, Mapping, Sequence, tuple, set, frozenset)


def _bare(annotation: Any) -> Any:
    """``annotation`` without ``Annotated[...]`` around it."""
    while get_origin(annotation) is Annotated:
        annotation = get_args(annotation)[0]
    return annotation


def _is_union(annotation: Any) -> bool:
    return get_origin(annotation) in (typing.Union, types.UnionType)


def _complex(annotation: Any) -> bool:
    """A list, a table or a model: written as JSON in a variable."""
    annotation = _bare(annotation)
    for kind in (annotation, get_origin(annotation)):
        if isinstance(kind, type) and not issubclass(kind, (str, bytes)) and issubclass(kind, _COMPLEX):
            return True
    return False


def _maybe_complex(annotation: Any) -> bool:
    """A union with a list, a table or a model among its members (at any depth)."""
    return _is_union(annotation) and any(_complex(arg) or _maybe_complex(_bare(arg)) for arg in get_args(annotation))


def section_from_environment(section: str, prefix: str, model: type[BaseModel], environment: Mapping[str, str]) -> dict[str, Any]:
    """The values of ``model``'s fields found in ``environment`` (its names in lower case)
    under ``prefix``: text, or what the JSON says for a list, a table or a model.

    Raises :class:`SettingsError` (``[gateway] allow: ...``) for text that must be JSON and
    is not."""
    values: dict[str, Any] = {}
    for name, field in model.model_fields.items():
        value: Any = environment.get(f"{prefix}{name}".lower())
        if value is None:
            continue
        strict = _complex(field.annotation)
        if strict or _maybe_complex(_bare(field.annotation)):
            try:
                value = json.loads(value)
            except ValueError as exc:
                if strict:
                    # the value is not shown: a feed's JSON may hold a secret
                    raise SettingsError(f"[{section}] {name}: {prefix}{name.upper()} is not valid JSON (a list or a "
                                        f"table in a variable is written as JSON): {exc}") from None
        if value is not None:  # JSON's null says nothing: the next source speaks
            values[name] = value
    return values


def sections_from_environment(sections: Mapping[str, tuple[str, type[BaseModel]]]) -> dict[str, Any]:
    """``CORPDIR_<SECTION>_<KEY>`` for each of ``sections`` (name -> (prefix, model)) that
    has any."""
    environment = {name.lower(): value for name, value in os.environ.items()}
    found = {section: section_from_environment(section, prefix, model, environment)
             for section, (prefix, model) in sections.items()}
    return {section: values for section, values in found.items() if values}


def merged(*sources: Mapping[str, Any]) -> dict[str, Any]:
    """``sources``, strongest first, merged table by table at every depth: a key one
    source sets replaces a weaker one's value (a list whole), and the weaker tables' other
    keys stay."""
    result: dict[str, Any] = {}
    for source in reversed(sources):
        result = _updated(result, source)
    return result


def _updated(base: dict[str, Any], update: Mapping[str, Any]) -> dict[str, Any]:
    result = dict(base)
    for key, value in update.items():
        if isinstance(result.get(key), dict) and isinstance(value, dict):
            result[key] = _updated(result[key], value)
        else:
            result[key] = value
    return result
