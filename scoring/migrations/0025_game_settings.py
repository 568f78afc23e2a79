"""The regulations' 14 game settings move from a column each into one field, ``game_settings``.

Every row's values are copied into it by name (data kept); going back copies them into the
columns again (a setting the field lacks gets the column's default).
"""

from django.db import migrations, models


# The columns of before, with their defaults, in the order of the regulations' fields.
COLUMNS = {
    "players": 4,
    "tiles_per_hand": 0,
    "game_minutes": 15,
    "games_to_win": 1,
    "match_format": "to_wins",
    "udl_slow_play_points": 20,
    "fish_variant": "for_all",
    "zero_zero_value": 10,
    "six_six_value": 12,
    "goat_at": 101,
    "memorize_limit": 12,
    "kozel_pairs": False,
    "lone_zero_zero_in_fish": False,
    "latin_individual": False,
}


def into_one_field(apps, schema_editor):
    """Copy each row's game settings from their columns into ``game_settings``."""
    regulations = apps.get_model("scoring", "Regulations")
    for row in regulations.objects.order_by("pk").iterator():
        row.game_settings = {name: getattr(row, name) for name in COLUMNS}
        row.save(update_fields=["game_settings"])


def back_to_columns(apps, schema_editor):
    """Reverse: each setting into its column again."""
    regulations = apps.get_model("scoring", "Regulations")
    for row in regulations.objects.order_by("pk").iterator():
        stored = row.game_settings if isinstance(row.game_settings, dict) else {}
        for name, default in COLUMNS.items():
            setattr(row, name, stored.get(name, default))
        row.save(update_fields=list(COLUMNS))


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0024_tournament_rule_set_registry'),
    ]

    operations = [
        migrations.AddField(
            model_name='regulations',
            name='game_settings',
            field=models.JSONField(blank=True, default=dict, help_text='The settings of the games of RULES.md sections 2 and 3, by name.', verbose_name='game settings'),
        ),
        migrations.RunPython(into_one_field, back_to_columns),
        *[migrations.RemoveField(model_name='regulations', name=name) for name in COLUMNS],
    ]
