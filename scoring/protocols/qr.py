"""The verification link's QR code, drawn as merged filled rectangles."""

from __future__ import annotations

from collections.abc import Sequence

import segno

from .layout import Page

#: A fixed QR mask: choosing the best of eight costs ~4 ms per code and any mask is valid.
QR_MASK = 2


def qr_rectangles(matrix: Sequence[Sequence[int]]) -> list[tuple[int, int, int, int]]:
    """Cover the dark modules with rectangles ``(column, row, width, height)``.

    Horizontal runs of dark modules are merged with identical runs in the rows below, which
    roughly halves the number of rectangles (and of numbers reportlab has to format).
    """
    open_runs: dict[tuple[int, int], int] = {}  # (start, end) -> first row
    rects: list[tuple[int, int, int, int]] = []
    n = len(matrix)
    for r in range(n + 1):
        runs: set[tuple[int, int]] = set()
        if r < n:
            row = matrix[r]
            c = 0
            while c < n:
                if row[c]:
                    start = c
                    while c < n and row[c]:
                        c += 1
                    runs.add((start, c))
                else:
                    c += 1
        for run in list(open_runs):
            if run not in runs:
                first = open_runs.pop(run)
                rects.append((run[0], first, run[1] - run[0], r - first))
        for run in runs:
            open_runs.setdefault(run, r)
    return rects


def draw_qr(page: Page, url: str, x: float, y_top: float, size: float) -> None:
    """Draw a QR code for ``url`` as filled rectangles (no image, no reportlab widget)."""
    qr = segno.make(url, error="m", micro=False, mask=QR_MASK)
    matrix = qr.matrix
    module = size / len(matrix)
    for col, row, width, height in qr_rectangles(matrix):
        page.filled(x + col * module, y_top - (row + height) * module, width * module,
                    height * module)
