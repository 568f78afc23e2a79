"""The tournament's rule set is chosen from the registry as it is when asked (no list frozen
here): a game registered later needs no migration."""

import scoring.models.tournament
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0023_profile_links'),
    ]

    operations = [
        migrations.AlterField(
            model_name='tournament',
            name='rule_set',
            field=models.CharField(choices=scoring.models.tournament.registered_rule_sets, default='sport', max_length=20, verbose_name='rule set'),
        ),
    ]
