"""Groups drawn by hand (#35): the organizer's own split, through the service, the API and the
rounds page; the groups' round robins then pair only within it; a split that leaves a pair out,
names one twice or makes a group of one is refused naming the pairs, nothing written."""

from __future__ import annotations

import pytest
from django.test import Client

from scoring.core.errors import ServiceError
from scoring.models import Group, Party, Round, Stage
from scoring.stages.common import standings_order
from tests.tournaments.test_finals import _field, _play_published, _qualifying_round, api  # noqa: F401
from tournaments.rounds.finals import start_groups

pytestmark = pytest.mark.django_db


@pytest.fixture
def org(organizer) -> Client:
    client = Client()
    client.force_login(organizer)
    return client


def _rated(t) -> list:
    """The tournament's pairs, best rated first."""
    return list(t.pairs.order_by("-rating").select_related("player1", "player2"))


def _nothing_drawn(t) -> bool:
    """No group made and the tournament's only stage still its qualifying one."""
    stages = list(Stage.objects.filter(tournament=t))
    return not Group.objects.exists() and all(s.format != Stage.Format.GROUPS for s in stages)


@pytest.mark.parametrize(("split", "named"), [
    # the weakest pair left out
    (lambda p: [[p[0], p[1], p[2]], [p[3], p[4], p[5], p[6]]], lambda p: [p[7]]),
    # the 2nd pair in both groups
    (lambda p: [[p[0], p[1], p[2], p[3]], [p[1], p[4], p[5], p[6], p[7]]], lambda p: [p[1]]),
    # a group of one
    (lambda p: [[p[0], p[1], p[2], p[3], p[4], p[5], p[6]], [p[7]]], lambda p: []),
])
def test_the_service_refuses_a_bad_split_naming_the_pairs_and_writes_nothing(
        organizer, split, named):
    t = _field(organizer, 8, 3, "hand-bad")
    pairs = _rated(t)
    ids = [pair.pk for pair in pairs]
    with pytest.raises(ServiceError) as refused:
        start_groups(t.pk, groups=split(ids))
    assert refused.value.field == "groups"
    for pk in named(ids):
        assert next(p.display_name for p in pairs if p.pk == pk) in refused.value.message
    if not named(ids):
        assert "too few in B" in refused.value.message
    assert _nothing_drawn(t)


def test_a_withdrawn_pair_or_a_count_that_disagrees_is_refused(organizer):
    t = _field(organizer, 8, 3, "hand-withdrawn")
    pairs = _rated(t)
    ids = [pair.pk for pair in pairs]
    pairs[5].withdrawn = True
    pairs[5].save()
    with pytest.raises(ServiceError) as refused:
        start_groups(t.pk, groups=[ids[:4], ids[4:]])
    assert refused.value.field == "groups"
    assert pairs[5].display_name in refused.value.message and "may still play" in str(
        refused.value.message)
    left = [pk for pk in ids if pk != ids[5]]
    with pytest.raises(ServiceError) as refused:
        start_groups(t.pk, group_count=3, groups=[left[:4], left[4:]])
    assert refused.value.field == "groups" and "2 groups given" in refused.value.message
    assert _nothing_drawn(t)
    made = start_groups(t.pk, groups=[left[:4], left[4:]])
    assert [sorted(g.entrants.values_list("pk", flat=True)) for g in made] == [
        sorted(left[:4]), sorted(left[4:])]


def test_the_groups_round_robins_pair_only_within_the_split_by_hand(api, organizer):  # noqa: F811
    t = _field(organizer, 8, 3, "hand-rr")
    ids = [pair.pk for pair in _rated(t)]
    # not the snake's {1, 4, 5, 8} and {2, 3, 6, 7}: the four best against the four others
    split = [ids[:4], ids[4:]]
    made = start_groups(t.pk, groups=split)
    stage = Stage.objects.get(tournament=t, format=Stage.Format.GROUPS)
    assert stage.group_count == 2 and [g.name for g in made] == ["A", "B"]
    rid = api.post("/api/v1/rounds/", {"tournament": t.pk}, format="json").data["id"]
    assert api.post(f"/api/v1/rounds/{rid}/generate/", {}, format="json").status_code == 200
    first = list(Party.objects.filter(round_id=rid).values_list("pair_a", "pair_b"))
    assert len(first) == 4
    for a, b in first:
        assert any(a in group and b in group for group in split), (a, b)
    assert api.post(f"/api/v1/rounds/{rid}/publish/").status_code == 200
    _play_published(api)
    assert api.post(f"/api/v1/rounds/{rid}/close/").status_code == 200
    for _ in range(2):
        _qualifying_round(api, t)
    for group in split:  # every pair met the three others of its group, and no one else
        met = Party.objects.filter(pair_a__in=group).values_list("pair_a", "pair_b")
        assert len(met) == 6 and all(b in group for _a, b in met)


