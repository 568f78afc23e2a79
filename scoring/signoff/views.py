"""Pages of protocols: sign-off on the party page, downloads, public verification, round prints."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.defaultfilters import filesizeformat
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring.access import permissions
from scoring.core import asking
from scoring.core.errors import ServiceError
from scoring.core.timezones import activate_tournament_zone
from scoring.core.web import is_htmx, page_or_fragment, vary_on_htmx
from scoring.models import PARTY_RELATED, Party, Player, PrintJob, Round, SigningPin
from scoring.party.protocol_lock import current_protocol
from scoring.people import lockouts
from scoring.signoff import pins, printing, verification
from scoring.signoff import services as protocol_services
from scoring.signoff.forms import PinForm, VerifyForm
from scoring.signoff.section import countersign_question, section_context


def _visible_party(request: HttpRequest, pk: int) -> Party:
    """A party of a tournament the visitor may see (404 otherwise)."""
    party = get_object_or_404(Party.objects.select_related(*PARTY_RELATED), pk=pk)
    if not permissions.can_view(request.user, party.round.tournament):
        raise Http404
    activate_tournament_zone(party.round.tournament)
    return party


def pdf_response(pdf: bytes, filename: str) -> HttpResponse:
    """A PDF download that is never cached by shared caches."""
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "private, no-store"
    return response


def _after_sign_off(request: HttpRequest, party: Party, action: Callable[..., object],
                    done: str, **kwargs: Any) -> HttpResponse:
    """Run a sign-off service and show its outcome: in the section itself for htmx (the
    table device), else as a message on the party page."""
    error = ""
    try:
        action(party.pk, actor=request.user, **kwargs)
    except ServiceError as err:
        error = str(err.message)
    if is_htmx(request):
        party.refresh_from_db()
        context = {**section_context(request, party), "error": error, "notice": "" if error
                   else done}
        return vary_on_htmx(render(request, "scoring/_protocol.html", context))
    if error:
        messages.error(request, error)
    else:
        messages.success(request, done)
    return redirect(f"{party.get_absolute_url()}#protocol")


@require_POST
@login_required
def protocol_sign(request: HttpRequest, pk: int) -> HttpResponse:
    """A player signs: logged in as himself, or with his PIN on the referee's table device."""
    party = _visible_party(request, pk)
    return _after_sign_off(
        request, party, protocol_services.sign_as_player, _("Signed."),
        player_id=request.POST.get("player", ""), pin=request.POST.get("pin", "").strip(),
        address=lockouts.client_address(request))


@require_POST
@login_required
def protocol_refuse(request: HttpRequest, pk: int) -> HttpResponse:
    """The referee records a player's refusal to sign, with the reason."""
    party = _visible_party(request, pk)
    return _after_sign_off(
        request, party, protocol_services.record_refusal, _("The refusal was recorded."),
        player_id=request.POST.get("player", ""), reason=request.POST.get("reason", ""))


@require_POST
@login_required
def protocol_countersign(request: HttpRequest, pk: int) -> HttpResponse:
    """The referee countersigns: the protocol is signed and the party locked, once he confirmed
    (asked on the page, or in the section for htmx, when the browser's dialog did not ask).
    Whoever may not countersign now is answered by the service's refusal, not asked."""
    party = _visible_party(request, pk)
    section = section_context(request, party)
    if not asking.confirmed(request) and section["can_countersign"]:
        back = f"{party.get_absolute_url()}#protocol"
        if not is_htmx(request):
            return asking.ask_page(request, countersign_question(), back, title=str(party))
        ask = asking.question(request, countersign_question(), back, target="#protocol")
        return vary_on_htmx(render(request, "scoring/_protocol.html", {**section, "ask": ask}))
    return _after_sign_off(
        request, party, protocol_services.countersign,
        _("The protocol is signed and the party locked."))


def protocol_download(request: HttpRequest, pk: int) -> HttpResponse:
    """The party's current protocol: the signed PDF, or an unsigned draft."""
    party = _visible_party(request, pk)
    protocol = current_protocol(party)
    return pdf_response(*protocol_services.protocol_download(party, protocol))


def protocol_version_download(request: HttpRequest, public_id: str) -> HttpResponse:
    """One version's PDF (signed file, else a draft) for those who may see the tournament."""
    protocol = get_object_or_404(protocol_services.protocol_queryset(), public_id=public_id)
    party = protocol.party
    if not permissions.can_view(request.user, party.round.tournament):
        raise Http404
    return pdf_response(*protocol_services.protocol_download(party, protocol))


