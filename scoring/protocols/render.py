"""Render party protocols as PDF with reportlab: signed-off protocols, blank paper protocols,
and one-file batches of either for printing a whole round.

A protocol is laid out as a list of blocks (``tables``, ``sections``, ``blank``), paginated
and drawn page by page (``layout``); this module orders the blocks, frames the pages and
writes the document. ``canonical_json`` and ``protocol_fingerprint`` live in ``fingerprint``
and are re-exported here.
"""

from __future__ import annotations

import contextlib
import io
import threading
from collections.abc import Callable, Iterator, Sequence

from reportlab import rl_config
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas

from .blank import blank_blocks
from .data import GAMES, ProtocolData
from .fingerprint import canonical_json, protocol_fingerprint
from .fonts import REGULAR, register_fonts
from .layout import TOP, TOP_CONTINUED, Block, Page, gap, paginate, section_title
from .sections import (
    continuation_header,
    footer,
    header,
    per_seat,
    result_block,
    sides,
    signature_row,
)
from .tables import (
    game_deal_blocks,
    games_summary,
    penalty_blocks,
    seat_deal_blocks,
    seat_summary,
    side_deal_blocks,
)

__all__ = [
    "canonical_json",
    "emit_pages",
    "protocol_fingerprint",
    "render_batch",
    "render_blank",
    "render_protocol",
]


def _protocol_blocks(data: ProtocolData) -> list[Block]:
    """A filled-in protocol top to bottom: header, sides, deals, penalties, result, signatures."""
    blocks = [header(data, data.label("title"), blank=False), sides(data), gap()]
    if data.layout == GAMES:
        blocks += game_deal_blocks(data)
        if data.games:
            blocks += [gap(), *games_summary(data)]
    elif per_seat(data):
        blocks += [*seat_deal_blocks(data), gap(), *seat_summary(data)]
    else:
        blocks += side_deal_blocks(data)
    blocks += [gap(), *penalty_blocks(data), gap(), result_block(data), gap(),
               section_title(data.label("signatures"))]
    for signature in data.signatures:
        blocks.append(signature_row(data, signature, blank=False))
    return blocks


def emit_pages(canvas: Canvas, blocks: list[Block], continuation: Callable[[Page], None],
               foot: Callable[[Page, int, int], None]) -> int:
    """Paginate ``blocks`` and draw the pages: ``continuation(page)`` opens every page after
    the first, ``foot(page, number, count)`` closes each one. Returns the page count."""
    pages = paginate(blocks)
    for number, page_blocks in enumerate(pages, start=1):
        page = Page(canvas)
        y = TOP
        if number > 1:
            continuation(page)
            y = TOP_CONTINUED
        for block in page_blocks:
            block.draw(page, y)
            y -= block.height
        foot(page, number, len(pages))
        page.finish()
    return len(pages)


def _emit(canvas: Canvas, data: ProtocolData, blocks: list[Block], title: str,
          fingerprint: str | None) -> int:
    """Draw a protocol's pages with its continuation lines and footers."""
    return emit_pages(
        canvas, blocks, lambda page: continuation_header(page, data, title),
        lambda page, number, count: footer(page, data, fingerprint, number, count))


# --------------------------------------------------------------------------- public API


#: reportlab keeps per-document font-subset state on the shared font objects and reads the
#: global ``rl_config``; one render at a time per process keeps both safe under threads (the
#: work is CPU-bound under the GIL anyway, so nothing is lost).
_render_lock = threading.RLock()


@contextlib.contextmanager
def _binary_streams() -> Iterator[None]:
    """Write streams Flate-compressed only, without the ASCII85 layer reportlab adds by default.

    ASCII85-encoding the embedded font subsets is a third of the rendering time and makes the
    file bigger; every PDF reader handles binary streams. Also holds the render lock.
    """
    with _render_lock:
        previous = rl_config.useA85
        rl_config.useA85 = 0
        try:
            yield
        finally:
            rl_config.useA85 = previous


def _canvas(buffer: io.BytesIO, invariant: bool, language: str) -> Canvas:
    """A new A4 canvas with the embedded fonts, compression and document metadata."""
    register_fonts()
    canvas = Canvas(buffer, pagesize=A4, invariant=1 if invariant else 0, pageCompression=1,
                    initialFontName=REGULAR,  # type: ignore[arg-type]  # stub wrongly says float
                    lang=language or None)
    canvas.setCreator("domino-tournaments protocols")
    canvas.setProducer("domino-tournaments / reportlab")
    return canvas


def _draw_one(canvas: Canvas, data: ProtocolData, blank: bool) -> int:
    """Draw one protocol (or blank protocol) onto ``canvas``; return its page count."""
    if blank:
        return _emit(canvas, data, blank_blocks(data), data.label("blank_title"), None)
    fingerprint = protocol_fingerprint(data)
    return _emit(canvas, data, _protocol_blocks(data), data.label("title"), fingerprint)


def render_protocol(data: ProtocolData, *, invariant: bool = False,
                    fingerprint: str | None = None) -> bytes:
    """Render one party's protocol as an A4 PDF and return its bytes.

    A normal party (about 30 deals and 10 penalties) fits one page; longer ones continue on
    further pages with the table headers repeated. The page carries a QR code of
    ``verify_url``, the short code and the data fingerprint. ``invariant=True`` makes the
    output byte-identical for identical data (fixed dates and document id). ``fingerprint``
    is ``protocol_fingerprint(data)`` when the caller has already computed it.
    """
    buffer = io.BytesIO()
    canvas = _canvas(buffer, invariant, data.language)
    fingerprint = fingerprint or protocol_fingerprint(data)
    canvas.setTitle(f"{data.label('title')} · {data.tournament} · "
                    f"{data.label('round')} {data.round_number} · "
                    f"{data.label('table')} {data.table}")
    canvas.setSubject(data.public_id)
    canvas.setKeywords(f"protocol={data.public_id} version={data.version} sha256={fingerprint}")
    with _binary_streams():
        _emit(canvas, data, _protocol_blocks(data), data.label("title"), fingerprint)
        canvas.save()
    return buffer.getvalue()


def render_blank(data: ProtocolData) -> bytes:
    """Render a blank paper protocol pre-filled with tournament, round, table and pairs."""
    return render_batch([data], blank=True)


def render_batch(items: Sequence[ProtocolData], *, blank: bool = False,
                 progress: Callable[[int, int], None] | None = None,
                 invariant: bool = False) -> bytes:
    """Render many protocols (or blank protocols) into one fresh PDF, each from a new page.

    ``progress(done, total)`` is called after each protocol. The result is a new document
    drawn in one canvas, never a merge of separate (possibly signed) files.
    """
    buffer = io.BytesIO()
    language = items[0].language if items else "en"
    canvas = _canvas(buffer, invariant, language)
    if items:
        first = items[0]
        title = first.label("blank_title" if blank else "title")
        canvas.setTitle(f"{title} · {first.tournament} · {first.label('round')} "
                        f"{first.round_number}")
    total = len(items)
    with _binary_streams():
        for done, data in enumerate(items, start=1):
            _draw_one(canvas, data, blank)
            if progress is not None:
                progress(done, total)
        if not items:
            canvas.showPage()
        canvas.save()
    return buffer.getvalue()
