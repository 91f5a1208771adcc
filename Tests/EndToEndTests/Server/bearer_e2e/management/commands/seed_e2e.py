"""Creates (or resets) the test users and OAuth applications. Idempotent."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from oauth2_provider.models import get_application_model


# Obviously fake credentials of a local test server.
USERS = [
    {
        "username": "alice",
        "password": "alice-test-password",
        "email": "alice@example.com",
        "first_name": "Alice",
        "last_name": "Example",
    },
    {
        "username": "bob",
        "password": "bob-test-password",
        "email": "bob@example.com",
        "first_name": "",
        "last_name": "",
    },
]

# The users of the PostgreSQL session store's fleet test: fleet-00 … fleet-49.
USERS += [
    {
        "username": f"fleet-{index:02d}",
        "password": "fleet-test-password",
        "email": f"fleet-{index:02d}@example.com",
        "first_name": "",
        "last_name": "",
    }
    for index in range(50)
]

REDIRECT_URIS = "com.example.bearer:/oauth2callback http://127.0.0.1/callback"
# The port the exact-port client registers: a server that matches loopback ports exactly, as some do.
EXACT_PORT = 48613
CONFIDENTIAL_CLIENT_SECRET = "bearer-confidential-test-secret"
MIGRATE_CLIENT_SECRET = "bearer-migrate-test-secret"


def applications():
    Application = get_application_model()
    return [
        {
            "client_id": "bearer-public",
            "name": "Bearer (public client)",
            "client_type": Application.CLIENT_PUBLIC,
            "authorization_grant_type": Application.GRANT_AUTHORIZATION_CODE,
            "redirect_uris": REDIRECT_URIS,
            "skip_authorization": False,
            "client_secret": "",
        },
        {
            "client_id": "bearer-trusted",
            "name": "Bearer (trusted public client)",
            "client_type": Application.CLIENT_PUBLIC,
            "authorization_grant_type": Application.GRANT_AUTHORIZATION_CODE,
            "redirect_uris": REDIRECT_URIS,
            "skip_authorization": True,
            "client_secret": "",
        },
        {
            "client_id": "bearer-shared",
            "name": "Bearer (an app and its widget sharing one session)",
            "client_type": Application.CLIENT_PUBLIC,
            "authorization_grant_type": Application.GRANT_AUTHORIZATION_CODE,
            "redirect_uris": REDIRECT_URIS,
            "skip_authorization": True,
            "client_secret": "",
        },
        {
            "client_id": "bearer-cli",
            "name": "Bearer (the bearer tool's tests)",
            "client_type": Application.CLIENT_PUBLIC,
            "authorization_grant_type": Application.GRANT_AUTHORIZATION_CODE,
            "redirect_uris": REDIRECT_URIS,
            "skip_authorization": True,
            "client_secret": "",
        },
        {
            "client_id": "bearer-cli-solo",
            "name": "Bearer (one suite of the bearer tool's tests, so its counters are its own)",
            "client_type": Application.CLIENT_PUBLIC,
            "authorization_grant_type": Application.GRANT_AUTHORIZATION_CODE,
            "redirect_uris": REDIRECT_URIS,
            "skip_authorization": True,
            "client_secret": "",
        },
        {
            "client_id": "bearer-exact-port",
            "name": "Bearer (a client whose loopback redirect URI must match its port exactly)",
            "client_type": Application.CLIENT_PUBLIC,
            "authorization_grant_type": Application.GRANT_AUTHORIZATION_CODE,
            "redirect_uris": f"http://127.0.0.1:{EXACT_PORT}/callback",
            "skip_authorization": True,
            "client_secret": "",
        },
        {
            "client_id": "bearer-confidential",
            "name": "Bearer (confidential client)",
            "client_type": Application.CLIENT_CONFIDENTIAL,
            "authorization_grant_type": Application.GRANT_AUTHORIZATION_CODE,
            "redirect_uris": REDIRECT_URIS,
            "skip_authorization": True,
            "client_secret": CONFIDENTIAL_CLIENT_SECRET,
        },
        {
            "client_id": "bearer-migrate",
            "name": "Bearer (confidential client of the migration tests)",
            "client_type": Application.CLIENT_CONFIDENTIAL,
            "authorization_grant_type": Application.GRANT_AUTHORIZATION_CODE,
            "redirect_uris": REDIRECT_URIS,
            "skip_authorization": True,
            "client_secret": MIGRATE_CLIENT_SECRET,
        },
        {
            "client_id": "bearer-device",
            "name": "Bearer (device client)",
            "client_type": Application.CLIENT_PUBLIC,
            "authorization_grant_type": Application.GRANT_DEVICE_CODE,
            "redirect_uris": "",
            "skip_authorization": True,
            "client_secret": "",
        },
    ]


class Command(BaseCommand):
    help = "Create the end-to-end test users and OAuth applications."

    @transaction.atomic
    def handle(self, *args, **options):
        User = get_user_model()
        for spec in USERS:
            spec = dict(spec)
            password = spec.pop("password")
            user, _ = User.objects.update_or_create(username=spec.pop("username"), defaults=spec)
            user.set_password(password)
            user.is_active = True
            user.save()

        Application = get_application_model()
        for spec in applications():
            spec = dict(spec)
            client_id = spec.pop("client_id")
            app = Application.objects.filter(client_id=client_id).first() or Application(client_id=client_id)
            for key, value in spec.items():
                setattr(app, key, value)
            # Stored in plain text: hashing costs a PBKDF2 round per token request.
            app.hash_client_secret = False
            app.algorithm = Application.RS256_ALGORITHM
            app.user = None
            app.save()

        self.stderr.write(
            f"seeded {User.objects.count()} users and {Application.objects.count()} applications"
        )
