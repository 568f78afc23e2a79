"""URLs of rating lists, included in the tournaments' URLs (their namespace)."""

from django.urls import path

from tournaments.ranking import rating_views

urlpatterns = [
    path("ratings/", rating_views.rating_list_index, name="rating_lists"),
    path("ratings/new/", rating_views.rating_list_create, name="rating_list_create"),
    path("ratings/<str:slug>/", rating_views.rating_list_page, name="rating_list"),
    path("ratings/<str:slug>/edit/", rating_views.rating_list_edit, name="rating_list_edit"),
    path("ratings/<str:slug>/ratings.csv", rating_views.rating_list_csv,
         name="rating_list_csv"),
    path("t/<str:slug>/take-ratings/", rating_views.take_ratings_page, name="take_ratings"),
]
