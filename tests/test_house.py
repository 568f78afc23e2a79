"""The house's shape: modules of one job, a base app in wings, tasks under names that never move."""

import shutil
import subprocess
from pathlib import Path

import pytest

from config.celery import app as celery_app

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 400
PACKAGES = ("config", "tournaments", "scoring", "referee", "bench")

TASK_NAMES = {
    "referee.tasks.expire_party_clock",
    "referee.tasks.flag_no_show",
    "referee.tasks.purge_idempotency_keys",
    "referee.tasks.sweep_no_shows",
    "referee.tasks.sweep_party_clocks",
    "scoring.heartbeat.stamp_heartbeat",
    "scoring.rating_tasks.recompute_rating_list",
    "scoring.seasons.refresh_placings_task",
    "scoring.tasks.purge_print_jobs",
    "scoring.tasks.render_print_job",
    "scoring.tasks.sweep_missed_sends",
    "scoring.tasks.sweep_webhooks",
    "scoring.webhook_delivery.deliver_webhooks",
    "tournaments.checkin.close_windows",
    "tournaments.entries.send_tournament_mail",
    "tournaments.entries.sweep_expired_entries",
    "tournaments.tasks.warm_standings",
}
"""The names queued messages and the beat carry: a module may move, its tasks' names stay."""


def offenders() -> list[str]:
    """Every module over the limit, with its length."""
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines > LIMIT:
                found.append(f"{path.relative_to(ROOT)}: {lines} lines")
    return found


def test_no_module_is_over_the_limit():
    assert offenders() == []


def test_every_task_keeps_its_name_wherever_its_module_lives():
    celery_app.loader.import_default_modules()
    apps = ("scoring", "referee", "tournaments")
    ours = {name for name in celery_app.tasks if name.split(".")[0] in apps}
    assert ours == TASK_NAMES


def test_the_beat_sends_only_tasks_that_exist():
    from django.conf import settings

    assert {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()} <= TASK_NAMES


def _sibling_circles(graph) -> list[list[str]]:
    """Every circle between the children of one package, TYPE_CHECKING imports included."""
    circles = []
    for package in sorted(m for m in graph.modules if graph.find_children(m)):
        kids = sorted(graph.find_children(package))
        edges: dict[str, set[str]] = {k: set() for k in kids}
        for kid in kids:
            modules = (kid, *graph.find_descendants(kid)) if graph.find_children(kid) else (kid,)
            for module in modules:
                for imported in graph.find_modules_directly_imported_by(module):
                    for other in kids:
                        if other != kid and (imported == other or imported.startswith(other + ".")):
                            edges[kid].add(other)
        circles += [c for c in _strongly_connected(edges) if len(c) > 1]
    return circles


def _strongly_connected(edges: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components of a small graph."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in edges[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == node:
                    break
            found.append(sorted(component))

    for node in edges:
        if node not in index:
            visit(node)
    return found


def test_no_import_circle_and_no_arrow_back_up_type_checking_imports_included():
    import grimp

    apps = ("config", "tournaments", "referee", "scoring")
    graph = grimp.build_graph(*apps, exclude_type_checking_imports=False)
    assert _sibling_circles(graph) == []
    up = [
        f"{module} -> {imported}"
        for module in graph.modules
        for imported in graph.find_modules_directly_imported_by(module)
        if imported.split(".")[0] in apps
        and apps.index(imported.split(".")[0]) < apps.index(module.split(".")[0])
    ]
    assert up == []


HIDDEN_STATE = (
    r"\._(deals_read|evaluated|locked|screen_read|tournament_grants)\b"
    r"|_prefetched_objects_cache"
)
"""What a service once stashed on a model instance for another function to pop (issue #31)."""


@pytest.mark.slow
def test_no_service_hands_results_through_private_attributes():
    """Services return what they did; nothing outside tests sets or reads a stash on a model."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs git and the repository's checkout")
    found = subprocess.run(
        ["git", "grep", "-nE", HIDDEN_STATE, "--", ":!tests"],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )
    assert found.returncode == 1, found.stdout or found.stderr  # 1: nothing found
