"""Write every export of the demo into OUT (`.ci/demo-exports export`, through manage.py shell)."""
import datetime as dt
import os
from pathlib import Path
from unittest import mock

from scoring.models import Tournament
from tournaments.transfer import exports
from tournaments.transfer.archive import export_bytes
from tournaments.transfer.sheets import render as render_sheet

out = Path(os.environ["OUT"])
out.mkdir(parents=True, exist_ok=True)
fixed = dt.datetime(2026, 12, 4, 12, 0, tzinfo=dt.UTC)
with mock.patch("django.utils.timezone.now", return_value=fixed):
    for t in Tournament.objects.order_by("slug"):
        (out / f"{t.slug}.json").write_bytes(export_bytes(t))
        for what in exports.EXPORTS:
            for fmt in exports.FORMATS:
                for lang in ("en", "ru"):
                    sheet = exports.export_sheet(t, what, language=lang)
                    (out / f"{t.slug}-{what}-{lang}.{fmt}").write_bytes(render_sheet(sheet, fmt))
print("wrote", len(list(out.iterdir())))
