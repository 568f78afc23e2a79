"""Profiles: the compared form of the name, and a profile for every player registered before.

Each existing player gets a profile of his own, made from his name, club and city: namesakes
of different tournaments are NOT merged here (two "Иван Петров" of two clubs may be two
people; the organizer merges them on the merge page). The one exception is a player account:
players of several tournaments logged in as the same user are one person and share a profile
(which carries that user).
"""

import unicodedata

from django.conf import settings
from django.db import migrations, models


def _clean(text):
    return " ".join(unicodedata.normalize("NFC", text or "").split())


def _key(text):
    # a copy of scoring.models.people.person_key as of this migration
    return _clean(text).casefold().replace("ё", "е")


def link_players(apps, schema_editor):
    Profile = apps.get_model("scoring", "Profile")
    Player = apps.get_model("scoring", "Player")
    for profile in Profile.objects.all().iterator():
        profile.name_key = _key(profile.name)
        profile.save(update_fields=["name_key"])
    by_user = {p.user_id: p for p in Profile.objects.exclude(user=None)}
    for player in Player.objects.filter(profile=None).order_by("pk").iterator():
        profile = by_user.get(player.user_id) if player.user_id else None
        if profile is None:
            profile = Profile.objects.create(
                name=_clean(player.name)[:200], name_key=_key(player.name)[:200],
                club=_clean(player.club)[:200], city=_clean(player.city)[:100],
                user_id=player.user_id)
            if player.user_id:
                by_user[player.user_id] = profile
        player.profile_id = profile.pk
        player.save(update_fields=["profile"])


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0022_ratingentry_current'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='profile',
            name='name_key',
            field=models.CharField(blank=True, editable=False, help_text='The name in lower case, ё read as е, spaces collapsed: what matching uses.', max_length=200, verbose_name='name as compared'),
        ),
        migrations.AddIndex(
            model_name='profile',
            index=models.Index(fields=['name_key'], name='profile_name_key_idx'),
        ),
        migrations.RunPython(link_players, migrations.RunPython.noop),
    ]
