"""Ranking pages."""

app_name = "ranking"

urlpatterns: list = []
