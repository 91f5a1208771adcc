#!/usr/bin/env python3
"""Minimal OpenID Provider for end-to-end tests, built on idpyoidc 5.0.0.

The OP itself is idpyoidc's ``idpyoidc.server.Server`` configured like the
``example/flask_op`` example of idpy-oidc; the HTTP glue below mirrors that
example's ``views.py`` (``service_endpoint`` / ``do_response``) using only
``http.server`` from the standard library.

    python server.py [PORT] [--fill-outer-parameters] [--issue-refresh]
                     [--token-exchange] [--issue-id-jag] [--id-jag-client-id VALUE]
                             (PORT=..., FILL_OUTER_PARAMS=1, ISSUE_REFRESH=1, TOKEN_EXCHANGE=1,
                             ISSUE_ID_JAG=1, ID_JAG_CLIENT_ID=... in the environment do the same;
                             port 0, the default, picks a free port; ID_TOKEN_LIFETIME=N sets
                             idpyoidc's ID token lifetime, default 300)

With --issue-id-jag the wrapper, not idpyoidc, answers token exchange requests
for an ID-JAG (requested_token_type urn:ietf:params:oauth:token-type:id-jag);
see issue_id_jag() and the README.

Listens on 127.0.0.1 only. All keys are generated in memory at start-up;
nothing is read from or written to disk. Tokens, codes and keys are never
logged.
"""
import base64
import json
import logging
import os
import signal
import sys
import tempfile
import threading
import time
import traceback
import uuid
from http.server import BaseHTTPRequestHandler
from http.server import ThreadingHTTPServer
from urllib.parse import parse_qs
from urllib.parse import parse_qsl
from urllib.parse import urlsplit

from cryptojwt.jws.jws import JWS
from cryptojwt.jws.jws import factory as jws_factory
from idpyoidc.message import Message
from idpyoidc.message.oauth2 import ResponseMessage
from idpyoidc.message.oidc import AccessTokenRequest
from idpyoidc.server import Server
from idpyoidc.server.configure import OPConfiguration
from idpyoidc.server.oauth2.add_on.pkce import CC_METHOD
from idpyoidc.server.exception import ClientAuthenticationError
from idpyoidc.server.oidc.token import Token

HOST = "127.0.0.1"
LOG = logging.getLogger("idpyoidc_server")
# idpyoidc keeps its state (client db, sessions, PAR db, jti db) in plain
# dicts; serialise requests so the threaded HTTP server cannot race on them.
OP_LOCK = threading.Lock()


def _flag(name: str, env: str) -> bool:
    return os.environ.get(env, "") == "1" or name in sys.argv


def _option(name: str, env: str, default: str) -> str:
    """Value of ``--name VALUE`` or ``--name=VALUE`` (else $env, else default)."""
    for index, word in enumerate(sys.argv):
        if word == name and index + 1 < len(sys.argv):
            return sys.argv[index + 1]
        if word.startswith(name + "="):
            return word[len(name) + 1:]
    return os.environ.get(env, default)


# Options that take a value; their value is not the positional PORT.
VALUE_OPTIONS = ("--id-jag-client-id",)

TOKEN_EXCHANGE_GRANT = "urn:ietf:params:oauth:grant-type:token-exchange"
TT_ACCESS_TOKEN = "urn:ietf:params:oauth:token-type:access_token"
TT_ID_TOKEN = "urn:ietf:params:oauth:token-type:id_token"
TT_ID_JAG = "urn:ietf:params:oauth:token-type:id-jag"

# --token-exchange: idpyoidc's own RFC 8693 TokenExchangeHelper, with this
# policy (idpyoidc's validate_token_exchange_policy): an `audience` must be one
# of TOKEN_EXCHANGE_AUDIENCES and a `resource` one of TOKEN_EXCHANGE_RESOURCES.
TOKEN_EXCHANGE = _flag("--token-exchange", "TOKEN_EXCHANGE")
TOKEN_EXCHANGE_AUDIENCES = ["https://billing.example"]
TOKEN_EXCHANGE_RESOURCES = ["https://billing.example/api"]

