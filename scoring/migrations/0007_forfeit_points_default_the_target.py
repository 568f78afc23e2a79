"""The forfeit winner's points default to the target (empty: "the target").

Until now every tournament was created with 200 whatever its target, so a stored 200 is the
old default, not a choice: it becomes empty (the target) where the target is 200 (no figure
changes) and in every tournament not yet finished (a UDL match to 150, a Classic game to 100
now forfeit at their target, as their standings' efectiveness already counts it). A finished
tournament with another target keeps its 200, so its published results stay as they were.
Any other value was set by hand and stays.
"""

import django.core.validators
from django.db import migrations, models
from django.db.models import Q

OLD_DEFAULT = 200


def to_the_target(apps, schema_editor):
    """Empty the old default where it means the target, or where results are not final."""
    regulations = apps.get_model("scoring", "Regulations")
    regulations.objects.filter(forfeit_winner_points=OLD_DEFAULT).filter(
        Q(target=OLD_DEFAULT) | ~Q(tournament__status="finished")
    ).update(forfeit_winner_points=None)


def back_to_200(apps, schema_editor):
    """Reverse: an empty setting is the old default again."""
    regulations = apps.get_model("scoring", "Regulations")
    regulations.objects.filter(forfeit_winner_points=None).update(
        forfeit_winner_points=OLD_DEFAULT
    )


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0006_classic_lone_zero_zero_in_fish'),
    ]

    operations = [
        migrations.AlterField(
            model_name='regulations',
            name='forfeit_winner_points',
            field=models.PositiveIntegerField(blank=True, default=None, help_text='Empty: the target, the maximum points the regulations provide.', null=True, validators=[django.core.validators.MaxValueValidator(10000)], verbose_name="forfeit: winner's points"),
        ),
        migrations.RunPython(to_the_target, back_to_200),
    ]
