"""The site's icon: every page links it, and /favicon.ico (asked for by browsers and feed
readers whatever a page links) leads to it instead of a 404 in every visitor's first log line."""

import pytest
from django.contrib.staticfiles import finders
from django.templatetags.static import static


@pytest.mark.django_db
def test_pages_link_the_icon_and_favicon_ico_leads_to_it(client):
    icon = static("img/favicon.svg")
    page = client.get("/accounts/login/").content.decode()
    assert f'<link rel="icon" href="{icon}" type="image/svg+xml">' in page
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"] == icon


def test_the_icon_is_a_committed_svg_drawn_without_script():
    path = finders.find("img/favicon.svg")
    assert path is not None
    text = open(path, encoding="utf-8").read()
    assert text.startswith("<svg") and "viewBox" in text and "<script" not in text