# --issue-id-jag: the wrapper (not idpyoidc, which has no ID-JAG) answers token
# exchange requests for requested_token_type=urn:ietf:params:oauth:token-type:id-jag.
# ID_JAG_CLIENT_ID is the client_id claim put in every ID-JAG: the id under
# which the target authorization server knows the client.
ISSUE_ID_JAG = _flag("--issue-id-jag", "ISSUE_ID_JAG")
ID_JAG_CLIENT_ID = _option("--id-jag-client-id", "ID_JAG_CLIENT_ID", "mcp-enterprise-client")
ID_JAG_LIFETIME = 300

# idpyoidc's IDToken lifetime (its default is 300 s). ID_TOKEN_LIFETIME=N lets
# the checks see an expired ID token quickly.
ID_TOKEN_LIFETIME = int(os.environ.get("ID_TOKEN_LIFETIME", "300"))

USERS = {
    "alice": {
        "sub": "alice",
        "name": "Alice Example",
        "given_name": "Alice",
        "family_name": "Example",
        "email": "alice@example.com",
        "email_verified": True,
    }
}


def op_config(issuer: str) -> dict:
    """OP configuration (shape taken from example/flask_op/config.json)."""
    return {
        "issuer": issuer,
        # Signing keys for ID tokens / JWT access tokens; generated in memory
        # (no private_path => never written to disk).
        "key_conf": {
            "key_defs": [{"type": "EC", "crv": "P-256", "use": ["sig"]}],
            "uri_path": "jwks",
        },
        "httpc_params": {"verify": False, "timeout": 4},
        "add_on": {
            "pkce": {
                "function": "idpyoidc.server.oauth2.add_on.pkce.add_support",
                # NB: add_support() takes ``code_challenge_methods`` (a dict
                # name -> hash function); the flask_op example's
                # ``code_challenge_method`` string is silently ignored.
                "kwargs": {"essential": True, "code_challenge_methods": {"S256": CC_METHOD["S256"]}},
            },
        },
        "authz": {
            "class": "idpyoidc.server.authz.AuthzHandling",
            "kwargs": {
                "grant_config": {
                    "usage_rules": {
                        "authorization_code": {
                            "supports_minting": ["access_token", "refresh_token", "id_token"],
                            "max_usage": 1,
                        },
                        "access_token": {},
                        "refresh_token": {
                            "supports_minting": ["access_token", "refresh_token", "id_token"],
                        },
                    },
                    "expires_in": 43200,
                }
            },
        },
        # Browser-less end-user authentication: everyone is "alice".
        "authentication": {
            "anon": {
                "acr": "urn:oasis:names:tc:SAML:2.0:ac:classes:unspecified",
                "class": "idpyoidc.server.user_authn.user.NoAuthn",
                "kwargs": {"user": "alice"},
            }
        },
        "preference": {
            "subject_types_supported": ["public"],
            "grant_types_supported": ["authorization_code", "refresh_token"],
            "id_token_signing_alg_values_supported": ["ES256"],
            "request_object_signing_alg_values_supported": ["ES256", "RS256", "PS256"],
            "token_endpoint_auth_methods_supported": ["private_key_jwt"],
            # False (flask_op: true): otherwise idpyoidc fetches any non-PAR
            # request_uri over HTTP. PAR request_uris (urn:uuid:...) are
            # resolved before this flag is looked at.
            "request_uri_parameter_supported": False,
        },
        "claims_interface": {
            "class": "idpyoidc.server.session.claims.ClaimsInterface",
            "kwargs": {},
        },
        # In-memory cookie keys (the default config would write
        # private/cookie_jwks.json).
        "cookie_handler": {
            "class": "idpyoidc.server.cookie_handler.CookieHandler",
            "kwargs": {
                "keys": {
                    "key_defs": [
                        {"type": "OCT", "use": ["enc"], "kid": "enc"},
                        {"type": "OCT", "use": ["sig"], "kid": "sig"},
                    ],
                },
                "name": {
                    "session": "oidc_op",
                    "register": "oidc_op_rp",
                    "session_management": "sman",
                },
            },
        },
        "endpoint": {
            "provider_config": {
                "path": ".well-known/openid-configuration",
                "class": "idpyoidc.server.oidc.provider_config.ProviderConfiguration",
                "kwargs": {"client_authn_method": None},
            },
            "registration": {
                "path": "registration",
                "class": "idpyoidc.server.oidc.registration.Registration",
                "kwargs": {"client_authn_method": None},
            },
            "authorization": {
                "path": "authorization",
                "class": "idpyoidc.server.oidc.authorization.Authorization",
                "kwargs": {
                    "client_authn_method": None,
                    "claims_parameter_supported": True,
                    "request_parameter_supported": True,
                    "response_types_supported": ["code"],
                },
            },
            "pushed_authorization": {
                "path": "pushed_authorization",
                "class": "idpyoidc.server.oauth2.pushed_authorization.PushedAuthorization",
                # ttl = the expires_in announced in the PAR answer (idpyoidc
                # default 3600). PAR_TTL lets the checks use a short value.
                "kwargs": {"client_authn_method": ["private_key_jwt"],
                           "ttl": int(os.environ.get("PAR_TTL", "3600"))},
            },
            "token": {
                "path": "token",
                "class": "idpyoidc.server.oidc.token.Token",
                "kwargs": {"client_authn_method": ["private_key_jwt"]},
            },
            "userinfo": {
                "path": "userinfo",
                "class": "idpyoidc.server.oidc.userinfo.UserInfo",
                "kwargs": {},
            },
        },
        # Explicit handlers: without "jwks_file"/"jwks_def" no token key file
        # is written (the OP default writes private/token_jwks.json).
        "token_handler_args": {
            "code": {"kwargs": {"lifetime": 600}},
            "token": {
                "class": "idpyoidc.server.token.jwt_token.JWTToken",
                "kwargs": {"lifetime": 3600},
            },
            "refresh": {
                "class": "idpyoidc.server.token.jwt_token.JWTToken",
                "kwargs": {"lifetime": 86400},
            },
            "id_token": {"class": "idpyoidc.server.token.id_token.IDToken",
                         "kwargs": {"lifetime": ID_TOKEN_LIFETIME}},
        },
        "userinfo": {"class": "idpyoidc.server.user_info.UserInfo", "kwargs": {"db": USERS}},
        "template_dir": "templates",
    }


