"""The season table's rows as HTML, made in Python: 1,000 people × 50 tournaments are 50,000
cells, which a template loop would take most of a second to render."""

from __future__ import annotations

from django.urls import NoReverseMatch, reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from scoring.seasons import SeasonPage

_PK = 987654321


def _number(value: float) -> str:
    """A figure as people write it: 12, 12.5 (no needless ".0")."""
    return str(int(value)) if value == int(value) else f"{value:g}"


def profile_link_pattern() -> str | None:
    """The address of a player's record page with "{}" for his profile id (None: no page)."""
    try:
        return reverse("tournaments:profile", args=[_PK]).replace(str(_PK), "{}")
    except NoReverseMatch:
        return None


def season_rows_html(page: SeasonPage) -> SafeString:
    """The ``<tr>`` of every line: place, player (linked to his record), club, each
    tournament's result (a dropped one has the class "d"), the total. Kept short: 50,000
    cells are most of the page."""
    link = profile_link_pattern()
    ids = [t["id"] for t in page.tournaments]
    out: list[str] = []
    append = out.append
    for line in page.lines:
        name, club = page.people[line.profile]
        name = escape(name)
        who = f'<a href="{link.format(line.profile)}">{name}</a>' if link else name
        cells = line.cells
        parts = []
        add = parts.append
        for pk in ids:
            cell = cells.get(pk)
            if cell is None:
                add("<td></td>")
            else:
                value = cell.value
                text = str(int(value)) if value == int(value) else f"{value:g}"
                add(f"<td>{text}</td>" if cell.counted else f'<td class="d">{text}</td>')
        append(
            f'<tr><td>{line.rank}</td><th scope="row">{who}</th>'
            f'<td class="club">{escape(club)}</td>{"".join(parts)}'
            f'<td class="total">{_number(line.total)}</td></tr>'
        )
    return mark_safe("\n".join(out))  # noqa: S308 - every value above is escaped or a number
