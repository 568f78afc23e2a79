"""QR codes as inline SVG (made once, kept in the process and the shared cache), and the
absolute addresses they hold: the table map's, the personal links', the check-in's."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

import segno
from django.core.cache import cache
from django.utils.safestring import SafeString, mark_safe

from scoring.core.site import site_url

QR_CACHE_SECONDS = 30 * 24 * 3600
_qr_memo: dict[str, str] = {}
QR_MEMO_MOST = 5000  # codes kept in a process (about 2 KB each)


def _make_qr_svg(url: str) -> str:
    """An inline SVG QR code of ``url`` that scales with its box (no size, no inline style)."""
    return segno.make(url, error="m", micro=False).svg_inline(
        border=2, omitsize=True, svgclass="qr", lineclass="qr-line"
    )


def qr_svgs(urls: Iterable[str]) -> dict[str, SafeString]:
    """Inline SVG QR codes, made once and kept in this process and in the shared cache."""
    wanted = list(dict.fromkeys(urls))
    missing = [url for url in wanted if url not in _qr_memo]
    if missing:
        if len(_qr_memo) + len(missing) > QR_MEMO_MOST:
            _qr_memo.clear()
        keys = {f"qr-svg:{hashlib.sha256(url.encode()).hexdigest()}": url for url in missing}
        found = {keys[key]: svg for key, svg in cache.get_many(list(keys)).items()}
        made = {url: _make_qr_svg(url) for url in missing if url not in found}
        if made:
            cache.set_many(
                {key: made[url] for key, url in keys.items() if url in made}, QR_CACHE_SECONDS
            )
        _qr_memo.update(found | made)
    return {url: mark_safe(_qr_memo[url]) for url in wanted}  # noqa: S308 - made by segno


def absolute(path: str) -> str:
    """The address of a path on the site's public host (what a QR code must hold)."""
    return f"{site_url()}{path}"