def enable_token_exchange(conf: dict) -> dict:
    """--token-exchange: idpyoidc 5.0.0's own RFC 8693 support, switched on.

    * the grant type is added to ``grant_types_supported`` (idpyoidc's token
      endpoint refuses grant types that are not in it, "Unsupported grant_type");
    * the token endpoint gets an explicit ``grant_types_helpers`` (idpyoidc's
      kwarg name; its documentation says ``grant_types_supported``), with the
      OIDC TokenExchangeHelper configured as below. The policy key is
      ``function`` (its documentation says ``callable``, which makes
      _validate_configuration raise ImproperlyConfigured);
    * access tokens may mint access tokens (``supports_minting``); without it
      the exchange ends in MintingNotAllowed, "Token Exchange not allowed with
      that token". The rule repeats the token handler's lifetime as
      ``expires_in``: a non-empty usage rule without it makes every access
      token (also from the code grant) come without expiry and ``expires_in``.
    """
    conf["preference"]["grant_types_supported"] = conf["preference"]["grant_types_supported"] + [TOKEN_EXCHANGE_GRANT]
    conf["authz"]["kwargs"]["grant_config"]["usage_rules"]["access_token"] = {
        "supports_minting": ["access_token"],
        "expires_in": conf["token_handler_args"]["token"]["kwargs"]["lifetime"],
    }
    conf["endpoint"]["token"]["kwargs"]["grant_types_helpers"] = {
        "authorization_code": {"class": "idpyoidc.server.oidc.token_helper.access_token.AccessTokenHelper",
                               "kwargs": {}},
        "refresh_token": {"class": "idpyoidc.server.oidc.token_helper.refresh_token.RefreshTokenHelper",
                          "kwargs": {}},
        TOKEN_EXCHANGE_GRANT: {
            "class": "idpyoidc.server.oidc.token_helper.token_exchange.TokenExchangeHelper",
            "kwargs": {
                "subject_token_types_supported": [TT_ACCESS_TOKEN],
                "requested_token_types_supported": [TT_ACCESS_TOKEN],
                "default_requested_token_type": TT_ACCESS_TOKEN,
                "policy": {
                    "": {
                        "function": "idpyoidc.server.oauth2.token_helper.validate_token_exchange_policy",
                        "kwargs": {"audience": TOKEN_EXCHANGE_AUDIENCES, "resource": TOKEN_EXCHANGE_RESOURCES},
                    }
                },
            },
        },
    }
    return conf


_WORKDIR = None


