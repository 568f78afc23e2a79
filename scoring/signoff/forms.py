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
        data = super().clean() or self.cleaned_data
        if not data.get("code") and not data.get("pdf"):
            raise forms.ValidationError(_("Type the short code or choose the PDF file."))
        return data


class PinForm(forms.Form):
    """A player's personal signing PIN, typed twice (a player changing his: and the old one)."""

    current = forms.CharField(
        label=_("Your current PIN or your password"), max_length=128, required=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}))
    pin = forms.CharField(label=_("PIN (4 to 8 digits)"), min_length=4, max_length=8,
                          widget=forms.PasswordInput(attrs={"inputmode": "numeric",
                                                            "autocomplete": "new-password"}))
    again = forms.CharField(label=_("The PIN again"), max_length=8,
                            widget=forms.PasswordInput(attrs={"inputmode": "numeric",
                                                              "autocomplete": "new-password"}))

    def __init__(self, *args: Any, ask_current: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if ask_current:
            self.fields["current"].required = True
        else:
            del self.fields["current"]

    def clean(self) -> dict[str, Any]:
        """Both entries must match."""
        data = super().clean() or self.cleaned_data
        if data.get("pin") and data.get("pin") != data.get("again"):
            self.add_error("again", _("The two PINs differ."))
        return data
