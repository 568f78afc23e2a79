"""Presence at the table per player (issue #34: one player absent makes his pair a no-show)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("scoring", "0029_profile_merges"),
    ]

    operations = [
        migrations.AddField(
            model_name="partydesk",
            name="present_seats",
            field=models.JSONField(
                blank=True,
                default=dict,
                help_text="Seat (a1, a2, b1, b2) → the moment the player checked in.",
                verbose_name="players present since",
            ),
        ),
    ]
