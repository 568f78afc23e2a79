"""Property tests of the rule engine (hypothesis): invariants over many random deals."""

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from scoring.rules import (
    SEATS,
    DealFacts,
    DealScore,
    FineFact,
    RuleError,
    RulesConfig,
    get_rule_set,
)

SPORT = get_rule_set("sport")
MAX = 168

seat_pips = st.fixed_dictionaries({seat: st.integers(0, 69) for seat in SEATS})
configs = st.builds(
    RulesConfig,
    domino_counts_partner=st.booleans(),
    drawn_fish=st.sampled_from(["nobody", "carry"]),
    allow_negative=st.booleans(),
)


def side_sums(pips):
    return {side: sum(v for seat, v in pips.items() if seat[0] == side) for side in "ab"}


@given(pips=seat_pips, went_out=st.sampled_from(SEATS), cfg=configs)
def test_domino_points_never_exceed_168_nor_negative(pips, went_out, cfg):
    pips = {**pips, went_out: 0}
    sums = side_sums(pips)
    winner = went_out[0]
    loser = "b" if winner == "a" else "a"
    try:
        result = SPORT.score_deal(DealFacts("domino", went_out=went_out, pips=pips), cfg)
    except RuleError as err:
        assert err.field == "pips"
        assert sum(pips.values()) > MAX or sums[loser] == 0
        return
    assert sum(pips.values()) <= MAX
    assert result.winner == winner
    assert result.points[loser] == 0
    assert 0 < result.points[winner] <= MAX
    expected = sums["a"] + sums["b"] if cfg.domino_counts_partner else sums[loser]
    assert result.points[winner] == expected


@given(pips=seat_pips, cfg=configs)
def test_fish_points_never_exceed_168_and_go_to_fewer_pips(pips, cfg):
    sums = side_sums(pips)
    total = sum(pips.values())
    try:
        result = SPORT.score_deal(DealFacts("fish", pips=pips), cfg)
    except RuleError as err:
        assert err.field == "pips"
        assert total > MAX
        return
    assert total <= MAX
    assert all(value >= 0 for value in result.points.values())
    assert sum(result.points.values()) <= MAX
    if sums["a"] == sums["b"]:
        assert result.outcome == "drawn_fish"
        assert result.points == {"a": 0, "b": 0}
        assert result.carry == total
    else:
        winner = min("ab", key=sums.get)
        assert result.outcome == "fish"
        assert result.winner == winner
        assert result.points[winner] == total


deal_scores = st.one_of(
    st.builds(
        lambda side, pts, outcome: DealScore(
            outcome, side, {side: pts, ("b" if side == "a" else "a"): 0}
        ),
        st.sampled_from("ab"),
        st.integers(1, MAX),
        st.sampled_from(["domino", "fish"]),
    ),
    st.builds(
        lambda carry: DealScore("drawn_fish", None, {"a": 0, "b": 0}, carry=carry),
        st.integers(0, MAX),
    ),
    st.just(DealScore("annulled", None, {"a": 0, "b": 0})),
    st.builds(
        lambda a, b: DealScore("referee", None, {"a": a, "b": b}),
        st.integers(0, 84),
        st.integers(0, 84),
    ),
)
fines = st.builds(
    FineFact, st.sampled_from("ab"), st.integers(0, 100), st.sampled_from(["deduct", "award"])
)


@given(deals=st.lists(deal_scores, max_size=25), fine_list=st.lists(fines, max_size=6))
def test_party_totals_equal_sum_of_deals_plus_minus_fines(deals, fine_list):
    cfg = RulesConfig()  # drawn fish: nobody scores; negative totals allowed
    result = SPORT.party_totals(deals, fine_list, cfg)
    for side in "ab":
        other = "b" if side == "a" else "a"
        deal_sum = sum(d.points[side] for d in deals if d.outcome != "drawn_fish")
        deducted = sum(f.points for f in fine_list if f.side == side and f.mode == "deduct")
        awarded = sum(f.points for f in fine_list if f.side == other and f.mode == "award")
        assert result.deal_points[side] == deal_sum
        assert result.points[side] == deal_sum - deducted + awarded
    assert len(result.running) == len(deals)
    if deals:
        assert result.running[-1] == result.deal_points
    assert result.carry == 0


@given(deals=st.lists(deal_scores, max_size=25))
def test_carried_points_are_never_lost(deals):
    cfg = RulesConfig(drawn_fish="carry")
    result = SPORT.party_totals(deals, [], cfg)
    scored = sum(sum(d.points.values()) for d in deals if d.outcome != "drawn_fish")
    carried = sum(d.carry for d in deals if d.outcome == "drawn_fish")
    assert sum(result.points.values()) + result.carry == scored + carried
    # Running totals never go down.
    previous = {"a": 0, "b": 0}
    for row in result.running:
        assert all(row[side] >= previous[side] for side in "ab")
        previous = row


@given(deals=st.lists(deal_scores, max_size=10), fine_list=st.lists(fines, max_size=6))
def test_fines_after_every_deal_are_floored_like_the_final_sum(deals, fine_list):
    # fines given at no deal count after every deal, as one step
    free = SPORT.party_totals(deals, fine_list, RulesConfig())
    clamped = SPORT.party_totals(deals, fine_list, RulesConfig(allow_negative=False))
    assert clamped.points == {side: max(0, value) for side, value in free.points.items()}


@given(
    deals=st.lists(deal_scores, max_size=10),
    fine_list=st.lists(
        st.builds(FineFact, st.sampled_from("ab"), st.integers(0, 100),
                  st.sampled_from(["deduct", "award"]), st.just(1), st.integers(1, 11)),
        max_size=6,
    ),
)
def test_floored_totals_add_up_and_never_go_below_zero(deals, fine_list):
    numbered = [replace(deal, number=n) for n, deal in enumerate(deals, 1)]
    clamped = SPORT.party_totals(numbered, fine_list, RulesConfig(allow_negative=False))
    free = SPORT.party_totals(numbered, fine_list, RulesConfig())
    for side in "ab":
        assert clamped.points[side] >= max(0, free.points[side])
        assert clamped.floored[side] >= 0
        assert clamped.points[side] == (clamped.deal_points[side] + clamped.fine_points[side]
                                        + clamped.floored[side])
    assert clamped.running == free.running


@given(
    a=st.integers(-100, 400),
    b=st.integers(-100, 400),
    time_expired=st.booleans(),
    after=st.integers(0, 3),
)
def test_a_finished_party_always_has_a_strict_winner(a, b, time_expired, after):
    from scoring.rules import Totals

    totals = Totals(
        points={"a": a, "b": b}, deal_points={"a": a, "b": b}, fine_points={"a": 0, "b": 0}
    )
    decision = SPORT.decide(
        totals, RulesConfig(), time_expired=time_expired, deals_after_expiry=after
    )
    if decision.state == "finished":
        loser = "b" if decision.winner == "a" else "a"
        assert totals.points[decision.winner] > totals.points[loser]
    else:
        assert decision.winner is None
    if a == b and (a >= 200 or (time_expired and after >= 1)):
        assert decision.state == "extra_deal"
