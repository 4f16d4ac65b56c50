"""Task-designer and organizer pages."""

urlpatterns: list = []
