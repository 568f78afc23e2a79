"""API of online entries: a player enters himself (with his partner); the organizer lists his
tournaments' entries and decides (accept, refuse, withdraw) or changes them; the entrant
withdraws his own."""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotAuthenticated, PermissionDenied, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.access.idempotency import IdempotentMixin
from scoring.access.permissions import can_manage, managed_tournaments, visible_tournaments
from scoring.access.query import KnownQueryMixin
from scoring.models import Entry, Profile
from tournaments.api.common import valid
from tournaments.api.entrants import MEMBER_REFUSED
from tournaments.entries.decisions import DECISIONS, decide_entry, edit_entry, withdraw_own_entry
from tournaments.entries.services import Person, create_entry


class EntrySerializer(serializers.ModelSerializer):
    """An entry: who (and his partner), its status, its place in line and what it became."""

    class Meta:
        model = Entry
        fields = ["id", "tournament", "status", "name", "email", "club", "city", "birth_year",
                  "profile", "partner_name", "partner_email", "partner_profile",
                  "partner_confirmed_at", "doubts", "created_at", "queued_at", "decided_at",
                  "note", "pair", "player"]
        read_only_fields = fields


class EntryCreateSerializer(serializers.Serializer):
    """The caller enters himself: his details (his login's profile gives them when he has
    one) and his partner, by profile or by name and address."""

    tournament = serializers.IntegerField()
    name = serializers.CharField(max_length=200, required=False, allow_blank=True,
                                 help_text="Left out: his profile's name.")
    email = serializers.EmailField(required=False,
                                   help_text="Only the caller's own address (his login's).")
    profile = serializers.IntegerField(required=False,
                                       help_text="Only the caller's own profile.")
    club = serializers.CharField(max_length=200, required=False, allow_blank=True)
    city = serializers.CharField(max_length=100, required=False, allow_blank=True)
    birth_year = serializers.IntegerField(required=False, min_value=1900, max_value=2100)
    partner_profile = serializers.IntegerField(required=False,
                                               help_text="The partner's profile id.")
    partner_name = serializers.CharField(max_length=200, required=False, allow_blank=True)
    partner_email = serializers.EmailField(required=False, allow_blank=True)


class EntryChangeSerializer(serializers.Serializer):
    """The organizer's changes: names, addresses, note; a doubtful match's profile (an id or
    "new")."""

    name = serializers.CharField(max_length=200, required=False)
    email = serializers.EmailField(required=False)
    club = serializers.CharField(max_length=200, required=False, allow_blank=True)
    city = serializers.CharField(max_length=100, required=False, allow_blank=True)
    birth_year = serializers.IntegerField(required=False, allow_null=True, min_value=1900,
                                          max_value=2100)
    partner_name = serializers.CharField(max_length=200, required=False, allow_blank=True)
    partner_email = serializers.EmailField(required=False, allow_blank=True)
    note = serializers.CharField(max_length=300, required=False, allow_blank=True)
    profile = serializers.CharField(required=False, help_text='A profile id or "new".')
    partner_profile = serializers.CharField(required=False, help_text='A profile id or "new".')


class DecisionSerializer(serializers.Serializer):
    """A decision on an entry, and the organizer's note (mailed with a refusal)."""

    decision = serializers.ChoiceField(choices=DECISIONS)
    note = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")


class DecidedSerializer(serializers.Serializer):
    """The entry decided and the waiting entries moved up into the place it freed."""

    entry = EntrySerializer()
    promoted = EntrySerializer(many=True)


def _person(user: Any, data: dict[str, Any]) -> Person:
    """The caller as the first entrant: only himself (his address, his profile)."""
    if data.get("email") and data["email"].casefold() != (user.email or "").casefold():
        raise ValidationError({"email": [_("You enter only yourself: your own address.")]})
    own = Profile.objects.filter(user=user).first()
    if "profile" in data and (own is None or own.pk != data["profile"]):
        raise ValidationError({"profile": [_("You enter only yourself: your own profile.")]})
    if not user.email:
        raise ValidationError({"email": [_("Your account has no email address.")]})
    name = data.get("name") or (own.name if own else user.get_full_name() or user.username)
    return Person(name=name, email=user.email, club=data.get("club", ""),
                  city=data.get("city", ""), birth_year=data.get("birth_year"))


