"""An index for a page of a published rating list: its current rows, best first."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0042_team_players'),
    ]

    operations = [
        migrations.AddIndex(
            model_name='ratingentry',
            index=models.Index(fields=['rating_list', 'current', '-rating', 'subject'],
                               name='rating_entry_rank_idx'),
        ),
    ]
