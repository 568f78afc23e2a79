"""The standings order on the regulations page: numbered selects of the metrics' names.

The first select decides most; each offers the metrics of the tournament's rule set by their
translated names (never their keys). It is plain HTML, so it works without script (the field
refuses a metric chosen twice); ``static/js/app.js`` greys out a metric already chosen.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.standings import METRICS, default_order, rule_set_metrics

if TYPE_CHECKING:
    from django.core.files.uploadedfile import UploadedFile
    from django.forms.renderers import BaseRenderer
    from django.utils.datastructures import MultiValueDict
    from django.utils.safestring import SafeString

#: Numbered places shown (more when the stored order is longer).
PLACES = 6


def metric_name(key: str) -> str:
    """A metric's translated name."""
    return _(METRICS[key].name)


class MetricOrderWidget(forms.Widget):
    """An ordered list of numbered selects, one per place: ``<name>_0``, ``<name>_1`` …"""

    def __init__(self, choices: list[tuple[str, str]] | None = None, places: int = PLACES,
                 attrs: dict[str, Any] | None = None) -> None:
        super().__init__(attrs)
        self.choices = choices or []
        self.places = places
        self.place_label: Any = None
        """The hidden label of each place ("Place 2 …"; the standings order's by default)."""

    def value_from_datadict(self, data: Mapping[str, Any],
                            files: MultiValueDict[str, UploadedFile], name: str) -> list[str]:
        """The keys chosen place by place (empty places included, dropped by the field)."""
        return [data.get(f"{name}_{i}", "") for i in range(self.places)]

    def value_omitted_from_data(self, data: Mapping[str, Any],
                                files: MultiValueDict[str, UploadedFile], name: str) -> bool:
        """Omitted when no place was sent at all."""
        return not any(f"{name}_{i}" in data for i in range(self.places))

    def id_for_label(self, id_: str) -> str:
        """The field's label points at the first place."""
        return f"{id_}_0" if id_ else id_

    def render(self, name: str, value: Any, attrs: dict[str, Any] | None = None,
               renderer: BaseRenderer | None = None) -> SafeString:
        """``<ol>`` of labelled selects, the stored order preselected."""
        chosen = list(value or [])
        base = (attrs or {}).get("id") or f"id_{name}"
        items = []
        for i in range(self.places):
            current = chosen[i] if i < len(chosen) else ""
            options = format_html_join(
                "", '<option value="{}"{}>{}</option>',
                ((key, " selected" if key == current else "", label)
                 for key, label in [("", "—"), *self.choices]),
            )
            items.append(format_html(
                '<li><label for="{id}_{i}" class="sr-only">{place}</label>'
                '<select name="{name}_{i}" id="{id}_{i}" data-metric-place>{options}</select></li>',
                id=base, i=i, name=name, options=options,
                place=(self.place_label or _("Place %(number)s in the standings order"))
                % {"number": i + 1},
            ))
        return format_html('<ol class="metric-order" id="{}">{}</ol>', base,
                           format_html_join("", "{}", ((item,) for item in items)))


class MetricOrderField(forms.Field):
    """The standings order: metric keys of the rule set, first deciding most (a JSON list)."""

    widget = MetricOrderWidget
    default_error_messages = {
        "twice": gettext_lazy("%(name)s is chosen twice."),
        "foreign": gettext_lazy("%(name)s is not a standings metric of this rule set."),
    }

    def __init__(self, *, rule_set: str = "sport", **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)
        self.set_rule_set(rule_set)

    def set_rule_set(self, rule_set: str, stored: list[str] | None = None) -> None:
        """Offer the rule set's metrics, in as many places as the stored order needs."""
        self.offered = rule_set_metrics(rule_set)
        self.widget.choices = [(key, metric_name(key)) for key in self.offered]
        self.widget.places = min(len(self.offered), max(PLACES, len(stored or ())))
        self.help_text = _(
            "The first place decides most; leave every place empty for the rule set's own "
            "order: %(order)s."
        ) % {"order": ", ".join(metric_name(key) for key in default_order(rule_set))}

    def to_python(self, value: Any) -> list[str]:
        """The chosen keys in order, empty places left out."""
        if isinstance(value, str):  # a comma-separated list (an older client)
            value = value.split(",")
        return [str(key).strip() for key in (value or []) if str(key).strip()]

    def validate(self, value: list[str]) -> None:
        """Each metric once, and only the rule set's."""
        super().validate(value)
        for key in value:
            if key not in self.offered:
                name = metric_name(key) if key in METRICS else key
                raise forms.ValidationError(self.error_messages["foreign"], code="foreign",
                                            params={"name": name})
            if value.count(key) > 1:
                raise forms.ValidationError(self.error_messages["twice"], code="twice",
                                            params={"name": metric_name(key)})
