#!/usr/bin/env python3
"""Configures a fresh glewlwyd 2.7 through its admin API for the DPoP end-to-end tests.

    configure.py BASE_URL                        e.g. http://127.0.0.1:4593 (glewlwyd's external_url)
    configure.py rotate-key BASE_URL INSTANCE    gives INSTANCE a new signing key, as an operator would

Run by scripts/glewlwyd-server start, against the database it has just created from Debian's
schema. It signs in as the schema's administrator and, only through the admin API:

- adds the client property `dpop_bound_access_tokens` to the client backend's data-format;
- adds the scopes `email` and `api.read`;
- creates the OpenID Connect plugin instance `oidc` with a signing key generated for this run
  (DPoP with mandatory nonces, RFC 9207 `iss`, one-time refresh tokens, PAR, resource
  indicators, dynamic registration), and a second instance `oidcpar`, the same but with pushed
  authorization requests required and a key of its own, and a third, `oidcsigned`, that also takes
  signed request objects (RFC 9101) and clients that authenticate with their registered keys
  (`private_key_jwt`), with a key of its own, and a fourth, `oidclogout`, with session management:
  `sid` in ID tokens, the end-session endpoint (RP-Initiated Logout) and back-channel logout;
- adds the client properties `jwks` and `token_endpoint_auth_method`, which registration
  (RFC 7591) stores for such clients;
- adds the client property `post_logout_redirect_uris`, which glewlwyd's end-session endpoint
  reads (Debian's data-format has only a singular `post_logout_redirect_uri`);
- adds the users alice and bob and the public clients `bearer-dpop` (DPoP required) and `bearer-optional`,
  and `bearer-logout` of `oidclogout`, redirecting to LOGOUT_REDIRECT_URIS after a sign-in and a
  logout, and posting logout tokens to LOGOUT_BACKCHANNEL_URI;
- checks that the discovery document advertises DPoP.

Environment: BEARER_GLEWLWYD_ACCESS_TOKEN_SECONDS (default 3600), BEARER_GLEWLWYD_REDIRECT_PORTS
(default 18171,18172,18173,18174,18175,18176,18177,18178,18181,18182,18183). Progress goes to stderr; nothing secret is printed.
Needs the cryptography package (Debian: python3-cryptography) for the signing key.
"""
import http.cookiejar
import json
import os
import sys
import urllib.error
import urllib.request

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

# The administrator that Debian's schema creates.
ADMIN_USER = "admin"
ADMIN_PASSWORD = "password"

# The test user. scripts/headless-browser signs in with USER-test-password by default.
TEST_USER = "alice"
TEST_PASSWORD = "alice-test-password"
SECOND_USER = "bob"
SECOND_PASSWORD = "bob-test-password"

PLUGIN = "oidc"
# The instance that accepts only pushed authorization requests (RFC 9126).
PAR_REQUIRED_PLUGIN = "oidcpar"
# The instance that takes signed request objects and private_key_jwt clients.
SIGNED_CLIENTS_PLUGIN = "oidcsigned"
# The instance with session management: sid in ID tokens, end-session and back-channel logout.
LOGOUT_PLUGIN = "oidclogout"
LOGOUT_CLIENT = "bearer-logout"
# The library's test and the tool's test sign in and out on ports of their own.
LOGOUT_REDIRECT_URIS = ["http://127.0.0.1:18184/callback", "http://127.0.0.1:18186/callback"]
# Where the tests' back-channel logout receiver listens.
LOGOUT_BACKCHANNEL_URI = "http://127.0.0.1:18185/backchannel-logout"
DPOP_PROPERTY = "dpop_bound_access_tokens"
SCOPES = ["openid", "email", "api.read"]
# A resource (RFC 8707) that the scope api.read may name.
API_READ_RESOURCE = "http://127.0.0.1:18180/api"


class Failure(Exception):
    pass


class Admin:
    def __init__(self, base_url):
        self.base_url = base_url.rstrip("/")
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def call(self, method, path, body=None, expected=(200,)):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base_url + path, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with self.opener.open(request, timeout=30) as response:
                status, text = response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            status, text = error.code, error.read().decode(errors="replace")
        if status not in expected:
            raise Failure(f"{method} {path}: HTTP {status} {text[:500]}")
        return json.loads(text) if text.strip() else None


def say(text):
    print(f"configure: {text}", file=sys.stderr)


