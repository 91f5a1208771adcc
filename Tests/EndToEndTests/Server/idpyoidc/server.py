#!/usr/bin/env python3
"""Minimal OpenID Provider for end-to-end tests, built on idpyoidc 5.0.0.

The OP itself is idpyoidc's ``idpyoidc.server.Server`` configured like the
``example/flask_op`` example of idpy-oidc; the HTTP glue below mirrors that
example's ``views.py`` (``service_endpoint`` / ``do_response``) using only
``http.server`` from the standard library.

    python server.py [PORT] [--fill-outer-parameters] [--issue-refresh]
                             (PORT=..., FILL_OUTER_PARAMS=1, ISSUE_REFRESH=1 in the environment
                             do the same; port 0, the default, picks a free port)

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
import traceback
from http.server import BaseHTTPRequestHandler
from http.server import ThreadingHTTPServer
from urllib.parse import parse_qsl
from urllib.parse import urlsplit

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
            "id_token": {"class": "idpyoidc.server.token.id_token.IDToken", "kwargs": {}},
        },
        "userinfo": {"class": "idpyoidc.server.user_info.UserInfo", "kwargs": {"db": USERS}},
        "template_dir": "templates",
    }


_WORKDIR = None


def make_server(port: int) -> Server:
    issuer = f"http://{HOST}:{port}"
    # A throw-away working directory, so that idpyoidc can never drop files
    # (e.g. key files) into the source tree.
    # (Nothing is written there with this configuration; removed at exit.)
    global _WORKDIR
    _WORKDIR = tempfile.TemporaryDirectory(prefix="idpyoidc-op-")
    cwd = _WORKDIR.name
    server = Server(OPConfiguration(conf=op_config(issuer), base_path=cwd), cwd=cwd)
    # idpyoidc always adds "iss" to authorization responses (RFC 9207, see
    # Authorization.authz_part2) but has no metadata flag for it, and unknown
    # "preference" keys are filtered out, so advertise it here.
    server.context.provider_info["authorization_response_iss_parameter_supported"] = True
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
            with OP_LOCK:
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

    # ---- the flask_op views.service_endpoint, minus flask ------------------
    def service_endpoint(self, endpoint):
        split = urlsplit(self.path)
        headers = {k.lower(): v for k, v in self.headers.items() if k.lower() not in ("cookie", "user-agent")}
        http_info = {
            "headers": headers,
            "method": self.command,
            "url": f"{endpoint.upstream_get('context').issuer}{self.path}",
            "cookie": [],  # no browser sessions needed (NoAuthn)
        }
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
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length).decode() if length else ""
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

    positional = [word for word in sys.argv[1:] if not word.startswith("--")]
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
