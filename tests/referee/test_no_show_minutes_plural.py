"""Issue #13 item 13: the no-show wait is told in the right plural form, English and Russian."""

from __future__ import annotations

import pytest
from django.utils import translation

from referee import services
from scoring.core.errors import ServiceError
from scoring.models import Party

pytestmark = pytest.mark.django_db


def refusal(party) -> str:
    """The message of a no-show declared before the regulations' wait is over."""
    with pytest.raises(ServiceError) as err:
        services.rule_no_show(party.pk, absent_side="b")
    assert Party.objects.get(pk=party.pk).status == "in_progress"
    return err.value.message


@pytest.mark.parametrize(
    ("minutes", "english"),
    [(1, "only 1 minute after"), (2, "only 2 minutes after"), (5, "only 5 minutes after")],
)
def test_no_show_wait_in_english_is_singular_or_plural(party, regs, minutes, english):
    regs(no_show_minutes=minutes)
    with translation.override("en"):
        assert english in refusal(party)


@pytest.mark.parametrize(
    ("minutes", "russian"),
    [(1, "через 1 минуту"), (3, "через 3 минуты"), (5, "через 5 минут"), (21, "через 21 минуту")],
)
def test_no_show_wait_in_russian_has_its_three_plural_forms(party, regs, minutes, russian):
    regs(no_show_minutes=minutes)
    with translation.override("ru"):
        assert russian in refusal(party)