def _partner(data: dict[str, Any]) -> Person | None:
    """The partner named: by profile id, or by name and address."""
    profile = None
    if data.get("partner_profile") is not None:
        profile = Profile.objects.filter(pk=data["partner_profile"],
                                         merged_into__isnull=True).first()
        if profile is None:
            raise ValidationError({"partner_profile": [_("No such profile.")]})
    if profile is None and not data.get("partner_name"):
        return None
    return Person(name=data.get("partner_name", ""), email=data.get("partner_email", ""),
                  profile=profile)


@extend_schema_view(
    list=extend_schema(summary="Entries (the organizer's tournaments', and the caller's own)",
                       description="`?tournament=` and `?status=` filter."),
    retrieve=extend_schema(summary="An entry"),
    create=extend_schema(
        request=EntryCreateSerializer, responses={201: EntrySerializer, **MEMBER_REFUSED},
        summary="Enter a tournament (as the player himself)",
        description="The caller is the first entrant (another address or profile: 400 naming "
        "`email` or `profile`); a pair names the partner (`partner_profile`, or "
        "`partner_name` and `partner_email`), who confirms by a mailed link. Beyond the places "
        "the entry waits (`status` \"waiting\"), never over. Refused with 400 naming the "
        "field: outside the entry window (`tournament`), a person entered already "
        "(`email`, `name`, `partner_email`, `partner_name`), outside the rating or season "
        "limits (`name`, `partner_name`)."),
    partial_update=extend_schema(
        request=EntryChangeSerializer, responses={200: EntrySerializer, **MEMBER_REFUSED},
        summary="Change an entry (organizers)",
        description="Names, addresses, note; `profile` / `partner_profile` choose a doubtful "
        "match's profile (an id or \"new\")."),
    decide=extend_schema(
        request=DecisionSerializer, responses={200: DecidedSerializer, **MEMBER_REFUSED},
        summary="Accept, refuse or withdraw an entry (organizers; the entrant withdraws his own)",
        description="Accepting registers the pair with its players (or the player); "
        "refusing or withdrawing frees the place: the first waiting entries move up (in "
        "`promoted`, each mailed). An entry waiting, unconfirmed or with a doubtful profile "
        "is not accepted (400 naming `decision` or the profile)."),
)
class EntryViewSet(KnownQueryMixin, IdempotentMixin, mixins.CreateModelMixin,
                   mixins.UpdateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Entries: the caller's own, and those of the tournaments he organizes."""

    serializer_class = EntrySerializer
    filterset_fields = ["tournament", "status"]
    http_method_names = ["get", "post", "patch", "head", "options"]

    def get_queryset(self) -> QuerySet[Entry]:
        """The caller's entries (as player) and his tournaments' (as organizer)."""
        user = self.request.user
        if not user.is_authenticated:
            return Entry.objects.none()
        if user.is_superuser:
            return Entry.objects.order_by("id")
        return Entry.objects.filter(Q(user=user) | Q(
            tournament__in=managed_tournaments(user))).order_by("id")

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Enter the caller (and his partner) through the entry service."""
        if not request.user.is_authenticated:
            raise NotAuthenticated
        data = valid(EntryCreateSerializer, request.data)
        tournament = visible_tournaments(request.user).filter(pk=data["tournament"]).first()
        if tournament is None:
            raise ValidationError({"tournament": [_("No such tournament.")]})
        entry = create_entry(tournament.pk, _person(request.user, data), _partner(data),
                             user=request.user)
        return Response(EntrySerializer(entry).data, status=status.HTTP_201_CREATED)

    def _managed(self) -> Entry:
        """The entry of the URL, for its tournament's organizers only (403)."""
        entry = self.get_object()
        if not can_manage(self.request.user, entry.tournament):
            raise PermissionDenied
        return entry

    def partial_update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Change the entry through the service."""
        entry = self._managed()
        data = valid(EntryChangeSerializer, request.data)
        entry = edit_entry(entry.pk, actor=request.user, **data)
        return Response(EntrySerializer(entry).data)

    @action(detail=True, methods=["post"])
    def decide(self, request: Request, pk: str | None = None) -> Response:
        """The organizer's decision; the entrant's own withdrawal."""
        entry = self.get_object()
        data = valid(DecisionSerializer, request.data)
        if can_manage(request.user, entry.tournament):
            entry, promoted = decide_entry(entry.pk, data["decision"], actor=request.user,
                                           note=data["note"])
        elif entry.user_id == request.user.pk and data["decision"] == "withdraw":
            entry, promoted = withdraw_own_entry(entry.pk)
        else:
            raise PermissionDenied
        return Response({"entry": EntrySerializer(entry).data,
                         "promoted": EntrySerializer(promoted, many=True).data})
