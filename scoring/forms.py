"""Page forms: protocol verification and signing PINs.

Entering, correcting or annulling a deal goes through the referee desk's serializers
(``referee.serializers.deals``) and ``referee.corrections``.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _


class VerifyForm(forms.Form):
    """The verification page: a protocol's short code, or the PDF file itself."""

    code = forms.CharField(label=_("Short code"), max_length=20, required=False)
    pdf = forms.FileField(label=_("Protocol PDF"), required=False)

    not_found = False

    def clean(self) -> dict[str, Any]:
        """Either a code or a file."""
        data = super().clean()
        if not data.get("code") and not data.get("pdf"):
            raise forms.ValidationError(_("Type the short code or choose the PDF file."))
        return data


class PinForm(forms.Form):
    """A player's personal signing PIN, typed twice."""

    pin = forms.CharField(label=_("PIN (4 to 8 digits)"), min_length=4, max_length=8,
                          widget=forms.PasswordInput(attrs={"inputmode": "numeric",
                                                            "autocomplete": "new-password"}))
    again = forms.CharField(label=_("The PIN again"), max_length=8,
                            widget=forms.PasswordInput(attrs={"inputmode": "numeric",
                                                              "autocomplete": "new-password"}))

    def clean(self) -> dict[str, Any]:
        """Both entries must match."""
        data = super().clean()
        if data.get("pin") and data.get("pin") != data.get("again"):
            self.add_error("again", _("The two PINs differ."))
        return data
