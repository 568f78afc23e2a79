"""Slow play is paid by one setting: the regulations' ``udl_slow_play_points``.

The referee settings' own ``slow_play_points`` goes. Where the desk's UDL rules named other
points than the regulations' default, they were what the desk's move-time fines paid, so they
move into the regulations (a value the regulations set by hand stays).
"""

from django.db import migrations

DEFAULT = 20


def into_the_regulations(apps, schema_editor):
    """Copy a desk's own slow-play points into regulations still at the default."""
    settings = apps.get_model("scoring", "RefereeSettings")
    regulations = apps.get_model("scoring", "Regulations")
    for found in settings.objects.filter(penalty_preset="udl").exclude(slow_play_points=DEFAULT):
        regulations.objects.filter(
            tournament_id=found.tournament_id, udl_slow_play_points=DEFAULT
        ).update(udl_slow_play_points=found.slow_play_points)


def back_to_the_desk(apps, schema_editor):
    """Reverse: the desk's points are the regulations' again."""
    settings = apps.get_model("scoring", "RefereeSettings")
    regulations = apps.get_model("scoring", "Regulations")
    for found in settings.objects.all():
        points = regulations.objects.filter(tournament_id=found.tournament_id).values_list(
            "udl_slow_play_points", flat=True).first()
        if points:
            found.slow_play_points = min(points, 168)
            found.save(update_fields=["slow_play_points"])


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0007_forfeit_points_default_the_target'),
    ]

    operations = [
        migrations.RunPython(into_the_regulations, back_to_the_desk),
        migrations.RemoveField(
            model_name='refereesettings',
            name='slow_play_points',
        ),
    ]
