"""The organizer's part of a tournament's page: his links grouped by stage (set-up, rounds,
results, printing, data), and the one next step of the event highlighted."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.urls import reverse
from django.utils.translation import gettext as _

from scoring.models import Round, Tournament


@dataclass
class Link:
    """One of the organizer's links; ``key`` names it for the next step."""

    key: str
    label: str
    url: str
    primary: bool = False


@dataclass
class Group:
    """A stage of the event and its links."""

    title: str
    links: list[Link] = field(default_factory=list)


@dataclass
class NextStep:
    """What the event needs now: a sentence and the link that does it."""

    text: str
    link: Link


def next_step(tournament: Tournament, entrants: int, tables: int,
              rounds: list[Round]) -> NextStep:
    """The next thing to do: enter the field, number the tables, draw, run or close a round."""
    slug = tournament.slug
    individual = tournament.format == Tournament.Format.INDIVIDUAL
    latest = rounds[-1] if rounds else None
    if tournament.format == Tournament.Format.TEAMS and not rounds and (
            tournament.teams.filter(withdrawn=False).count() < 2):
        return NextStep(_("Register the teams, each with its pairs."),
                        Link("teams", _("Register a team"),
                             reverse("tournaments:team_create", args=[slug])))
    if entrants < 2:
        if individual or tournament.singles:
            text, label = _("Register the players."), _("Add player")
            url = reverse("tournaments:player_create", args=[slug])
        else:
            text, label = _("Register the pairs."), _("Add pair")
            url = reverse("tournaments:pair_create", args=[slug])
        return NextStep(text, Link("entrants", label, url))
    if tables == 0:
        return NextStep(_("Number the tables of the hall."),
                        Link("tables", _("Add tables"),
                             reverse("tournaments:table_create", args=[slug])))
    if latest is not None and latest.status != Round.Status.FINISHED:
        return NextStep(_("Run %(round)s: draw, publish, play, close.") % {"round": latest},
                        Link("round", _("Open %(round)s") % {"round": latest},
                             latest.get_absolute_url()))
    planned = tournament.regulations.rounds_planned
    if latest is not None and latest.number >= planned:
        return NextStep(_("Every planned round is played: the standings are final."),
                        Link("standings", _("Standings"),
                             reverse("tournaments:standings", args=[slug])))
    return NextStep(_("Create the next round and draw it."),
                    Link("rounds", _("Manage rounds"), reverse("tournaments:rounds", args=[slug])))


def manage_groups(tournament: Tournament, step: NextStep, *, pairs: bool, latest: Round | None,
                  can_create: bool) -> list[Group]:
    """The organizer's links by stage; the next step's link is the page's one primary button."""
    slug = tournament.slug

    def link(key: str, label: str, name: str, *args: object) -> Link:
        return Link(key, label, reverse(name, args=args or [slug]))

    setup = Group(_("Set-up"), [
        link("edit", _("Edit"), "tournaments:edit"),
        link("regulations", _("Regulations"), "tournaments:regulations"),
        link("players", _("Add player"), "tournaments:player_create"),
    ])
    if tournament.singles:
        setup.links.append(link("entrants", _("Add side"), "tournaments:pair_create"))
    elif pairs:
        setup.links.append(link("entrants", _("Add pair"), "tournaments:pair_create"))
    if tournament.format == Tournament.Format.TEAMS:
        setup.links.append(link("teams", _("Teams"), "tournaments:teams"))
    setup.links += [
        link("tables", _("Add tables"), "tournaments:table_create"),
        link("entries", _("Online entries"), "tournaments:entries_manage"),
        link("import", _("Import players") if not pairs or tournament.singles
             else _("Import players and pairs"), "tournaments:import"),
        link("referees", _("Referees"), "referee:referees"),
        link("people", _("Players' accounts and PINs"), "tournaments:people"),
        link("take_ratings", _("Take ratings from a list"), "tournaments:take_ratings"),
    ]
    rounds = Group(_("Rounds"), [link("rounds", _("Manage rounds"), "tournaments:rounds"),
                                 link("checkin", _("Check-in"), "tournaments:checkin"),
                                 link("timetable", _("Timetable"), "tournaments:timetable")])
    if latest is not None:
        rounds.links.append(Link("round", str(latest), latest.get_absolute_url()))
    rounds.links.append(link("overview", _("Referee overview"), "referee:overview"))
    results = Group(_("Results"), [
        link("standings", _("Standings"), "tournaments:standings"),
        link("results", _("Results"), "tournaments:results"),
        link("exports", _("Export: standings, results, deals"), "tournaments:export"),
    ])
    printing = Group(_("Printing"), [
        link("links", _("Personal links"), "tournaments:personal_links")])
    if latest is not None:
        printing.links.insert(0, Link(
            "print", _("Protocols of %(round)s") % {"round": latest},
            reverse("scoring:round_print", args=[latest.pk])))
    data = Group(_("Data"), [
        link("webhooks", _("Webhooks"), "tournaments:webhooks"),
        link("file", _("Download the tournament file"), "tournaments:export_tournament"),
    ])
    if can_create:
        data.links.append(Link("file_import", _("Import a tournament"),
                               reverse("tournaments:tournament_import")))
    groups = [setup, rounds, results, printing, data]
    for group in groups:
        for item in group.links:
            item.primary = item.key == step.link.key and item.url == step.link.url
    return groups