def make_server(port: int) -> Server:
    issuer = f"http://{HOST}:{port}"
    # A throw-away working directory, so that idpyoidc can never drop files
    # (e.g. key files) into the source tree.
    # (Nothing is written there with this configuration; removed at exit.)
    global _WORKDIR
    _WORKDIR = tempfile.TemporaryDirectory(prefix="idpyoidc-op-")
    cwd = _WORKDIR.name
    conf = op_config(issuer)
    if TOKEN_EXCHANGE:
        conf = enable_token_exchange(conf)
    server = Server(OPConfiguration(conf=conf, base_path=cwd), cwd=cwd)
    # idpyoidc always adds "iss" to authorization responses (RFC 9207, see
    # Authorization.authz_part2) but has no metadata flag for it, and unknown
    # "preference" keys are filtered out, so advertise it here.
    server.context.provider_info["authorization_response_iss_parameter_supported"] = True
    # --issue-id-jag alone does not add the token exchange grant type to the
    # metadata: provider_info is the dict idpyoidc's token endpoint checks
    # grant types against, so listing it there would switch on idpyoidc's
    # TokenExchangeHelper with its permissive defaults. Use --token-exchange.
    return server


# idpyoidc 5.0.0 validates the *outer* authorization request (OIDC
# AuthorizationRequest: response_type, client_id, scope, redirect_uri are
# required) before it resolves request_uri / request, so an RFC 9126/9101
# style request carrying only client_id + request_uri (or + request) is
# refused with "Missing required attribute 'response_type'". With
# FILL_OUTER_PARAMS=1 the missing outer values are copied from the pushed
# request (PAR) or from the request object; idpyoidc then replaces the outer
# request by the pushed one / the verified request object as usual, so this
# changes nothing but the presence check. Off by default (faithful mode).
FILL_OUTER_PARAMS = os.environ.get("FILL_OUTER_PARAMS", "") == "1" or "--fill-outer-parameters" in sys.argv

# idpyoidc issues a refresh token only if the granted scope contains
# offline_access (which its OIDC request validation accepts only together with
# prompt=consent). ISSUE_REFRESH=1 passes idpyoidc's own ``issue_refresh=True``
# switch to the token endpoint so every code/refresh grant returns one.
ISSUE_REFRESH = os.environ.get("ISSUE_REFRESH", "") == "1" or "--issue-refresh" in sys.argv


def fill_outer_params(endpoint, args: dict) -> None:
    source = None
    if args.get("request_uri"):
        source = endpoint.upstream_get("context").par_db.get(args["request_uri"])
    elif args.get("request"):
        try:
            part = args["request"].split(".")[1]
            source = json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))
        except (IndexError, ValueError):
            source = None
    for name in ("response_type", "scope", "redirect_uri"):
        if source and name not in args and name in source:
            value = source[name]
            args[name] = " ".join(value) if isinstance(value, list) else value


class IdJagError(Exception):
    """An RFC 6749 section 5.2 error answer of the ID-JAG helper."""

    def __init__(self, status: int, error: str, description: str):
        super().__init__(description)
        self.status, self.error, self.description = status, error, description


def is_id_jag_request(form: dict) -> bool:
    return (form.get("grant_type") == [TOKEN_EXCHANGE_GRANT]
            and form.get("requested_token_type") == [TT_ID_JAG])


def _single(form: dict, name: str, required: bool = False):
    values = form.get(name, [])
    if len(values) > 1:
        raise IdJagError(400, "invalid_request", f"{name} given more than once")
    if required and (not values or not values[0]):
        raise IdJagError(400, "invalid_request", f"Missing {name}")
    return values[0] if values else None


