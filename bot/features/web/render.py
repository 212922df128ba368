"""The page as HTML: one Jinja2 template (package data) with autoescape on, so every title,
note and name is text, never markup; its CSS inlined and allowed by hash in the page's
Content-Security-Policy (no other style, script, font or frame may load)."""

from __future__ import annotations

import base64
import hashlib

import jinja2

_ENV = jinja2.Environment(
    loader=jinja2.PackageLoader("bot.features.web", "templates"),
    autoescape=True, undefined=jinja2.StrictUndefined)
STYLE = _ENV.from_string('{% include "style.css" %}').render()
"""The page's CSS exactly as the template inlines it (what the policy's hash covers)."""
STYLE_HASH = "sha256-" + base64.b64encode(hashlib.sha256(STYLE.encode()).digest()).decode()
CONTENT_SECURITY_POLICY = (
    f"default-src 'none'; style-src '{STYLE_HASH}'; img-src 'self' data:; "
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
"""Nothing but the page's own inline style; the search form submits to the page itself."""


def render_page(context: dict[str, object]) -> bytes:
    """The page's UTF-8 HTML for `page_context`'s values."""
    template = _ENV.get_template("page.html.j2")
    return template.render(**context).encode()