def signing_key():
    """An RSA key for this run only (RS256 ID tokens and access tokens), as PEM strings."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption()).decode()
    public = key.public_key().public_bytes(serialization.Encoding.PEM,
                                           serialization.PublicFormat.SubjectPublicKeyInfo).decode()
    return private, public


def plugin_parameters(base_url, access_token_seconds, name=PLUGIN, par_required=False, signed_clients=False,
                      logout=False):
    private, public = signing_key()
    signed = {
        # Request objects (RFC 9101) are verified with the client's registered `jwks`, and so are
        # client assertions (private_key_jwt).
        "request-parameter-allow": True,
        "client-jwks-parameter": "jwks",
    } if signed_clients else {}
    sessions = {
        # The provider session's cookie gives each sign-in its sid; the end-session endpoint and
        # back-channel logout need it on.
        "session-management-allowed": True,
        "session-cookie-name": "GLEWLWYD_OIDC_SID",
        "session-cookie-expiration": 2419200,
        "back-channel-logout-allowed": True,
        "front-channel-logout-allowed": False,
    } if logout else {}
    return {
        "iss": f"{base_url}/api/{name}",
        "jwt-type": "rsa",
        "jwt-key-size": "256",
        "key": private,
        "cert": public,
        "jwks-show": True,
        "access-token-duration": access_token_seconds,
        "refresh-token-duration": 1209600,
        "code-duration": 600,
        "refresh-token-rolling": True,
        "refresh-token-one-use": "always",
        "allow-non-oidc": True,
        "auth-type-code-enabled": True,
        "auth-type-code-revoke-replayed": True,
        "auth-type-token-enabled": False,
        "auth-type-id-token-enabled": False,
        "auth-type-none-enabled": False,
        "auth-type-password-enabled": False,
        "auth-type-client-enabled": False,
        "auth-type-refresh-enabled": True,
        "auth-type-device-enabled": True,
        "device-authorization-expiration": 600,
        "device-authorization-interval": 1,
        "subject-type": "public",
        "name-claim": "on-demand",
        "name-claim-scope": ["openid"],
        "email-claim": "on-demand",
        "email-claim-scope": ["email"],
        "scope-claim": "no",
        "pkce-allowed": True,
        "pkce-method-plain-allowed": False,
        "pkce-required-public-client": True,
        "oauth-as-iss-id": True,
        "introspection-revocation-allowed": False,
        "session-management-allowed": False,
        "request-parameter-allow": False,
        "oauth-dpop-allowed": True,
        "oauth-dpop-iat-duration": 60,
        "oauth-dpop-iat-gap-duration": 5,
        "oauth-dpop-nonce-mandatory": True,
        "oauth-dpop-nonce-counter": 3,
        "oauth-dpop-dpop_bound_access_tokens-property": DPOP_PROPERTY,
        "oauth-par-allowed": True,
        "oauth-par-required": par_required,
        "oauth-par-request_uri-prefix": "urn:ietf:params:oauth:request_uri:",
        "oauth-par-duration": 90,
        "resource-allowed": True,
        "resource-scope": {"api.read": [API_READ_RESOURCE]},
        "resource-client-property": "resource",
        "resource-scope-and-client-property": False,
        "register-client-allowed": True,
        "register-client-auth-scope": [],
        "register-client-credentials-scope": [],
        "register-client-management-allowed": True,
        "register-resource-specify-allowed": False,
        "register-resource-default": [],
        "register-default-properties": {},
        "oauth-ciba-allowed": False,
        "oauth-rar-allowed": False,
        "oauth-fapi-allow-jarm": False,
        "allowed-scope": SCOPES,
        **signed,
        **sessions,
    }


def add_client_property(admin, name, **form):
    """The database client backend keeps only the properties of its data-format; `convert="jwks"`
    keeps a JSON value (a key set) as JSON."""
    module = admin.call("GET", "/api/mod/client/database")
    parameters = module["parameters"]
    parameters.setdefault("data-format", {})[name] = {"multiple": False, "read": True, "write": True, **form}
    admin.call("PUT", "/api/mod/client/database", {
        "display_name": module.get("display_name", "Database backend"),
        "parameters": parameters,
        "order_rank": module.get("order_rank", 0),
        "readonly": module.get("readonly", False),
    })
    admin.call("PUT", "/api/mod/client/database/reset")


def rotate_key(base_url, instance):
    """Gives `instance` a new signing key through the admin API: its parameters are stored, then
    take effect with the reset. Its key set then publishes the new key alone."""
    admin = Admin(base_url)
    try:
        admin.call("POST", "/api/auth/", {"username": ADMIN_USER, "password": ADMIN_PASSWORD})
        plugin = admin.call("GET", f"/api/mod/plugin/{instance}")
        private, public = signing_key()
        plugin["parameters"]["key"] = private
        plugin["parameters"]["cert"] = public
        admin.call("PUT", f"/api/mod/plugin/{instance}", {
            "module": plugin["module"], "name": instance, "display_name": plugin.get("display_name", instance),
            "enabled": True, "parameters": plugin["parameters"],
        })
        admin.call("PUT", f"/api/mod/plugin/{instance}/reset")
        say(f"plugin instance {instance} has a new signing key")
        return 0
    except (Failure, urllib.error.URLError, OSError, ValueError, KeyError) as error:
        say(f"failed: {error}")
        return 1


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "rotate-key":
        return rotate_key(sys.argv[2].rstrip("/"), sys.argv[3])
    if len(sys.argv) != 2:
        print("usage: configure.py BASE_URL | configure.py rotate-key BASE_URL INSTANCE", file=sys.stderr)
        return 2
    base_url = sys.argv[1].rstrip("/")
    access_token_seconds = int(os.environ.get("BEARER_GLEWLWYD_ACCESS_TOKEN_SECONDS") or 3600)
    ports = [p.strip() for p in (os.environ.get("BEARER_GLEWLWYD_REDIRECT_PORTS") or
                                 "18171,18172,18173,18174,18175,18176,18177,18178,18181,18182,18183").split(",") if p.strip()]
    redirect_uris = [f"http://127.0.0.1:{int(port)}/callback" for port in ports]

    admin = Admin(base_url)
    try:
        admin.call("POST", "/api/auth/", {"username": ADMIN_USER, "password": ADMIN_PASSWORD})
        say("signed in as the administrator")

        add_client_property(admin, DPOP_PROPERTY)
        add_client_property(admin, "jwks", convert="jwks")
        add_client_property(admin, "token_endpoint_auth_method", multiple=True)
        add_client_property(admin, "post_logout_redirect_uris", multiple=True)
        say(f"client properties {DPOP_PROPERTY}, jwks, token_endpoint_auth_method and post_logout_redirect_uris "
            "added to the data-format")

        existing = {scope["name"] for scope in admin.call("GET", "/api/scope/?limit=100")}
        for scope in SCOPES:
            if scope in existing:
                continue
            admin.call("POST", "/api/scope/", {
                "name": scope, "display_name": scope, "description": f"Test scope {scope}",
                "password_required": True, "password_max_age": 0, "scheme": {},
            })
        say("scopes: " + " ".join(SCOPES))

        admin.call("POST", "/api/mod/plugin/", {
            "module": "oidc", "name": PLUGIN, "display_name": "OpenID Connect (DPoP tests)",
            "enabled": True, "parameters": plugin_parameters(base_url, access_token_seconds),
        })
        say(f"plugin instance {PLUGIN} created")
        admin.call("POST", "/api/mod/plugin/", {
            "module": "oidc", "name": PAR_REQUIRED_PLUGIN, "display_name": "OpenID Connect (PAR required)",
            "enabled": True, "parameters": plugin_parameters(
                base_url, access_token_seconds, name=PAR_REQUIRED_PLUGIN, par_required=True),
        })
        say(f"plugin instance {PAR_REQUIRED_PLUGIN} created, with pushed authorization requests required")
        admin.call("POST", "/api/mod/plugin/", {
            "module": "oidc", "name": SIGNED_CLIENTS_PLUGIN, "display_name": "OpenID Connect (signed clients)",
            "enabled": True, "parameters": plugin_parameters(
                base_url, access_token_seconds, name=SIGNED_CLIENTS_PLUGIN, signed_clients=True),
        })
        say(f"plugin instance {SIGNED_CLIENTS_PLUGIN} created, with request objects and private_key_jwt clients")
        admin.call("POST", "/api/mod/plugin/", {
            "module": "oidc", "name": LOGOUT_PLUGIN, "display_name": "OpenID Connect (logout)",
            "enabled": True, "parameters": plugin_parameters(
                base_url, access_token_seconds, name=LOGOUT_PLUGIN, logout=True),
        })
        say(f"plugin instance {LOGOUT_PLUGIN} created, with session management and back-channel logout")

        admin.call("POST", "/api/user/", {
            "username": TEST_USER, "name": "Alice Example", "email": "alice@example.com",
            "password": TEST_PASSWORD, "enabled": True, "scope": SCOPES,
        })
        say(f"user {TEST_USER} added")
        # A second user, for the tests of several accounts signed in at once.
        admin.call("POST", "/api/user/", {
            "username": SECOND_USER, "name": "Bob Example", "email": "bob@example.com",
            "password": SECOND_PASSWORD, "enabled": True, "scope": SCOPES,
        })
        say(f"user {SECOND_USER} added")

        clients = {
            "bearer-dpop": {"name": "Bearer (DPoP required)", DPOP_PROPERTY: "true"},
            "bearer-optional": {"name": "Bearer (DPoP optional)"},
        }
        for client_id, extra in clients.items():
            admin.call("POST", "/api/client/", {
                "client_id": client_id,
                "confidential": False,
                "enabled": True,
                "redirect_uri": redirect_uris,
                "authorization_type": ["code", "refresh_token", "device_authorization"],
                "scope": SCOPES,
                **extra,
            })
            stored = admin.call("GET", f"/api/client/{client_id}")
            if stored.get(DPOP_PROPERTY) != extra.get(DPOP_PROPERTY):
                raise Failure(f"client {client_id}: property {DPOP_PROPERTY} was not stored as given")
        admin.call("POST", "/api/client/", {
            "client_id": LOGOUT_CLIENT,
            "name": "Bearer (logout)",
            "confidential": False,
            "enabled": True,
            "redirect_uri": redirect_uris + LOGOUT_REDIRECT_URIS,
            "post_logout_redirect_uris": LOGOUT_REDIRECT_URIS,
            "backchannel_logout_uri": LOGOUT_BACKCHANNEL_URI,
            "backchannel_logout_session_required": "true",
            "authorization_type": ["code", "refresh_token"],
            "scope": SCOPES,
        })
        stored = admin.call("GET", f"/api/client/{LOGOUT_CLIENT}")
        if stored.get("post_logout_redirect_uris") != LOGOUT_REDIRECT_URIS or \
                stored.get("backchannel_logout_uri") != LOGOUT_BACKCHANNEL_URI:
            raise Failure(f"client {LOGOUT_CLIENT}: its logout properties were not stored as given")
        say("clients: " + " ".join(clients) + " " + LOGOUT_CLIENT)

        with urllib.request.urlopen(f"{base_url}/api/{PLUGIN}/.well-known/openid-configuration",
                                    timeout=10) as response:
            discovery = json.load(response)
        if discovery.get("issuer") != f"{base_url}/api/{PLUGIN}":
            raise Failure(f"discovery names the issuer {discovery.get('issuer')!r}")
        if "ES256" not in discovery.get("dpop_signing_alg_values_supported", []):
            raise Failure("discovery does not list ES256 in dpop_signing_alg_values_supported")
        say("discovery advertises DPoP: " + " ".join(discovery["dpop_signing_alg_values_supported"]))
        with urllib.request.urlopen(f"{base_url}/api/{PAR_REQUIRED_PLUGIN}/.well-known/openid-configuration",
                                    timeout=10) as response:
            discovery = json.load(response)
        if discovery.get("require_pushed_authorization_requests") is not True:
            raise Failure(f"{PAR_REQUIRED_PLUGIN}'s discovery does not require pushed authorization requests")
        say(f"{PAR_REQUIRED_PLUGIN}'s discovery requires pushed authorization requests")
        with urllib.request.urlopen(f"{base_url}/api/{LOGOUT_PLUGIN}/.well-known/openid-configuration",
                                    timeout=10) as response:
            discovery = json.load(response)
        if discovery.get("end_session_endpoint") != f"{base_url}/api/{LOGOUT_PLUGIN}/end_session":
            raise Failure(f"{LOGOUT_PLUGIN}'s discovery names no end_session_endpoint")
        say(f"{LOGOUT_PLUGIN}'s discovery names its end_session_endpoint")
        return 0
    except (Failure, urllib.error.URLError, OSError, ValueError, KeyError) as error:
        say(f"failed: {error}")
        return 1


if __name__ == "__main__":
    sys.exit(main())
