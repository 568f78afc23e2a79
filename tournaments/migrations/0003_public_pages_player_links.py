"""Per-tournament switches of the public pages, the time zone check, personal link keys."""

import tournaments.models
import tournaments.timezones
from django.db import migrations, models


def give_every_player_a_key(apps, schema_editor):
    """A fresh personal link key for each player registered before keys existed."""
    Player = apps.get_model('tournaments', 'Player')
    players = list(Player.objects.filter(access_token__isnull=True).only('pk'))
    for player in players:
        player.access_token = tournaments.models.new_access_token()
    Player.objects.bulk_update(players, ['access_token'], batch_size=1000)


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0002_rounds_draws_individual'),
    ]

    operations = [
        # a unique key per existing player: add the column empty, fill it, then make it unique
        migrations.AddField(
            model_name='player',
            name='access_token',
            field=models.CharField(editable=False, max_length=64, null=True, verbose_name='personal link key'),
        ),
        migrations.RunPython(give_every_player_a_key, migrations.RunPython.noop),
        migrations.AlterField(
            model_name='player',
            name='access_token',
            field=models.CharField(default=tournaments.models.new_access_token, editable=False, help_text="Opens the player's area without a login; a new key revokes the old link.", max_length=64, unique=True, verbose_name='personal link key'),
        ),
        migrations.AddField(
            model_name='tournament',
            name='hall_screen',
            field=models.BooleanField(default=True, help_text="A page for the hall's projector that cycles through the public pages.", verbose_name='hall screen'),
        ),
        migrations.AddField(
            model_name='tournament',
            name='public_draw',
            field=models.BooleanField(default=True, help_text='The table map of the current round.', verbose_name='public draw'),
        ),
        migrations.AddField(
            model_name='tournament',
            name='public_entrants',
            field=models.BooleanField(default=True, help_text="Each pair's and player's history and standing round by round.", verbose_name='public pages of pairs and players'),
        ),
        migrations.AddField(
            model_name='tournament',
            name='public_results',
            field=models.BooleanField(default=True, help_text='The results of every round.', verbose_name='public results'),
        ),
        migrations.AddField(
            model_name='tournament',
            name='public_standings',
            field=models.BooleanField(default=True, verbose_name='public standings'),
        ),
        migrations.AlterField(
            model_name='tournament',
            name='time_zone',
            field=models.CharField(default='Europe/Moscow', help_text='Dates and times of the tournament are shown in it, e.g. Europe/Moscow.', max_length=64, validators=[tournaments.timezones.validate_time_zone], verbose_name='time zone'),
        ),
    ]
