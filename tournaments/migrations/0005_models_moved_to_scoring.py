
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('referee', '0004_models_moved_to_scoring'),
        ('scoring', '0004_record_of_every_model'),
        ('tournaments', '0004_rule_sets'),
    ]

    # The models moved to scoring (the party record) without touching the database: their
    # tables keep their names (Meta.db_table), so only Django's state changes here.
    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
            migrations.RemoveField(
                model_name='party',
                name='pair_b',
            ),
            migrations.RemoveField(
                model_name='party',
                name='pair_a',
            ),
            migrations.RemoveField(
                model_name='party',
                name='round',
            ),
            migrations.RemoveField(
                model_name='party',
                name='table',
            ),
            migrations.RemoveField(
                model_name='player',
                name='fixed_table',
            ),
            migrations.RemoveField(
                model_name='player',
                name='tournament',
            ),
            migrations.RemoveField(
                model_name='player',
                name='user',
            ),
            migrations.RemoveField(
                model_name='regulations',
                name='tournament',
            ),
            migrations.RemoveField(
                model_name='round',
                name='tournament',
            ),
            migrations.RemoveField(
                model_name='table',
                name='tournament',
            ),
            migrations.RemoveField(
                model_name='tournamentrole',
                name='tables',
            ),
            migrations.RemoveField(
                model_name='tournament',
                name='created_by',
            ),
            migrations.RemoveField(
                model_name='tournamentrole',
                name='tournament',
            ),
            migrations.RemoveField(
                model_name='tournamentrole',
                name='user',
            ),
            migrations.DeleteModel(
                name='Pair',
            ),
            migrations.DeleteModel(
                name='Party',
            ),
            migrations.DeleteModel(
                name='Player',
            ),
            migrations.DeleteModel(
                name='Regulations',
            ),
            migrations.DeleteModel(
                name='Round',
            ),
            migrations.DeleteModel(
                name='Table',
            ),
            migrations.DeleteModel(
                name='Tournament',
            ),
            migrations.DeleteModel(
                name='TournamentRole',
            ),
            ],
        ),
    ]
