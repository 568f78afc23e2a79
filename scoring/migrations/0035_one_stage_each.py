"""Every tournament becomes a one-stage tournament: a stage of its format holding its rounds."""

from django.db import migrations


def qualifying_format(tournament, regulations) -> str:
    """The stage format of a tournament's rounds as its regulations draw them."""
    if tournament.format == "individual":
        return "individual"
    if regulations is not None and regulations.pairing_system == "round_robin":
        return "round_robin"
    return "swiss"


def one_stage_each(apps, schema_editor):
    """A first stage for every tournament, its rounds in it."""
    Tournament = apps.get_model("scoring", "Tournament")
    Regulations = apps.get_model("scoring", "Regulations")
    Stage = apps.get_model("scoring", "Stage")
    Round = apps.get_model("scoring", "Round")
    regulations = {r.tournament_id: r for r in Regulations.objects.all()}
    finished = {"finished": "finished", "registration": "running", "running": "running"}
    for tournament in Tournament.objects.filter(stages__isnull=True).iterator():
        stage = Stage.objects.create(
            tournament_id=tournament.pk, order=1,
            format=qualifying_format(tournament, regulations.get(tournament.pk)),
            status=finished.get(tournament.status, "running"),
        )
        Round.objects.filter(tournament_id=tournament.pk, stage__isnull=True).update(stage=stage)


def undo(apps, schema_editor):
    """Back to tournaments without stages: the rounds leave their stages, which go."""
    Round = apps.get_model("scoring", "Round")
    Stage = apps.get_model("scoring", "Stage")
    Round.objects.update(stage=None)
    Stage.objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [("scoring", "0034_stages")]

    operations = [migrations.RunPython(one_stage_each, undo)]
