"""Fields looked up by name as the kind the caller relies on: a form's or a model's field."""

from __future__ import annotations

from typing import TypeVar

from django import forms
from django.db import models

F = TypeVar("F", bound=forms.Field)


def form_field(form: forms.BaseForm, name: str, kind: type[F]) -> F:
    """The form's field ``name``, which is a ``kind`` (``TypeError`` if it is not)."""
    field = form.fields[name]
    if not isinstance(field, kind):
        raise TypeError(
            f"{type(form).__name__}.{name} is a {type(field).__name__}, not a {kind.__name__}"
        )
    return field


def model_field(model: type[models.Model], name: str) -> models.Field:
    """The model's own field ``name`` (``TypeError`` for a relation from another model)."""
    field = model._meta.get_field(name)
    if not isinstance(field, models.Field):
        raise TypeError(f"{model.__name__}.{name} is a relation from another model")
    return field