def test_the_api_draws_the_groups_given_and_refuses_a_bad_split_naming_groups(
        api, organizer):  # noqa: F811
    t = _field(organizer, 8, 3, "hand-api")
    pairs = _rated(t)
    ids = [pair.pk for pair in pairs]
    url = "/api/v1/stages/groups/"
    missing = api.post(url, {"tournament": t.pk, "groups": [ids[:4], ids[4:7]]}, format="json")
    assert missing.status_code == 400
    assert list(missing.data) == ["groups"] and pairs[7].display_name in missing.data["groups"][0]
    twice = api.post(url, {"tournament": t.pk, "groups": [ids[:4], ids[3:]]}, format="json")
    assert twice.status_code == 400 and pairs[3].display_name in twice.data["groups"][0]
    foreign = api.post(url, {"tournament": t.pk, "groups": [ids[:4], [*ids[4:], 999999]]},
                       format="json")
    assert foreign.status_code == 400 and "#999999" in foreign.data["groups"][0]
    neither = api.post(url, {"tournament": t.pk}, format="json")
    assert neither.status_code == 400 and list(neither.data) == ["group_count"]
    assert _nothing_drawn(t)
    split = [[ids[0], ids[2], ids[4]], [ids[1], ids[3], ids[5], ids[6], ids[7]]]
    made = api.post(url, {"tournament": t.pk, "groups": split}, format="json")
    assert made.status_code == 201, made.data
    assert made.data["group_count"] == 2
    assert {g["name"]: sorted(g["entrants"]) for g in made.data["groups"]} == {
        "A": sorted(split[0]), "B": sorted(split[1])}


def test_the_rounds_page_proposes_the_snake_and_draws_the_groups_as_changed(
        api, organizer, org):  # noqa: F811
    t = _field(organizer, 8, 3, "hand-page")
    _qualifying_round(api, t)
    page = org.get(f"/t/{t.slug}/rounds/?group_count=2").content.decode()
    assert "Propose groups" in page and "Group A" in page and "Group B" in page
    order = standings_order(t)
    snake = {order[0]: "A", order[1]: "B", order[2]: "B", order[3]: "A",
             order[4]: "A", order[5]: "B", order[6]: "B", order[7]: "A"}
    for pk, letter in snake.items():  # one select per pair, its snake group chosen
        select = page[page.index(f'name="pair_{pk}"'):]
        select = select[:select.index("</select>")]
        assert f'<option value="{letter}" selected>' in select
    # the organizer swaps the 2nd and the 4th; a group left with one pair is refused first
    post = {"group_count": 2, "avoid_same_club": "False",
            **{f"pair_{pk}": letter for pk, letter in snake.items()}}
    lonely = {**post, **{f"pair_{pk}": "A" for pk in order if pk != order[2]}}
    refused = org.post(f"/t/{t.slug}/groups/start/", lonely)
    body = refused.content.decode()
    assert refused.status_code == 400
    assert "Each group needs at least two pairs: too few in B." in body
    assert body.count('selected>A</option>') == 7  # the form shows the split as posted
    assert _nothing_drawn(t)
    left_out = {k: v for k, v in post.items() if k != f"pair_{order[7]}"}
    refused = org.post(f"/t/{t.slug}/groups/start/", left_out).content.decode()
    assert "In no group:" in refused and "In no group</legend>" in refused
    assert _nothing_drawn(t)
    changed = {**post, f"pair_{order[1]}": "A", f"pair_{order[3]}": "B"}
    done = org.post(f"/t/{t.slug}/groups/start/", changed)
    assert done.status_code == 302 and done["Location"] == f"/t/{t.slug}/rounds/"
    groups = {g.name: set(g.entrants.values_list("pk", flat=True))
              for g in Group.objects.filter(stage__tournament=t)}
    assert groups == {"A": {order[0], order[1], order[4], order[7]},
                      "B": {order[2], order[3], order[5], order[6]}}
    rounds = org.get(f"/t/{t.slug}/rounds/").content.decode()
    assert "Propose groups" not in rounds
    assert Round.objects.filter(tournament=t).count() == 1


def test_a_group_count_the_field_cannot_fill_shows_on_the_proposal(api, organizer, org):  # noqa: F811
    t = _field(organizer, 8, 3, "hand-propose")
    page = org.get(f"/t/{t.slug}/rounds/?group_count=5")
    body = page.content.decode()
    assert page.status_code == 200
    assert "5 groups of 8 entrants leave a group with fewer than two." in body
    assert 'name="pair_' not in body  # no proposal to edit
    default = org.get(f"/t/{t.slug}/rounds/").content.decode()  # 8 pairs: two groups of four
    assert "Group B" in default and "Group C" not in default


def test_a_field_too_small_for_groups_gets_no_proposal_and_no_error_unasked(organizer, org):
    t = _field(organizer, 1, 3, "hand-small")
    body = org.get(f"/t/{t.slug}/rounds/").content.decode()
    assert "Propose groups" in body and 'name="pair_' not in body
    assert "fewer than two" not in body
    asked = org.get(f"/t/{t.slug}/rounds/?group_count=2").content.decode()
    assert "2 groups of 1 entrants leave a group with fewer than two." in asked
