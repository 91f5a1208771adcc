"""
Settings of the end-to-end test authorization server.

This is a throwaway OAuth 2.0 / OpenID Connect provider (django-oauth-toolkit)
used only by the end-to-end tests. It is never meant to be deployed.

Environment:
    BEARER_E2E_STATE                 state directory (SQLite database, keys, logs).
    BEARER_E2E_BASE_URL              http://127.0.0.1:PORT, set by serve.py once the port is bound.
    BEARER_E2E_ACCESS_TOKEN_SECONDS  access token lifetime (default 3600).
    BEARER_E2E_DEVICE_INTERVAL       device flow polling interval in seconds (default 1).
"""

import os
from pathlib import Path


SERVER_DIR = Path(__file__).resolve().parent.parent
STATE_DIR = Path(
    os.environ.get("BEARER_E2E_STATE") or (SERVER_DIR / ".." / ".." / ".." / ".build" / "e2e-server")
).resolve()
BASE_URL = os.environ.get("BEARER_E2E_BASE_URL", "").rstrip("/")


def _read_state_file(name):
    try:
        return (STATE_DIR / name).read_text()
    except FileNotFoundError:
        return ""


# Generated per state directory by keygen.py; a random per-process key otherwise.
SECRET_KEY = _read_state_file("secret_key").strip() or os.urandom(32).hex()

DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "[::1]"]

INSTALLED_APPS = [
    # First, so that its templates override django-oauth-toolkit's.
    "bearer_e2e",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "oauth2_provider",
]

MIDDLEWARE = [
    "bearer_e2e.middleware.TokenRequestCounterMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
]

ROOT_URLCONF = "e2e_site.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
            ],
        },
    },
]

DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": str(STATE_DIR / "db.sqlite3"),
        "OPTIONS": {
            # WAL + immediate transactions + a generous busy timeout avoid
            # "database is locked" when tests hit the server concurrently.
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
        },
    }
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Test users only: a fast hasher keeps logins cheap.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True
STATIC_URL = "/static/"

DEVICE_VERIFICATION_URI = f"{BASE_URL}/o/device/" if BASE_URL else None

OAUTH2_PROVIDER = {
    "OIDC_ENABLED": True,
    "OIDC_RSA_PRIVATE_KEY": _read_state_file("oidc-rsa-private-key.pem"),
    # Pin the issuer once the port is known, so discovery, the RFC 9207 `iss`
    # redirect parameter and the ID token all agree whatever Host header is used.
    "OIDC_ISS_ENDPOINT": f"{BASE_URL}/o" if BASE_URL else "",
    "OIDC_SERVER_CLASS": "bearer_e2e.oauth.S256OnlyServer",
    "OAUTH2_VALIDATOR_CLASS": "bearer_e2e.oauth.BearerE2EValidator",
    "SCOPES": {
        "openid": "OpenID Connect sign-in",
        "email": "Your email address",
        "profile": "Your basic profile",
        "drive.readonly": "See your Drive files",
        "drive.file": "Manage Drive files created by this app",
        "https://www.googleapis.com/auth/drive.readonly": "See and download your Drive files",
        "https://www.googleapis.com/auth/drive.file": "Manage Drive files used with this app",
        "https://www.googleapis.com/auth/userinfo.email": "See your primary email address",
        "https://www.googleapis.com/auth/userinfo.profile": "See your personal info",
    },
    "DEFAULT_SCOPES": ["openid"],
    "PKCE_REQUIRED": True,
    "ACCESS_TOKEN_EXPIRE_SECONDS": int(os.environ.get("BEARER_E2E_ACCESS_TOKEN_SECONDS", "3600")),
    "ROTATE_REFRESH_TOKEN": True,
    "REFRESH_TOKEN_REUSE_PROTECTION": True,
    "REFRESH_TOKEN_GRACE_PERIOD_SECONDS": 0,
    "ALLOWED_REDIRECT_URI_SCHEMES": ["http", "https", "com.example.bearer"],
    "OAUTH_DEVICE_VERIFICATION_URI": DEVICE_VERIFICATION_URI,
    "OAUTH_DEVICE_VERIFICATION_URI_COMPLETE": (
        DEVICE_VERIFICATION_URI + "?user_code={user_code}" if DEVICE_VERIFICATION_URI else None
    ),
    "DEVICE_FLOW_INTERVAL": int(os.environ.get("BEARER_E2E_DEVICE_INTERVAL", "1")),
    # RFC 9700 behaviour: only S256 PKCE, RFC 9207 `iss` on authorization
    # responses, no implicit or password grant, no access tokens in URLs.
    "COMPLIANT_BCP_RFC9700_PKCE_METHOD": True,
    "COMPLIANT_BCP_RFC9700_AUTHZ_RESPONSE_ISS": True,
    "COMPLIANT_BCP_RFC9700_IMPLICIT_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PASSWORD_GRANT": True,
    "COMPLIANT_BCP_RFC9700_ACCESS_TOKEN_TRANSPORT": True,
    "OIDC_RESPONSE_TYPES_SUPPORTED": ["code"],
    "OAUTH2_RESPONSE_TYPES_SUPPORTED": ["code"],
    "OAUTH2_GRANT_TYPES_SUPPORTED": [
        "authorization_code",
        "refresh_token",
        "urn:ietf:params:oauth:grant-type:device_code",
    ],
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "loggers": {
        # Tracebacks of server errors (DEBUG is off, so Django would not print them).
        "django.request": {"handlers": ["stderr"], "level": "ERROR", "propagate": False},
        "oauth2_provider": {"handlers": ["stderr"], "level": "WARNING", "propagate": False},
        "bearer_e2e": {"handlers": ["stderr"], "level": "INFO", "propagate": False},
    },
}
