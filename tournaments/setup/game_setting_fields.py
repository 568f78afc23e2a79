"""The game settings in the organizer's words: form fields, labels and shown values, each made
from the rule engine's declaration (:mod:`scoring.rules.game_settings`), translated here."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils.text import capfirst
from django.utils.translation import gettext, gettext_lazy

from scoring.rules.game_settings import BOOL, BY_NAME, CHOICE, GameSetting

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

    from scoring.models import Regulations


def setting_label(setting: GameSetting[Any]) -> StrOrPromise:
    """The setting's label as a form shows it ("Kozel: the Goat at"), translated lazily."""
    return capfirst(gettext_lazy(setting.label))


def setting_choices(setting: GameSetting[Any]) -> list[tuple[str, StrOrPromise]]:
    """A choice setting's (value, translated label) pairs."""
    return [(value, gettext_lazy(label)) for value, label in setting.choices]


def setting_bounds(setting: GameSetting[Any]) -> list[Any]:
    """The validators of a whole-number setting's bounds (its least value, its greatest)."""
    bounds: list[Any] = [MinValueValidator(setting.minimum)]
    if setting.maximum is not None:
        bounds.append(MaxValueValidator(setting.maximum))
    return bounds


def setting_form_field(setting: GameSetting[Any]) -> forms.Field:
    """The regulations form's field of a game setting, as its column's field was."""
    common: dict[str, Any] = {
        "label": setting_label(setting),
        "help_text": gettext_lazy(setting.help_text) if setting.help_text else "",
        "initial": setting.default,
    }
    if setting.kind == BOOL:
        return forms.BooleanField(required=False, **common)
    if setting.kind == CHOICE:
        return forms.TypedChoiceField(choices=setting_choices(setting), **common)
    return forms.IntegerField(widget=forms.NumberInput(attrs={"min": 0}),
                              validators=setting_bounds(setting), **common)


def game_settings_display(regulations: Regulations) -> list[tuple[str, str]]:
    """The game settings of the tournament's rule set as (label, value shown) pairs."""
    out = []
    for setting in regulations.tournament.engine.settings:
        value = getattr(regulations, setting.name)
        if setting.kind == CHOICE:
            shown = gettext(setting.choice_label(value))
        elif setting.kind == BOOL:
            shown = gettext("yes") if value else gettext("no")
        else:
            shown = str(value)
        out.append((gettext(setting.label), shown))
    return out


def hidden_setting_label(name: str) -> StrOrPromise | None:
    """The label of a game setting a form leaves out (None: ``name`` is not one)."""
    setting = BY_NAME.get(name)
    return None if setting is None else gettext_lazy(setting.label)