def verify_own_id_token(op: Server, id_token: str, client_id: str) -> dict:
    """The payload of an ID token this OP issued to client_id, else IdJagError.

    Signature: ES256 with one of the OP's own keys (the keyjar's keys of owner
    "", the set published at /jwks), found by kid. Claims: iss is this issuer,
    aud names client_id (and azp, if present, is client_id), exp is in the
    future (no leeway), sub is present, no token_class (which marks idpyoidc's
    JWT access/refresh tokens). Then idpyoidc's session manager must know it
    as an active ID token of a session of client_id.
    """
    context = op.context
    try:
        jws = jws_factory(id_token)
    except Exception:
        jws = None
    if jws is None:
        raise IdJagError(400, "invalid_grant", "subject_token is not a JWS")
    header = jws.jwt.headers
    if header.get("alg") != "ES256" or not header.get("kid"):
        raise IdJagError(400, "invalid_grant", "subject_token is not an ES256 JWS with kid")
    keys = [key for key in context.keyjar.get_issuer_keys("") if key.kid == header["kid"]]
    if not keys:
        raise IdJagError(400, "invalid_grant", "subject_token is not signed by this provider")
    try:
        # cryptojwt returns the payload parsed from JSON when it can be.
        payload = JWS(alg="ES256").verify_compact(id_token, keys, sigalg="ES256")
    except Exception:
        raise IdJagError(400, "invalid_grant", "subject_token signature does not verify")
    if not isinstance(payload, dict):
        raise IdJagError(400, "invalid_grant", "subject_token payload is not a JSON object")
    if payload.get("iss") != context.issuer:
        raise IdJagError(400, "invalid_grant", "subject_token was not issued by this provider")
    aud = payload.get("aud")
    aud = [aud] if isinstance(aud, str) else (aud or [])
    if client_id not in aud or payload.get("azp", client_id) != client_id:
        raise IdJagError(400, "invalid_grant", "subject_token was not issued to this client")
    exp = payload.get("exp")
    if not isinstance(exp, (int, float)) or exp <= time.time():
        raise IdJagError(400, "invalid_grant", "subject_token has expired")
    if not payload.get("sub"):
        raise IdJagError(400, "invalid_grant", "subject_token has no sub")
    if "token_class" in payload:
        # idpyoidc's JWT access and refresh tokens are signed with the same key
        # and carry iss/aud/sub/exp as well; they are marked with token_class.
        raise IdJagError(400, "invalid_grant", "subject_token is not an ID token")
    # idpyoidc's own record: the ID token must be one that it minted (looked up
    # by its sid claim and value in the grant), for this client, still active.
    manager = context.session_manager
    try:
        info = manager.get_session_info_by_token(id_token, grant=True, handler_key="id_token")
        token = manager.find_token(info["branch_id"], id_token)
    except Exception:
        token = info = None
    if token is None or token.token_class != "id_token":
        raise IdJagError(400, "invalid_grant", "subject_token is not an ID token issued by this provider")
    if info.get("client_id") != client_id:
        raise IdJagError(400, "invalid_grant", "subject_token was not issued to this client")
    if not token.is_active():
        raise IdJagError(400, "invalid_grant", "subject_token is no longer active")
    return payload


def issue_id_jag(op: Server, form: dict, http_info: dict) -> dict:
    """Answer a token exchange request for an ID-JAG (see README)."""
    endpoint = op.get_endpoint("token")
    # idpyoidc's own client authentication of its token endpoint (the same
    # methods, keys and jti replay cache as for every other token request).
    request = Message(**{name: values[0] for name, values in form.items() if len(values) == 1})
    try:
        auth_info = endpoint.client_authentication(request, http_info)
    except Exception as err:
        raise IdJagError(401, "invalid_client", err if str(err) else "Authorization failed")
    client_id = auth_info.get("client_id")
    if not client_id or auth_info.get("method") in (None, "none", "public"):
        raise IdJagError(401, "invalid_client", "Authorization failed")
    if form.get("client_id") and form["client_id"] != [client_id]:
        raise IdJagError(401, "invalid_client", "client_id does not match the client authentication")

    if _single(form, "subject_token_type", required=True) != TT_ID_TOKEN:
        raise IdJagError(400, "invalid_request", f"subject_token_type must be {TT_ID_TOKEN}")
    subject_token = _single(form, "subject_token", required=True)
    audience = _single(form, "audience", required=True)
    if "actor_token" in form or "actor_token_type" in form:
        raise IdJagError(400, "invalid_request", "Actor token not supported")
    resources = [value for value in form.get("resource", []) if value]
    scope = _single(form, "scope")

    id_token = verify_own_id_token(op, subject_token, client_id)

    now = int(time.time())
    claims = {
        "iss": op.context.issuer,
        "sub": id_token["sub"],
        "aud": audience,
        "client_id": ID_JAG_CLIENT_ID,
        "jti": str(uuid.uuid4()),
        "iat": now,
        "exp": now + ID_JAG_LIFETIME,
    }
    if resources:
        claims["resource"] = resources[0] if len(resources) == 1 else resources
    if scope:
        claims["scope"] = scope
    key = op.context.keyjar.get_signing_key("EC", issuer_id="")[0]
    jwt = JWS(json.dumps(claims), alg="ES256", kid=key.kid, typ="oauth-id-jag+jwt").sign_compact([key])
    answer = {
        "access_token": jwt,
        "issued_token_type": TT_ID_JAG,
        "token_type": "N_A",
        "expires_in": ID_JAG_LIFETIME,
    }
    if scope:
        answer["scope"] = scope
    return answer


