"""Does an e-mail address look like one? A warning the user may override, never a refusal.

The spec limits e-mail fields to 256 characters and nothing else, so the service stores
`a@@b`; a desk tool should still say so before a typo goes into the directory. The
check is the maintained email-validator package (RFC 5321/5322 syntax, internationalised
addresses such as 山田@例え.jp accepted), never a regex of our own, and asks no DNS.
"""

from __future__ import annotations

from typing import Any, Mapping

EMAIL_FIELDS = ("email1", "email2")  # the e-mail fields of users and contacts (spec 2.3, 2.7)


def email_doubt(address: str) -> str | None:
    """Why ``address`` does not look like an e-mail address (email-validator's words), or
    None when it does or is empty (a cleared field)."""
    if not address:
        return None
    from email_validator import EmailNotValidError, validate_email  # ~80 ms: only when an address is checked

    try:
        validate_email(address, check_deliverability=False)
    except EmailNotValidError as exc:
        return str(exc)
    return None


def email_doubts(values: Mapping[str, Any]) -> dict[str, str]:
    """field -> why, for each e-mail field among ``values`` that does not look right."""
    return {field: why for field in EMAIL_FIELDS
            if isinstance(value := values.get(field), str) and (why := email_doubt(value))}
