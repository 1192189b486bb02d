"""Secrets in database URLs: the password of the user part (``postgresql://buyer:secret@host/db``) and any
query parameter that carries one (``?password=``, ``?sslpassword=`` …) are never shown. Pure string work,
so it can run anywhere, even while the program is being interrupted."""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, unquote

SECRET_KEYS = frozenset({"password", "passwd", "pwd", "sslpassword", "sslkey_password", "secret", "token"})
_USERINFO = re.compile(r"://[^/@:?#]*:([^@/]*)@")


def url_secrets(url: str | None) -> list[str]:
    """Every secret a URL holds, as written and as decoded, longest first."""
    if not url or "://" not in url:
        return []
    found = [m.group(1) for m in _USERINFO.finditer(url)]
    query = url.split("?", 1)[1] if "?" in url else ""
    found += [value for key, value in parse_qsl(query, keep_blank_values=False) if key.lower() in SECRET_KEYS]
    found += [
        part.split("=", 1)[1] for part in query.split("&") if "=" in part and part.split("=")[0].lower() in SECRET_KEYS
    ]
    found += [unquote(s) for s in found]
    return sorted({s for s in found if s}, key=len, reverse=True)


def scrub(text: str, secrets: list[str]) -> str:
    for secret in secrets:
        text = text.replace(secret, "***")
    return text


def redact_url(url: str) -> str:
    return scrub(url, url_secrets(url))
