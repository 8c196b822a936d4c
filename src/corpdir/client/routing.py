"""The routing profile: everything about HTTP that the interface spec leaves unsaid.

The spec names operations by code and hides methods, paths, the auth header and the
upload encodings; http-contract.md fixes them for this project, and a real deployment may
differ. So they are data, not code: :meth:`RoutingProfile.default` derives the table from
``corpdir.spec.OPERATIONS`` and :meth:`RoutingProfile.from_toml` overrides any part of it
from a file, e.g.::

    [auth]
    header = "X-API-Key"   # default "Authorization"
    scheme = ""            # default "Bearer"; empty sends the raw key

    [encoding]
    arrays = "repeat"      # select=a&select=b (default), or "comma": select=a,b

    [routes.U3]
    method = "GET"
    path = "/v2/people/{userId}"

    [uploads.X5]
    kind = "multipart"
    file_field = "businessCardImage"
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal, Mapping

from corpdir.spec import OPERATIONS

ArrayEncoding = Literal["repeat", "comma"]
UploadKind = Literal["raw", "multipart"]
_METHODS = {"GET", "POST", "PUT", "PATCH", "DELETE"}


class RoutingError(ValueError):
    """A routing profile (usually a TOML file) that cannot be used."""


@dataclass(frozen=True)
class Route:
    method: str
    path: str  # relative to base_url, with {placeholders} named as in the spec


@dataclass(frozen=True)
class Upload:
    """How an image body travels: the raw bytes (U7, X7) or a multipart form (X5)."""

    kind: UploadKind = "raw"
    content_type: str = "image/jpeg"
    file_field: str = "businessCardImage"
    filename: str = "card.jpg"


@dataclass(frozen=True)
class RoutingProfile:
    routes: Mapping[str, Route]
    uploads: Mapping[str, Upload] = field(default_factory=dict)
    auth_header: str = "Authorization"
    auth_scheme: str = "Bearer"  # "" sends the key as the whole header value
    array_encoding: ArrayEncoding = "repeat"

    @classmethod
    def default(cls) -> RoutingProfile:
        """http-contract.md, read from the operation table."""
        routes = {code: Route(op.method, op.path) for code, op in OPERATIONS.items()}
        uploads = {
            code: Upload(kind="multipart" if op.body_kind == "multipart" else "raw")
            for code, op in OPERATIONS.items()
            if op.body_kind in ("jpeg", "multipart")
        }
        return cls(routes=routes, uploads=uploads)

    def route(self, code: str) -> Route:
        return self.routes[code]

    def upload(self, code: str) -> Upload:
        return self.uploads.get(code, Upload())

    def auth_value(self, key: str) -> str:
        return f"{self.auth_scheme} {key}" if self.auth_scheme else key

    @classmethod
    def from_toml(cls, path: str | Path, base: RoutingProfile | None = None) -> RoutingProfile:
        try:
            with open(path, "rb") as fh:
                data = tomllib.load(fh)
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise RoutingError(f"cannot read routing profile {path}: {exc}") from exc
        return (base or cls.default()).merged(data, source=str(path))

    def merged(self, data: Mapping[str, Any], *, source: str = "routing profile") -> RoutingProfile:
        """This profile with the overrides of a parsed TOML document applied and checked."""
        unknown = set(data) - {"auth", "encoding", "routes", "uploads"}
        if unknown:
            raise RoutingError(f"{source}: unknown sections {sorted(unknown)}")
        auth = data.get("auth", {})
        encoding = data.get("encoding", {})
        routes = dict(self.routes)
        for code, spec in data.get("routes", {}).items():
            if code not in OPERATIONS:
                raise RoutingError(f"{source}: [routes.{code}] is not an operation code")
            route = replace(routes[code], **{k: v for k, v in spec.items() if k in ("method", "path")})
            route = Route(route.method.upper(), route.path)
            if route.method not in _METHODS:
                raise RoutingError(f"{source}: [routes.{code}] method {route.method!r} is not an HTTP method")
            wanted = set(OPERATIONS[code].path_params)
            given = {part[1:-1] for part in route.path.split("/") if part.startswith("{") and part.endswith("}")}
            if given != wanted:
                raise RoutingError(
                    f"{source}: [routes.{code}] path {route.path!r} must use the placeholders {sorted(wanted)}"
                )
            routes[code] = route
        uploads = dict(self.uploads)
        for code, spec in data.get("uploads", {}).items():
            if code not in uploads:
                raise RoutingError(f"{source}: [uploads.{code}] is not an upload operation (U7, X5, X7)")
            uploads[code] = replace(uploads[code], **{k: v for k, v in spec.items() if k in Upload.__dataclass_fields__})
            if uploads[code].kind not in ("raw", "multipart"):
                raise RoutingError(f"{source}: [uploads.{code}] kind must be 'raw' or 'multipart'")
        arrays = encoding.get("arrays", self.array_encoding)
        if arrays not in ("repeat", "comma"):
            raise RoutingError(f"{source}: [encoding] arrays must be 'repeat' or 'comma'")
        return replace(
            self,
            routes=routes,
            uploads=uploads,
            auth_header=auth.get("header", self.auth_header),
            auth_scheme=auth.get("scheme", self.auth_scheme),
            array_encoding=arrays,
        )

    def encode_query(self, params: Mapping[str, Any]) -> list[tuple[str, str]]:
        """Query parameters as (key, text) pairs: booleans as true/false, arrays repeated
        or comma-joined per the profile."""
        out: list[tuple[str, str]] = []
        for key, value in params.items():
            if isinstance(value, (list, tuple)):
                texts = [scalar_text(v) for v in value]
                if self.array_encoding == "comma":
                    out.append((key, ",".join(texts)))
                else:
                    out.extend((key, t) for t in texts)
            elif value is not None:
                out.append((key, scalar_text(value)))
        return out


def scalar_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
