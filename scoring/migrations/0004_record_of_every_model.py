
import django.core.validators
import django.db.models.deletion
import django.utils.timezone
import scoring.models.event
import scoring.timezones
from django.conf import settings
from django.db import migrations, models


MOVED = {
    "tournaments": ["tournament", "tournamentrole", "regulations", "player", "table", "pair", "round", "party"],
    "referee": ["penalty", "ruling", "partyevent", "refereesettings", "partydesk", "idempotencykey"],
}


def move_content_types(apps, schema_editor):
    """Keep the moved models' content types (and so permissions and admin history)."""
    ContentType = apps.get_model("contenttypes", "ContentType")
    for app, models_ in MOVED.items():
        for model in models_:
            if ContentType.objects.filter(app_label="scoring", model=model).exists():
                continue
            ContentType.objects.filter(app_label=app, model=model).update(app_label="scoring")


def move_content_types_back(apps, schema_editor):
    """Undo ``move_content_types``."""
    ContentType = apps.get_model("contenttypes", "ContentType")
    for app, models_ in MOVED.items():
        ContentType.objects.filter(app_label="scoring", model__in=models_).update(app_label=app)


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0004_rule_sets'),
        ('referee', '0003_rule_sets'),
        ('contenttypes', '0002_remove_content_type_name'),
        ('scoring', '0003_rule_sets'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    # The models moved to scoring (the party record) without touching the database: their
    # tables keep their names (Meta.db_table), so only Django's state changes here.
    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
            migrations.CreateModel(
                name='Pair',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('name', models.CharField(blank=True, max_length=200, verbose_name='name')),
                    ('rating', models.IntegerField(default=0, verbose_name='rating')),
                    ('withdrawn', models.BooleanField(default=False, verbose_name='withdrawn')),
                    ('disqualified', models.BooleanField(default=False, verbose_name='disqualified')),
                ],
                options={
                    'verbose_name': 'pair',
                    'verbose_name_plural': 'pairs',
                    'db_table': 'tournaments_pair',
                    'ordering': ['name', 'id'],
                },
            ),
            migrations.CreateModel(
                name='Party',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('status', models.CharField(choices=[('scheduled', 'Not started'), ('in_progress', 'In progress'), ('finished', 'Finished')], default='scheduled', max_length=20, verbose_name='status')),
                    ('started_at', models.DateTimeField(blank=True, null=True, verbose_name='started at')),
                    ('paused_at', models.DateTimeField(blank=True, null=True, verbose_name='clock paused at')),
                    ('paused_seconds', models.FloatField(default=0, verbose_name='seconds paused')),
                    ('time_expired_at', models.DateTimeField(blank=True, null=True, verbose_name='time expired at')),
                    ('finished_at', models.DateTimeField(blank=True, null=True, verbose_name='finished at')),
                    ('end_reason', models.CharField(blank=True, choices=[('target', 'Target reached'), ('time', 'Time expired'), ('forfeit', 'Forfeit (no-show)'), ('disqualification', 'Disqualification'), ('bye', 'Bye')], max_length=20, verbose_name='how the party ended')),
                    ('winner', models.CharField(blank=True, max_length=2, verbose_name='winner')),
                    ('loser', models.CharField(blank=True, help_text="Kozel: the Goat's seat or pair.", max_length=2, verbose_name='loser')),
                    ('game', models.PositiveIntegerField(default=1, help_text='Matches of several games (UDL, All Fives).', verbose_name='game in play')),
                    ('game_started_seconds', models.FloatField(default=0, verbose_name='party time when the game began (seconds)')),
                    ('game_expired_at', models.DateTimeField(blank=True, null=True, verbose_name='game time expired at')),
                    ('version', models.PositiveIntegerField(default=1, verbose_name='version')),
                    ('pair_a', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='parties_as_a', to='scoring.pair', verbose_name='pair A')),
                    ('pair_b', models.ForeignKey(blank=True, help_text='Empty for a bye.', null=True, on_delete=django.db.models.deletion.PROTECT, related_name='parties_as_b', to='scoring.pair', verbose_name='pair B')),
                ],
                options={
                    'verbose_name': 'party',
                    'verbose_name_plural': 'parties',
                    'db_table': 'tournaments_party',
                    'ordering': ['round', 'table__number', 'id'],
                },
            ),
            migrations.CreateModel(
                name='Round',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('number', models.PositiveIntegerField(validators=[django.core.validators.MinValueValidator(1)], verbose_name='number')),
                    ('status', models.CharField(choices=[('draft', 'Draft'), ('published', 'Published'), ('in_progress', 'In progress'), ('finished', 'Finished')], default='draft', max_length=20, verbose_name='status')),
                    ('seed', models.BigIntegerField(blank=True, null=True, verbose_name='draw seed')),
                    ('draw_warnings', models.JSONField(blank=True, default=list, help_text='What the organizer should look at before publishing (template + params).', verbose_name='draw warnings')),
                    ('drawn_at', models.DateTimeField(blank=True, null=True, verbose_name='drawn at')),
                    ('scheduled_start', models.DateTimeField(blank=True, null=True, verbose_name='scheduled start')),
                    ('published_at', models.DateTimeField(blank=True, null=True, verbose_name='published at')),
                    ('finished_at', models.DateTimeField(blank=True, null=True, verbose_name='finished at')),
                ],
                options={
                    'verbose_name': 'round',
                    'verbose_name_plural': 'rounds',
                    'db_table': 'tournaments_round',
                    'ordering': ['tournament', 'number'],
                },
            ),
            migrations.CreateModel(
                name='Table',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('number', models.PositiveIntegerField(validators=[django.core.validators.MinValueValidator(1)], verbose_name='number')),
                    ('label', models.CharField(blank=True, max_length=100, verbose_name='label')),
                ],
                options={
                    'verbose_name': 'table',
                    'verbose_name_plural': 'tables',
                    'db_table': 'tournaments_table',
                    'ordering': ['number'],
                },
            ),
            migrations.CreateModel(
                name='PartyDesk',
                fields=[
                    ('party', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='desk', serialize=False, to='scoring.party', verbose_name='party')),
                    ('present_a', models.DateTimeField(blank=True, null=True, verbose_name='pair A present since')),
                    ('present_b', models.DateTimeField(blank=True, null=True, verbose_name='pair B present since')),
                    ('no_show_raised_at', models.DateTimeField(blank=True, null=True, verbose_name='no-show candidate raised at')),
                    ('no_show_sides', models.CharField(blank=True, max_length=2, verbose_name='absent pairs')),
                ],
                options={
                    'verbose_name': 'party desk',
                    'verbose_name_plural': 'party desks',
                    'db_table': 'referee_partydesk',
                },
            ),
            migrations.AlterField(
                model_name='deal',
                name='party',
                field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='deals', to='scoring.party', verbose_name='party'),
            ),
            migrations.AlterField(
                model_name='protocol',
                name='party',
                field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='protocols', to='scoring.party', verbose_name='party'),
            ),
            migrations.CreateModel(
                name='Player',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('name', models.CharField(max_length=200, verbose_name='name')),
                    ('club', models.CharField(blank=True, max_length=200, verbose_name='club')),
                    ('city', models.CharField(blank=True, max_length=100, verbose_name='city')),
                    ('rating', models.IntegerField(default=0, verbose_name='rating')),
                    ('withdrawn', models.BooleanField(default=False, verbose_name='withdrawn')),
                    ('disqualified', models.BooleanField(default=False, verbose_name='disqualified')),
                    ('access_token', models.CharField(default=scoring.models.event.new_access_token, editable=False, help_text="Opens the player's area without a login; a new key revokes the old link.", max_length=64, unique=True, verbose_name='personal link key')),
                    ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='players', to=settings.AUTH_USER_MODEL, verbose_name='user account')),
                    ('fixed_table', models.ForeignKey(blank=True, help_text='Individual tournaments, for accessibility: always at this table.', null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='scoring.table', verbose_name='fixed table')),
                ],
                options={
                    'verbose_name': 'player',
                    'verbose_name_plural': 'players',
                    'db_table': 'tournaments_player',
                    'ordering': ['name'],
                },
            ),
            migrations.CreateModel(
                name='Penalty',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('reason', models.CharField(blank=True, max_length=300, verbose_name='reason')),
                    ('client_id', models.CharField(blank=True, max_length=64, verbose_name='client id')),
                    ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='given at')),
                    ('kind', models.CharField(choices=[('warning', 'Warning'), ('fine', 'Fine'), ('disqualification', 'Disqualification')], max_length=20, verbose_name='kind')),
                    ('category', models.CharField(choices=[('move_time', 'Move time'), ('talking', 'Talking'), ('signs', 'Signs'), ('conduct', 'Eating, drinking or smoking'), ('touched_tile', 'Touched tile'), ('out_of_turn', 'Out of turn'), ('false_pass', 'False pass'), ('other', 'Other')], max_length=20, verbose_name='violation')),
                    ('side', models.CharField(choices=[('a', 'A'), ('b', 'B'), ('a1', 'A1'), ('b1', 'B1'), ('a2', 'A2'), ('b2', 'B2')], max_length=2, verbose_name='side')),
                    ('points', models.PositiveIntegerField(default=0, verbose_name='points')),
                    ('mode', models.CharField(blank=True, choices=[('deduct', 'Deducted from the offender'), ('award', 'Awarded to the opponents')], max_length=10, verbose_name='fine mode')),
                    ('deal_number', models.PositiveIntegerField(blank=True, null=True, verbose_name='deal')),
                    ('game', models.PositiveIntegerField(default=1, verbose_name='game')),
                    ('cancelled', models.BooleanField(default=False, verbose_name='cancelled')),
                    ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='given by')),
                    ('escalated_from', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='scoring.penalty', verbose_name='escalated from')),
                    ('party', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='penalties', to='scoring.party', verbose_name='party')),
                    ('player', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='penalties', to='scoring.player', verbose_name='player')),
                ],
                options={
                    'verbose_name': 'penalty',
                    'verbose_name_plural': 'penalties',
                    'db_table': 'referee_penalty',
                    'ordering': ['party_id', 'created_at', 'id'],
                    'abstract': False,
                },
            ),
            migrations.AddField(
                model_name='pair',
                name='player1',
                field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='scoring.player', verbose_name='first player'),
            ),
            migrations.AddField(
                model_name='pair',
                name='player2',
                field=models.ForeignKey(blank=True, help_text='Empty for a side of one player (singles), or a bye in an individual event.', null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='scoring.player', verbose_name='second player'),
            ),
            migrations.AlterField(
                model_name='signature',
                name='player',
                field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='protocol_signatures', to='scoring.player', verbose_name='player'),
            ),
            migrations.AlterField(
                model_name='signingpin',
                name='player',
                field=models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='signing_pin', to='scoring.player', verbose_name='player'),
            ),
            migrations.AddField(
                model_name='party',
                name='round',
                field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='parties', to='scoring.round', verbose_name='round'),
            ),
            migrations.AddField(
                model_name='pair',
                name='formed_in_round',
                field=models.ForeignKey(blank=True, help_text='Individual tournaments: the round whose draw formed this pair.', null=True, on_delete=django.db.models.deletion.CASCADE, related_name='formed_pairs', to='scoring.round', verbose_name='formed in round'),
            ),
            migrations.AlterField(
                model_name='printjob',
                name='round',
                field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='print_jobs', to='scoring.round', verbose_name='round'),
            ),
            migrations.CreateModel(
                name='Ruling',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('reason', models.CharField(blank=True, max_length=300, verbose_name='reason')),
                    ('client_id', models.CharField(blank=True, max_length=64, verbose_name='client id')),
                    ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='given at')),
                    ('kind', models.CharField(choices=[('out_of_turn', 'Out of turn'), ('false_pass', 'False pass'), ('touched_tile', 'Touched tile'), ('no_show', 'No-show'), ('disqualification', 'Disqualification')], max_length=20, verbose_name='ruling')),
                    ('side', models.CharField(choices=[('a', 'A'), ('b', 'B'), ('a1', 'A1'), ('b1', 'B1'), ('a2', 'A2'), ('b2', 'B2')], max_length=2, verbose_name='side')),
                    ('seat', models.CharField(blank=True, max_length=2, verbose_name="player's seat")),
                    ('choice', models.CharField(blank=True, choices=[('continue', 'Continue: the exposed tile is played first'), ('reshuffle', 'Reshuffle: the deal is annulled'), ('party', 'From the party'), ('tournament', 'From the tournament')], max_length=20, verbose_name='choice')),
                    ('deal_number', models.PositiveIntegerField(blank=True, null=True, verbose_name='deal')),
                    ('game', models.PositiveIntegerField(default=1, verbose_name='game')),
                    ('details', models.JSONField(blank=True, default=dict, verbose_name='details')),
                    ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='given by')),
                    ('deal', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='scoring.deal', verbose_name='deal recorded or annulled')),
                    ('party', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rulings', to='scoring.party', verbose_name='party')),
                    ('penalty', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='scoring.penalty', verbose_name='penalty')),
                    ('player', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='rulings', to='scoring.player', verbose_name='player')),
                ],
                options={
                    'verbose_name': 'ruling',
                    'verbose_name_plural': 'rulings',
                    'db_table': 'referee_ruling',
                    'ordering': ['party_id', 'created_at', 'id'],
                    'abstract': False,
                },
            ),
            migrations.AddField(
                model_name='party',
                name='table',
                field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='parties', to='scoring.table', verbose_name='table'),
            ),
            migrations.AddField(
                model_name='pair',
                name='fixed_table',
                field=models.ForeignKey(blank=True, help_text='For accessibility: this pair always plays at this table.', null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='scoring.table', verbose_name='fixed table'),
            ),
            migrations.CreateModel(
                name='Tournament',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('name', models.CharField(max_length=200, verbose_name='name')),
                    ('slug', models.SlugField(allow_unicode=True, max_length=80, unique=True, verbose_name='short name')),
                    ('rule_set', models.CharField(choices=[('sport', 'Sport domino'), ('udl', 'UDL singles (All Fives)'), ('allfives', 'All Fives (Muggins)'), ('draw', 'Draw game'), ('block', 'Block game'), ('classic', 'Classic game'), ('latin', 'Latin pairs game'), ('kozel', 'Kozel (Goat)')], default='sport', max_length=20, verbose_name='rule set')),
                    ('format', models.CharField(choices=[('pairs', 'Pairs tournament'), ('individual', 'Individual tournament')], default='pairs', max_length=20, verbose_name='format')),
                    ('status', models.CharField(choices=[('registration', 'Registration'), ('running', 'Running'), ('finished', 'Finished')], default='registration', max_length=20, verbose_name='status')),
                    ('venue', models.CharField(blank=True, max_length=200, verbose_name='venue')),
                    ('city', models.CharField(blank=True, max_length=100, verbose_name='city')),
                    ('start_date', models.DateField(default=django.utils.timezone.localdate, verbose_name='start date')),
                    ('end_date', models.DateField(blank=True, null=True, verbose_name='end date')),
                    ('time_zone', models.CharField(default='Europe/Moscow', help_text='Dates and times of the tournament are shown in it, e.g. Europe/Moscow.', max_length=64, validators=[scoring.timezones.validate_time_zone], verbose_name='time zone')),
                    ('language', models.CharField(choices=[('en', 'English'), ('ru', 'Russian')], default='ru', max_length=8, verbose_name='language of protocols')),
                    ('public', models.BooleanField(default=True, verbose_name='public pages')),
                    ('public_draw', models.BooleanField(default=True, help_text='The table map of the current round.', verbose_name='public draw')),
                    ('public_standings', models.BooleanField(default=True, verbose_name='public standings')),
                    ('public_results', models.BooleanField(default=True, help_text='The results of every round.', verbose_name='public results')),
                    ('public_entrants', models.BooleanField(default=True, help_text="Each pair's and player's history and standing round by round.", verbose_name='public pages of pairs and players')),
                    ('hall_screen', models.BooleanField(default=True, help_text="A page for the hall's projector that cycles through the public pages.", verbose_name='hall screen')),
                    ('start_list', models.JSONField(blank=True, default=list, help_text='Pair ids in start-number order, fixed when the first round is drawn.', verbose_name='round robin start list')),
                    ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created at')),
                    ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='created by')),
                ],
                options={
                    'verbose_name': 'tournament',
                    'verbose_name_plural': 'tournaments',
                    'db_table': 'tournaments_tournament',
                    'ordering': ['-start_date', 'name'],
                },
            ),
            migrations.AddField(
                model_name='table',
                name='tournament',
                field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='tables', to='scoring.tournament', verbose_name='tournament'),
            ),
            migrations.AddField(
                model_name='round',
                name='tournament',
                field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rounds', to='scoring.tournament', verbose_name='tournament'),
            ),
            migrations.CreateModel(
                name='Regulations',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('target', models.PositiveIntegerField(default=200, help_text='A pair wins the party by reaching this score first.', validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(10000)], verbose_name='target points')),
                    ('party_minutes', models.PositiveIntegerField(default=40, validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(180)], verbose_name='time limit of a party (minutes)')),
                    ('domino_counts_partner', models.BooleanField(default=True, help_text='The pair that goes out scores all tiles remaining in hands.', verbose_name="a domino counts the partner's pips")),
                    ('drawn_fish', models.CharField(choices=[('nobody', 'Nobody scores'), ('carry', 'Points carry over to the next deal')], default='nobody', max_length=10, verbose_name='fish with equal pips')),
                    ('fine_points', models.PositiveIntegerField(default=25, validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(168)], verbose_name='fine (points)')),
                    ('fine_mode', models.CharField(choices=[('deduct', 'Deducted from the offending pair'), ('award', 'Awarded to the opponents')], default='deduct', max_length=10, verbose_name='fine mode')),
                    ('allow_negative', models.BooleanField(default=True, verbose_name='a fine may take a total below zero')),
                    ('warnings_before_fine', models.PositiveIntegerField(default=1, help_text='1: the first violation is a warning, a repeated one is a fine.', validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(10)], verbose_name='warnings of one kind before a fine')),
                    ('no_show_minutes', models.PositiveIntegerField(default=5, validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(60)], verbose_name='no-show after (minutes)')),
                    ('forfeit_winner_points', models.PositiveIntegerField(default=200, validators=[django.core.validators.MaxValueValidator(10000)], verbose_name="forfeit: winner's points")),
                    ('forfeit_loser_points', models.PositiveIntegerField(default=0, validators=[django.core.validators.MaxValueValidator(10000)], verbose_name="forfeit: loser's points")),
                    ('win_points', models.PositiveIntegerField(default=2, verbose_name='match points for a win')),
                    ('loss_points', models.PositiveIntegerField(default=0, verbose_name='match points for a loss')),
                    ('forfeit_win_points', models.PositiveIntegerField(default=2, verbose_name='match points for a forfeit win')),
                    ('bye_points', models.PositiveIntegerField(default=2, verbose_name='match points for a bye')),
                    ('forfeit_loss_points', models.PositiveIntegerField(default=0, verbose_name='match points for a forfeit loss')),
                    ('standings_order', models.JSONField(blank=True, default=list, help_text='Metric keys in order; empty for the default order.', verbose_name='standings order')),
                    ('pairing_system', models.CharField(choices=[('swiss', 'Swiss'), ('round_robin', 'Round robin'), ('manual', 'Manual')], default='swiss', max_length=20, verbose_name='pairing system')),
                    ('first_round', models.CharField(choices=[('seeding', 'By seeding (rating)'), ('lot', 'By lot')], default='seeding', max_length=10, verbose_name='first round')),
                    ('avoid_same_club', models.BooleanField(default=False, verbose_name='keep pairs of the same club apart')),
                    ('rounds_planned', models.PositiveIntegerField(default=7, validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(100)], verbose_name='rounds planned')),
                    ('players', models.PositiveIntegerField(default=4, validators=[django.core.validators.MinValueValidator(2), django.core.validators.MaxValueValidator(4)], verbose_name='players at a table')),
                    ('tiles_per_hand', models.PositiveIntegerField(default=0, help_text="0: the rule set's own number.", validators=[django.core.validators.MaxValueValidator(9)], verbose_name='tiles dealt to each player')),
                    ('game_minutes', models.PositiveIntegerField(default=15, help_text='Matches of several games (UDL, All Fives).', validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(180)], verbose_name='time limit of a game (minutes)')),
                    ('games_to_win', models.PositiveIntegerField(default=1, validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(9)], verbose_name='game wins to win a match')),
                    ('udl_slow_play_points', models.PositiveIntegerField(default=20, validators=[django.core.validators.MaxValueValidator(1000)], verbose_name='slow play: points paid to the opponent')),
                    ('fish_variant', models.CharField(choices=[('for_all', 'Fish for all: each scores his own hand'), ('for_one', 'Fish for one: the highest hand takes all')], default='for_all', max_length=10, verbose_name='Kozel: fish')),
                    ('zero_zero_value', models.PositiveIntegerField(default=10, validators=[django.core.validators.MaxValueValidator(1000)], verbose_name='Kozel: a lone 0-0 counts')),
                    ('six_six_value', models.PositiveIntegerField(default=12, validators=[django.core.validators.MaxValueValidator(1000)], verbose_name='Kozel: a lone 6-6 counts')),
                    ('goat_at', models.PositiveIntegerField(default=101, validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(10000)], verbose_name='Kozel: the Goat at')),
                    ('memorize_limit', models.PositiveIntegerField(default=12, validators=[django.core.validators.MaxValueValidator(1000)], verbose_name='Kozel: deal totals memorized up to')),
                    ('kozel_pairs', models.BooleanField(default=False, verbose_name='Kozel: four play as two pairs')),
                    ('tournament', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='regulations', to='scoring.tournament', verbose_name='tournament')),
                ],
                options={
                    'verbose_name': 'regulations',
                    'verbose_name_plural': 'regulations',
                    'db_table': 'tournaments_regulations',
                },
            ),
            migrations.CreateModel(
                name='RefereeSettings',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('penalty_preset', models.CharField(choices=[('sport', 'Sport domino: warnings then fines, as the regulations say'), ('udl', 'Universal Domino League: the second slow play pays the opponent')], default='sport', max_length=10, verbose_name='penalty rules')),
                    ('slow_play_points', models.PositiveIntegerField(default=20, validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(168)], verbose_name='slow play: points paid to the opponent (UDL)')),
                    ('tournament', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='referee_settings', to='scoring.tournament', verbose_name='tournament')),
                ],
                options={
                    'verbose_name': 'referee settings',
                    'verbose_name_plural': 'referee settings',
                    'db_table': 'referee_refereesettings',
                },
            ),
            migrations.AddField(
                model_name='player',
                name='tournament',
                field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='players', to='scoring.tournament', verbose_name='tournament'),
            ),
            migrations.AddField(
                model_name='pair',
                name='tournament',
                field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='pairs', to='scoring.tournament', verbose_name='tournament'),
            ),
            migrations.CreateModel(
                name='TournamentRole',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('role', models.CharField(choices=[('organizer', 'Organizer'), ('chief', 'Chief referee'), ('referee', 'Referee')], max_length=20, verbose_name='role')),
                    ('tables', models.ManyToManyField(blank=True, db_table='tournaments_tournamentrole_tables', help_text='Leave empty for every table of the tournament.', to='scoring.table', verbose_name='tables')),
                    ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='roles', to='scoring.tournament', verbose_name='tournament')),
                    ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='tournament_roles', to=settings.AUTH_USER_MODEL, verbose_name='user')),
                ],
                options={
                    'verbose_name': 'tournament role',
                    'verbose_name_plural': 'tournament roles',
                    'db_table': 'tournaments_tournamentrole',
                },
            ),
            migrations.CreateModel(
                name='IdempotencyKey',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('key', models.CharField(max_length=100, verbose_name='key')),
                    ('fingerprint', models.CharField(max_length=64, verbose_name='request fingerprint')),
                    ('status_code', models.PositiveIntegerField(blank=True, null=True, verbose_name='response status')),
                    ('response', models.JSONField(blank=True, null=True, verbose_name='response')),
                    ('created_at', models.DateTimeField(auto_now_add=True, db_index=True, verbose_name='created at')),
                    ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='user')),
                ],
                options={
                    'verbose_name': 'idempotency key',
                    'verbose_name_plural': 'idempotency keys',
                    'db_table': 'referee_idempotencykey',
                    'constraints': [models.UniqueConstraint(fields=('user', 'key'), name='unique_idempotency_key')],
                },
            ),
            migrations.CreateModel(
                name='PartyEvent',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('seq', models.PositiveIntegerField(verbose_name='sequence')),
                    ('at', models.DateTimeField(auto_now_add=True, verbose_name='at')),
                    ('kind', models.CharField(max_length=40, verbose_name='what')),
                    ('data', models.JSONField(blank=True, default=dict, verbose_name='details')),
                    ('reason', models.CharField(blank=True, max_length=300, verbose_name='why')),
                    ('actor', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='by')),
                    ('party', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='events', to='scoring.party', verbose_name='party')),
                ],
                options={
                    'verbose_name': 'party event',
                    'verbose_name_plural': 'party events',
                    'db_table': 'referee_partyevent',
                    'ordering': ['party_id', 'seq'],
                    'constraints': [models.UniqueConstraint(fields=('party', 'seq'), name='unique_event_seq')],
                },
            ),
            migrations.AddConstraint(
                model_name='penalty',
                constraint=models.UniqueConstraint(condition=models.Q(('client_id', ''), _negated=True), fields=('party', 'client_id'), name='unique_penalty_client_id'),
            ),
            migrations.AddConstraint(
                model_name='ruling',
                constraint=models.UniqueConstraint(condition=models.Q(('client_id', ''), _negated=True), fields=('party', 'client_id'), name='unique_ruling_client_id'),
            ),
            migrations.AddConstraint(
                model_name='party',
                constraint=models.UniqueConstraint(fields=('round', 'table'), name='unique_table_per_round'),
            ),
            migrations.AddConstraint(
                model_name='party',
                constraint=models.CheckConstraint(condition=models.Q(('pair_a', models.F('pair_b')), _negated=True), name='party_pairs_distinct'),
            ),
            migrations.AddConstraint(
                model_name='table',
                constraint=models.UniqueConstraint(fields=('tournament', 'number'), name='unique_table_number'),
            ),
            migrations.AddConstraint(
                model_name='round',
                constraint=models.UniqueConstraint(fields=('tournament', 'number'), name='unique_round_number'),
            ),
            migrations.AddConstraint(
                model_name='pair',
                constraint=models.CheckConstraint(condition=models.Q(('player1', models.F('player2')), _negated=True), name='pair_players_distinct'),
            ),
            migrations.AddConstraint(
                model_name='tournamentrole',
                constraint=models.UniqueConstraint(fields=('tournament', 'user', 'role'), name='unique_role_per_tournament'),
            ),
            ],
        ),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]
