"""Every desk input gets fields of its own, copied from a prototype made once per class: two
inputs of one action share no field, a list's items answer to their own list, and what one
request sent never shows in another's answer."""

import pytest

from referee.serializers import PARTY_ACTIONS


@pytest.mark.parametrize("name", sorted(PARTY_ACTIONS))
def test_two_inputs_of_an_action_share_no_field(name):
    first, second = (PARTY_ACTIONS[name](data={}, context={"n": n}) for n in (1, 2))
    assert list(first.fields) == list(second.fields) == list(first.get_fields())
    for field_name, field in first.fields.items():
        other = second.fields[field_name]
        assert field is not other and field.parent is first and other.parent is second
        assert field.field_name == field_name and field.context == {"n": 1}
        child = field.__dict__.get("child")
        if child is not None:  # a list's or a dict's items: their own, under their own list
            assert child is not other.child and child.parent is field
            assert child.root is first and child.context == {"n": 1}


def test_what_one_request_sent_stays_in_its_answer():
    deal = PARTY_ACTIONS["deal"]
    wrong = deal(data={"outcome": "fish", "side": "c", "points": {"a": "x"}})
    assert not wrong.is_valid()
    assert set(wrong.errors) >= {"side"}
    right = deal(data={"outcome": "fish", "side": "a", "points": {"a": 7, "b": 0}})
    assert right.is_valid(), right.errors
    assert right.validated_data["points"] == {"a": 7, "b": 0}
    assert deal(data={"outcome": "fish", "side": "c"}).is_valid() is False  # refused again
