"""Asking before a costly one-click action of a page, and naming what it costs.

The button carries the question (``data-confirm``) for the browser's dialog
(``static/js/desk-confirm.js``), which adds ``confirmed=1`` to the form before it is sent.
Without the script the server never acts on an unconfirmed form: it answers with a
confirmation page (or, for htmx, a fragment) that repeats the form's fields with
``confirmed=1`` and names the consequence. The JSON API never asks.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

CONFIRMED = "confirmed"
"""The form field that says the person confirmed the consequence ("1")."""
NOT_REPEATED = ("csrfmiddlewaretoken", CONFIRMED)


def confirmed(request: HttpRequest) -> bool:
    """Whether the posted form carries the confirmation."""
    return request.POST.get(CONFIRMED) == "1"


def question(request: HttpRequest, text: str, cancel_url: str, *,
             target: str = "") -> dict[str, Any]:
    """The confirmation of the posted form: its text, address, fields and way back.

    ``target``: the element an htmx confirmation replaces (empty: a plain form). A way back
    to the page the question is shown at loses its fragment: a link to the same address with
    a fragment would only scroll the question's page, not go back.
    """
    path, _hash, _fragment = cancel_url.partition("#")
    if path == request.path:
        cancel_url = path
    fields = [(key, value) for key, values in request.POST.lists() if key not in NOT_REPEATED
              for value in values]
    return {"text": text, "action": request.path, "fields": fields, "cancel": cancel_url,
            "target": target}


def ask_page(request: HttpRequest, text: str, cancel_url: str, *,
             title: str = "") -> HttpResponse:
    """The page that asks before the posted action is done (nothing was done)."""
    return render(request, "ask_first.html",
                  {"ask": question(request, text, cancel_url), "title": title})
