"""Errors the handlers raise, and the one place they become the spec's error object."""

from __future__ import annotations

from typing import Iterable

from starlette.responses import JSONResponse

from corpdir.spec.errors import HTTP_STATUS, ErrorDetail, ErrorObject, ErrorStatus


class ApiError(Exception):
    """An answer other than success: status, message, details and extra headers."""

    def __init__(
        self,
        status: ErrorStatus,
        message: str,
        details: Iterable[ErrorDetail] = (),
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.details = list(details)
        self.headers = headers or {}

    @property
    def http_status(self) -> int:
        return HTTP_STATUS[self.status]

    def response(self) -> JSONResponse:
        return error_response(self.status, self.message, self.details, self.headers)


def error_response(
    status: ErrorStatus, message: str, details: Iterable[ErrorDetail] = (), headers: dict[str, str] | None = None
) -> JSONResponse:
    body = ErrorObject.of(status, message, details).model_dump(mode="json")
    return JSONResponse(body, status_code=HTTP_STATUS[status], headers=headers)


def invalid(field: str, code: str, description: str) -> ApiError:
    """400 INVALID_ARGUMENT about one field."""
    return ApiError(
        ErrorStatus.INVALID_ARGUMENT, "the request has invalid fields", [ErrorDetail(field=field, code=code, description=description)]
    )


def not_found(what: str) -> ApiError:
    return ApiError(ErrorStatus.NOT_FOUND, f"{what} does not exist")


def unprocessable(message: str, field: str = "") -> ApiError:
    details = [ErrorDetail(field=field, code="NOT_FOUND", description=message)] if field else []
    return ApiError(ErrorStatus.UNPROCESSABLE, message, details)


def resource_denied(message: str) -> ApiError:
    return ApiError(ErrorStatus.RESOURCE_PERMISSION_DENIED, message)


def api_denied(message: str) -> ApiError:
    return ApiError(ErrorStatus.API_PERMISSION_DENIED, message)


def already_exists(field: str, message: str) -> ApiError:
    return ApiError(ErrorStatus.ALREADY_EXISTS, message, [ErrorDetail(field=field, code="NOT_UNIQUE", description=message)])
