"""No models here: every model lives in ``scoring.models`` (the lowest Django layer).

The landed migration ``0003_public_pages_player_links`` names this module's
``new_access_token``, so the name stays importable from here.
"""

from scoring.models import new_access_token

__all__ = ["new_access_token"]
