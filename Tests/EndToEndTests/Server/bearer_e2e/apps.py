from django.apps import AppConfig


class BearerE2EConfig(AppConfig):
    name = "bearer_e2e"
    default_auto_field = "django.db.models.BigAutoField"
