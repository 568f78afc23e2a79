"""OpenAPI links of the API's main flows: which call's answer feeds which next call.

drf-spectacular writes no links; this postprocessing hook adds them, so clients (and
schemathesis' stateful tests) can follow a tournament to its rounds and entrants, a round to
its draw and prints, a party to its actions and protocol, a deal or penalty to its corrections.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from drf_spectacular.generators import SchemaGenerator
    from rest_framework.request import Request

ID = "$response.body#/id"
FIRST = "$response.body#/results/0/id"
RECORD = "$response.body#/record/id"
PARTY = "$response.body#/party/id"
VERSION = "$response.body#/version"

PARTY_ACTIONS = (
    "start", "pause", "resume", "time_up", "game_time_up", "finish", "check_in", "deal",
    "warning", "fine", "out_of_turn", "false_pass", "touched_tile", "no_show", "disqualify",
    "udl_violation",
)

LINKS: list[tuple[str, str, str, dict[str, str], dict[str, str] | None]] = [
    # a tournament → its first round, its entrants, its webhooks and its referee desk
    *[(source, status, target, {}, {"tournament": pointer})
      for source, status, pointer in (("tournaments_create", "201", ID),
                                      ("tournaments_retrieve", "200", ID),
                                      ("tournaments_list", "200", FIRST))
      for target in ("rounds_create", "players_create", "tables_create", "webhooks_create")],
    *[(source, status, target, {"path.id": pointer}, None)
      for source, status, pointer in (("tournaments_create", "201", ID),
                                      ("tournaments_list", "200", FIRST))
      for target in ("referee_tournaments_overview_retrieve", "referee_tournaments_referees_list",
                     "referee_tournaments_referees_create",
                     "referee_tournaments_referee_settings_retrieve")],
    # a round → its parties and its prints
    *[(source, status, "parties_list", {"query.round": pointer}, None)
      for source, status, pointer in (("rounds_create", "201", ID),
                                      ("rounds_retrieve", "200", ID),
                                      ("rounds_publish_create", "200", ID))],
    *[(source, status, "print_jobs_create", {}, {"round": pointer})
      for source, status, pointer in (("rounds_create", "201", ID),
                                      ("rounds_publish_create", "200", ID),
                                      ("rounds_list", "200", FIRST))],
    # a party (its current version) → every action, its records and its protocol
    *[("parties_retrieve", "200", f"parties_{name}", {"path.id": ID}, {"version": VERSION})
      for name in PARTY_ACTIONS],
    *[("parties_list", "200", target, {"path.id": FIRST}, None)
      for target in ("party_protocols_retrieve", "party_protocols_sign_create",
                     "party_protocols_refuse_create", "party_protocols_countersign_create",
                     "party_protocols_pdf_retrieve")],
    # a recorded deal or penalty → reading and correcting it; an action → the party's state
    *[(f"parties_{name}", "201", target, {"path.id": RECORD}, None)
      for name in ("deal",)
      for target in ("deals_retrieve", "deals_correct_create", "deals_annul_create")],
    *[(f"parties_{name}", "201", target, {"path.id": RECORD}, None)
      for name in ("warning", "fine")
      for target in ("penalties_retrieve", "penalties_cancel_create")],
    *[(f"parties_{name}", "201", "parties_retrieve", {"path.id": PARTY}, None)
      for name in ("deal", "warning", "fine")],
    ("print_jobs_create", "202", "print_jobs_retrieve", {"path.id": ID}, None),
]
"""(source operation, status, target operation, parameters, request body fields)."""


def add_links(result: dict[str, Any], generator: SchemaGenerator, request: Request | None,
              public: bool, **kwargs: object) -> dict[str, Any]:
    """Postprocessing hook: the main flows' links on the responses they start from."""
    by_id = {
        operation["operationId"]: operation
        for item in result.get("paths", {}).values()
        for operation in item.values()
        if isinstance(operation, dict) and "operationId" in operation
    }
    for source, status, target, parameters, body in LINKS:
        if source not in by_id or target not in by_id:
            continue  # an operation of another version
        response = by_id[source]["responses"].get(status)
        if response is None:
            continue
        link: dict[str, Any] = {"operationId": target}
        if parameters:
            link["parameters"] = dict(parameters)
        if body:
            link["requestBody"] = dict(body)
        response.setdefault("links", {})[target] = link
    return result