def verify(request: HttpRequest) -> HttpResponse:
    """The public verification page: type the short code, or upload a protocol PDF."""
    form = VerifyForm(request.POST or None, request.FILES or None)
    if request.method == "GET" and request.GET.get("code"):
        found = verification.look_up(short_code=request.GET["code"])
        if found.protocol is not None:
            return redirect(found.protocol)
        form = VerifyForm(initial={"code": request.GET["code"]})
        form.not_found = True
    checked = None
    status = 200
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data.get("pdf")
        if upload is not None:
            refused, refused_status = lockouts.verify_upload_refusal(request)
            limit = settings.VERIFY_UPLOAD_MAX_BYTES
            if refused:
                form.add_error("pdf", refused)
                status = refused_status
            elif upload.size > limit:
                form.add_error("pdf", _("The file is too large for a protocol (at most "
                                        "%(size)s).") % {"size": filesizeformat(limit)})
                status = 400
            else:
                checked = verification.verify_upload(upload.read())
        elif form.cleaned_data.get("code"):
            query = urlencode({"code": form.cleaned_data["code"]})
            return redirect(f"{reverse('scoring:verify')}?{query}")
    return render(request, "scoring/verify.html", {
        "form": form, "verification": checked, "uploaded": checked is not None},
        status=status)


def verify_protocol(request: HttpRequest, public_id: str) -> HttpResponse:
    """What the QR code leads to: whether this protocol version is authentic and current."""
    checked = verification.look_up(public_id=public_id)
    if checked.protocol is None:
        raise Http404
    return render(request, "scoring/verify.html", {
        "form": VerifyForm(), "verification": checked, "uploaded": False})


def _round_for_printing(request: HttpRequest, round_id: int) -> Round:
    rnd = get_object_or_404(Round.objects.select_related("tournament"), pk=round_id)
    if not permissions.can_view(request.user, rnd.tournament):
        raise Http404
    if not permissions.can_print_round(request.user, rnd.tournament):
        raise PermissionDenied
    return rnd


@login_required
def round_print(request: HttpRequest, round_id: int) -> HttpResponse:
    """Print a round: start (or reuse) a blank or signed print and follow its progress (here,
    or on the round page when the form came from there)."""
    rnd = _round_for_printing(request, round_id)
    if request.method == "POST":
        back_to_round = request.POST.get("back") == "round"
        try:
            job = printing.request_print_job(rnd.pk, request.POST.get("kind", ""),
                                             actor=request.user)
        except ServiceError as err:
            messages.error(request, err.message)
        else:
            if not back_to_round:
                return redirect("scoring:print_job", pk=job.pk)
        if back_to_round:  # the round page shows the job's progress
            return redirect(f"{rnd.get_absolute_url()}#print")
    jobs = rnd.print_jobs.all()[:10]
    return render(request, "scoring/round_print.html", {
        "round": rnd, "tournament": rnd.tournament, "jobs": jobs, "Kind": PrintJob.Kind})


def _job_for(request: HttpRequest, pk: int) -> PrintJob:
    job = get_object_or_404(PrintJob.objects.select_related("round__tournament"), pk=pk)
    _round_for_printing(request, job.round_id)
    return job


@login_required
def print_job(request: HttpRequest, pk: int) -> HttpResponse:
    """A print job's progress; htmx polls the partial until the PDF is ready."""
    job = _job_for(request, pk)
    return page_or_fragment(request, "scoring/print_job.html", "scoring/_print_job.html",
                            {"job": job, "round": job.round, "tournament": job.round.tournament})


@login_required
def print_job_download(request: HttpRequest, pk: int) -> FileResponse:
    """The PDF of a finished print job."""
    job = _job_for(request, pk)
    if job.status != PrintJob.Status.DONE or not job.file:
        raise Http404
    name = f"round-{job.round.number}-{job.kind}.pdf"
    return FileResponse(job.file.open("rb"), as_attachment=True, filename=name,
                        content_type="application/pdf")


@login_required
def signing_pin(request: HttpRequest, pk: int) -> HttpResponse:
    """Set a player's signing PIN: an organizer, or the player (his old PIN or password to
    change one he has)."""
    player = get_object_or_404(Player.objects.select_related("tournament"), pk=pk)
    if not permissions.can_set_signing_pin(request.user, player):
        raise PermissionDenied
    organizer = permissions.can_manage(request.user, player.tournament)
    has_pin = SigningPin.objects.filter(player=player).exists()
    form = PinForm(request.POST or None, ask_current=has_pin and not organizer)
    if request.method == "POST" and form.is_valid():
        try:
            pins.set_signing_pin(player.pk, form.cleaned_data["pin"], actor=request.user,
                                 current=form.cleaned_data.get("current", ""))
        except ServiceError as err:
            form.add_error(err.field if err.field in form.fields else None, err.message)
        else:
            messages.success(request, _("The signing PIN was saved."))
            if organizer:
                return redirect(player.tournament)
            return redirect("tournaments:player_area", slug=player.tournament.slug)
    return render(request, "scoring/signing_pin.html", {
        "form": form, "player": player, "tournament": player.tournament, "has_pin": has_pin})