class Handler(BaseHTTPRequestHandler):
    server_version = "idpyoidc-test-op"
    op: Server = None  # set in main()

    # ---- routing -------------------------------------------------------
    ROUTES = {
        "/.well-known/openid-configuration": "provider_config",
        "/registration": "registration",
        "/authorization": "authorization",
        "/pushed_authorization": "pushed_authorization",
        "/token": "token",
        "/userinfo": "userinfo",
    }

    def log_message(self, fmt, *args):
        # Only method + path, never the query string (codes, request objects).
        LOG.info("%s %s -> %s", self.command, urlsplit(self.path).path, args[1] if len(args) > 1 else "")

    def do_GET(self):
        self._dispatch()

    def do_POST(self):
        self._dispatch()

    def _dispatch(self):
        path = urlsplit(self.path).path
        try:
            if path == "/jwks":
                body = json.dumps(self.op.context.keyjar.export_jwks())
                return self._send(200, body, "application/json")
            name = self.ROUTES.get(path)
            if not name:
                return self._send(404, json.dumps({"error": "not_found"}), "application/json")
            self._body = None
            if self.command == "POST":
                length = int(self.headers.get("Content-Length") or 0)
                self._body = self.rfile.read(length).decode() if length else ""
            with OP_LOCK:
                if ISSUE_ID_JAG and name == "token" and self.command == "POST":
                    form = parse_qs(self._body, keep_blank_values=True)
                    if is_id_jag_request(form):
                        return self.id_jag_endpoint(form)
                return self.service_endpoint(self.op.get_endpoint(name))
        except Exception as err:  # pragma: no cover - last resort
            LOG.error("unhandled %s", type(err).__name__)
            return self._json_error(500, "server_error", type(err).__name__)

    # ---- helpers ---------------------------------------------------------
    def _send(self, code, body="", content_type="text/plain", headers=None):
        data = body.encode() if isinstance(body, str) else (body or b"")
        self.send_response(code)
        if content_type:
            self.send_header("Content-Type", content_type)
        for key, value in headers or []:
            self.send_header(key, value)
        self.send_header("Cache-Control", "no-store")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _json_error(self, code, error, description):
        msg = ResponseMessage(error=error, error_description=str(description))
        self._send(code, msg.to_json(), "application/json")

    def _redirect(self, location, headers=None):
        self._send(302, "", None, [("Location", location)] + list(headers or []))

    def _http_info(self, endpoint):
        headers = {k.lower(): v for k, v in self.headers.items() if k.lower() not in ("cookie", "user-agent")}
        return {
            "headers": headers,
            "method": self.command,
            "url": f"{endpoint.upstream_get('context').issuer}{self.path}",
            "cookie": [],  # no browser sessions needed (NoAuthn)
        }

    # ---- --issue-id-jag: token exchange for an ID-JAG, answered here -----
    def id_jag_endpoint(self, form):
        endpoint = self.op.get_endpoint("token")
        try:
            answer = issue_id_jag(self.op, form, self._http_info(endpoint))
        except IdJagError as err:
            LOG.info("id-jag refused: %s", err.error)
            msg = ResponseMessage(error=err.error, error_description=str(err.description))
            return self._send(err.status, msg.to_json(), "application/json")
        LOG.info("id-jag issued")
        return self._send(200, json.dumps(answer), "application/json")

    # ---- the flask_op views.service_endpoint, minus flask ------------------
    def service_endpoint(self, endpoint):
        split = urlsplit(self.path)
        http_info = self._http_info(endpoint)
        if self.command == "GET":
            req_args = dict(parse_qsl(split.query))
            if FILL_OUTER_PARAMS and endpoint.name == "authorization":
                fill_outer_params(endpoint, req_args)
            try:
                req_args = endpoint.parse_request(req_args, http_info=http_info)
            except ClientAuthenticationError as err:
                LOG.info("client authentication failed at %s: %s", endpoint.name, type(err).__name__)
                return self._json_error(401, "unauthorized_client", err)
            except Exception as err:
                LOG.info("parse_request failed at %s: %s", endpoint.name, type(err).__name__)
                return self._json_error(400, "invalid_request", err)
        else:
            raw = self._body or ""
            ctype = (self.headers.get("Content-Type") or "").split(";")[0].strip()
            # Registration takes JSON, everything else a urlencoded form.
            req_args = raw if ctype == "application/json" or endpoint.name == "registration" else dict(parse_qsl(raw))
            try:
                req_args = endpoint.parse_request(req_args, http_info=http_info)
            except ClientAuthenticationError as err:
                # flask_op answers 400 invalid_request here; RFC 6749 5.2 /
                # RFC 9126 2.3 want 401 invalid_client.
                LOG.info("client authentication failed at %s: %s", endpoint.name, type(err).__name__)
                return self._json_error(401, "invalid_client", err)
            except Exception as err:
                LOG.info("parse_request failed at %s: %s", endpoint.name, type(err).__name__)
                return self._json_error(400, "invalid_request", err)

        if isinstance(req_args, ResponseMessage) and "error" in req_args:
            LOG.info("error response at %s: %s", endpoint.name, req_args.get("error"))
            return self._send(400, req_args.to_json(), "application/json")

        try:
            if isinstance(endpoint, Token):
                extra = {"issue_refresh": True} if ISSUE_REFRESH else {}
                args = endpoint.process_request(AccessTokenRequest(**req_args), http_info=http_info, **extra)
            else:
                args = endpoint.process_request(req_args, http_info=http_info)
        except Exception as err:
            LOG.info("process_request failed at %s: %s", endpoint.name, type(err).__name__)
            LOG.debug("".join(traceback.format_exception(*sys.exc_info())))
            return self._json_error(400, "invalid_request", err)

        if isinstance(args, ResponseMessage) and "error" in args:
            # e.g. userinfo answers invalid_token this way (RFC 6750: 401).
            LOG.info("error from %s: %s", endpoint.name, args.get("error"))
            code = 401 if args["error"] == "invalid_token" else 400
            hdr = [("WWW-Authenticate", f'Bearer error="{args["error"]}"')] if code == 401 else []
            return self._send(code, args.to_json(), "application/json", hdr)
        if "redirect_location" in args:
            return self._redirect(args["redirect_location"])
        if "http_response" in args:
            body = args["http_response"]
            if isinstance(body, dict):
                # PAR answer: RFC 9126 says 201 Created + JSON.
                return self._send(201, json.dumps(body), "application/json")
            return self._send(200, str(body), "text/html")
        return self.do_response(endpoint, req_args, **args)

    def do_response(self, endpoint, req_args, error="", **args):
        info = endpoint.do_response(request=req_args, error=error, **args)
        placement = info.get("response_placement", endpoint.response_placement)
        headers = list(info.get("http_headers", []))
        ctype = None
        for key, value in list(headers):
            if key.lower() == "content-type":
                ctype = value
                headers.remove((key, value))
        if placement == "url":
            return self._redirect(info["response"], headers)
        code = info.get("response_code", 400 if error else 200)
        body = info["response"]
        if isinstance(body, ResponseMessage):
            body = body.to_json()
        return self._send(code, body, ctype or "application/json", headers)


def main():
    logging.basicConfig(
        level=os.environ.get("LOG_LEVEL", "INFO"),
        format="%(asctime)s %(name)s %(levelname)s %(message)s",
    )
    # idpyoidc logs full requests/responses (incl. tokens) at INFO/DEBUG:
    # keep its own loggers at WARNING so that no secret reaches the log.
    logging.getLogger("idpyoidc").setLevel(logging.WARNING)
    logging.getLogger("cryptojwt").setLevel(logging.WARNING)

    positional = [word for index, word in enumerate(sys.argv[1:], start=1)
                  if not word.startswith("--") and sys.argv[index - 1] not in VALUE_OPTIONS]
    port = int(positional[0] if positional else os.environ.get("PORT", "0"))
    httpd = ThreadingHTTPServer((HOST, port), Handler)
    # The issuer names the port, so the OP is made once the socket has one.
    port = httpd.server_address[1]
    Handler.op = make_server(port)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # clean exit on kill
    print(f"http://{HOST}:{port}", flush=True)
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        httpd.server_close()
        _WORKDIR.cleanup()


if __name__ == "__main__":
    main()
