"""django-axes' database handler with a second limit: failures from one address across
usernames (password spraying), ``LOGIN_ADDRESS_FAILURE_LIMIT`` (``AXES_HANDLER``).

Axes counts per username and address (``AXES_LOCKOUT_PARAMETERS``) and has a single failure
limit for every parameter it counts; a limit per address as low as a username's would lock a
tournament hall behind one address after five typos. So axes keeps its own policy, and this
handler adds the address's: locked while ``scoring.people.lockouts.address_locked_until`` says
so (checked before the password is looked at, as axes' own), announced once with
``user_locked_out`` and ``request.axes_address_locked`` set, which the lockout log reads.
"""

from __future__ import annotations

from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username
from axes.signals import user_locked_out

from scoring.people import lockouts


class AddressLimitHandler(AxesDatabaseHandler):
    """Axes' database handler that also locks an address after too many failures from it
    across usernames."""

    def is_locked(self, request: Any, credentials: dict[str, Any] | None = None) -> bool:
        """Locked when the address is (whatever the username), or by axes' own count."""
        address = getattr(request, "axes_ip_address", None)
        request.axes_address_locked = lockouts.address_locked_until(address) is not None
        return request.axes_address_locked or super().is_locked(request, credentials)

    def user_login_failed(self, sender: Any, credentials: dict[str, Any],
                          request: Any = None, **kwargs: Any) -> None:
        """Count the failure as axes does; the one that reaches the address's limit locks the
        address (announced like axes' lockouts)."""
        refused = request is not None and getattr(request, "axes_locked_out", False)
        super().user_login_failed(sender, credentials, request, **kwargs)
        if request is None or refused or getattr(request, "axes_address_locked", False):
            return
        address = getattr(request, "axes_ip_address", None)
        if lockouts.address_locked_until(address) is None:
            return
        request.axes_address_locked = True
        request.axes_locked_out = True
        request.axes_credentials = credentials
        user_locked_out.send("axes", request=request,
                             username=get_client_username(request, credentials),
                             ip_address=address)
