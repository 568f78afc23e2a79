"""A player's country and the regulations' results counted per club (club standings)."""

import django.core.validators
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0036_teams'),
    ]

    operations = [
        migrations.AddField(
            model_name='player',
            name='country',
            field=models.CharField(blank=True, help_text='Optional; the standings add up the best results of each country.', max_length=100, verbose_name='country'),
        ),
        migrations.AddField(
            model_name='regulations',
            name='club_best_results',
            field=models.PositiveIntegerField(default=2, help_text="The club and country standings add up this many best results of each club's (country's) entrants.", validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(100)], verbose_name='results counted per club'),
        ),
    ]
