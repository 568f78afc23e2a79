
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0004_record_of_every_model'),
        ('referee', '0003_rule_sets'),
    ]

    # The models moved to scoring (the party record) without touching the database: their
    # tables keep their names (Meta.db_table), so only Django's state changes here.
    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
            migrations.RemoveField(
                model_name='partydesk',
                name='party',
            ),
            migrations.RemoveField(
                model_name='partyevent',
                name='actor',
            ),
            migrations.RemoveField(
                model_name='partyevent',
                name='party',
            ),
            migrations.RemoveField(
                model_name='penalty',
                name='created_by',
            ),
            migrations.RemoveField(
                model_name='penalty',
                name='escalated_from',
            ),
            migrations.RemoveField(
                model_name='penalty',
                name='party',
            ),
            migrations.RemoveField(
                model_name='penalty',
                name='player',
            ),
            migrations.RemoveField(
                model_name='ruling',
                name='penalty',
            ),
            migrations.RemoveField(
                model_name='refereesettings',
                name='tournament',
            ),
            migrations.RemoveField(
                model_name='ruling',
                name='created_by',
            ),
            migrations.RemoveField(
                model_name='ruling',
                name='deal',
            ),
            migrations.RemoveField(
                model_name='ruling',
                name='party',
            ),
            migrations.RemoveField(
                model_name='ruling',
                name='player',
            ),
            migrations.DeleteModel(
                name='IdempotencyKey',
            ),
            migrations.DeleteModel(
                name='PartyDesk',
            ),
            migrations.DeleteModel(
                name='PartyEvent',
            ),
            migrations.DeleteModel(
                name='Penalty',
            ),
            migrations.DeleteModel(
                name='RefereeSettings',
            ),
            migrations.DeleteModel(
                name='Ruling',
            ),
            ],
        ),
    ]
