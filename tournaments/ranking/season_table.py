"""The season table's rows as HTML, made in Python: 1,000 people × 50 tournaments are 50,000
cells, which a template loop would take most of a second to render."""

from __future__ import annotations

from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from scoring.ranking.seasons import SeasonPage
from scoring.standings.season import TOURNAMENT, VALUE

_PK = 987654321


def _number(value: float) -> str:
    """A figure as people write it: 12, 12.5 (no needless ".0")."""
    return str(int(value)) if value == int(value) else f"{value:g}"


def profile_link_pattern() -> str:
    """The address of a player's record page with "{}" for his profile id."""
    return reverse("tournaments:profile", args=[_PK]).replace(str(_PK), "{}")


def season_rows_html(page: SeasonPage) -> SafeString:
    """The ``<tr>`` of every line: place, player (linked to his record), club, each
    tournament's result (a dropped one has the class "d"), the total. Kept short: 50,000
    cells are most of the page; each distinct figure's cell is made once."""
    link = profile_link_pattern()
    column = {t["id"]: index for index, t in enumerate(page.tournaments)}
    empty = ["<td></td>"] * len(column)
    counted_td: dict[float, str] = {}
    dropped_td: dict[float, str] = {}
    out: list[str] = []
    append = out.append
    for line in page.lines:
        name, club = page.people[line.profile]
        name = escape(name)
        who = f'<a href="{link.format(line.profile)}">{name}</a>'
        cells = empty.copy()
        results = line.results
        for result in results[:line.counting]:
            value = result[VALUE]
            td = counted_td.get(value)
            if td is None:
                td = counted_td[value] = f"<td>{_number(value)}</td>"
            cells[column[result[TOURNAMENT]]] = td
        for result in results[line.counting:]:
            value = result[VALUE]
            td = dropped_td.get(value)
            if td is None:
                td = dropped_td[value] = f'<td class="d">{_number(value)}</td>'
            cells[column[result[TOURNAMENT]]] = td
        append(
            f'<tr><td>{line.rank}</td><th scope="row">{who}</th>'
            f'<td class="club">{escape(club)}</td>{"".join(cells)}'
            f'<td class="total">{_number(line.total)}</td></tr>'
        )
    return mark_safe("\n".join(out))  # noqa: S308 - every value above is escaped or a number
