#!/usr/bin/env python3
"""An MCP authorization server and two MCP protected resources built from the MCP Python SDK's
own server-side auth code (PyPI `mcp`, pinned in mcp-requirements.txt), for the end-to-end tests
of Bearer's MCP authorization: discovery from a 401, dynamic client registration, Client ID
Metadata Documents, RFC 8707 resource indicators, step-up, refresh and revocation, and, opt-in,
enterprise-managed authorization's identity-assertion grant (SEP-990; below).

One process, four servers on free ports of 127.0.0.1. Prints the authorization server's base URL
(http://127.0.0.1:PORT, which is also its issuer; http://localhost:PORT with --issuer-host
localhost, so that the server and the resources have different host names) as its first line on
stdout and serves until
killed.

Authorization server (AS), http://127.0.0.1:PORT, from `create_auth_routes`:
    GET  /.well-known/oauth-authorization-server
                      RFC 8414 metadata, the SDK's model: issuer exactly http://127.0.0.1:PORT (no
                      trailing slash), /authorize, /token, /register, /revoke, scopes_supported
                      ["mcp:read", "mcp:admin"], client_secret_post and client_secret_basic for
                      /token and /revoke, code_challenge_methods_supported ["S256"], and set here:
                      authorization_response_iss_parameter_supported true, and
                      client_id_metadata_document_supported true with --cimd. With the
                      identity-assertion switches, the SDK's own additions: grant_types_supported
                      gains urn:ietf:params:oauth:grant-type:jwt-bearer, and
                      authorization_grant_profiles_supported is
                      ["urn:ietf:params:oauth:grant-profile:id-jag"].
    GET|POST /authorize  the SDK's handler and the provider below: 302 to the redirect URI with
                      code and state, or with error (invalid_scope, invalid_target, ...). Every
                      302, error redirects included, also carries iss (RFC 9207).
    POST /token       authorization_code (PKCE S256) and refresh_token grants; jwt-bearer with the
                      identity-assertion switches.
    POST /register    RFC 7591 dynamic client registration, 201.
    POST /revoke      RFC 7009, 200 with an empty body. The SDK requires the client_secret field
                      even from a public client (an empty value will do).
  Harness routes:
    GET  /_harness    {"issuer", "resource": RS1's resource URL, "other_resource": RS2's,
                      "documents": the documents host's base URL}, and "identity_assertion_client_id"
                      with the identity-assertion switches. Every value is a string.
    GET  /_harness/log  {"requests": [{"path", "method", "status", "grant_type", "resource",
                      "form_keys", "client_id"}, ...]}: every /authorize, /token, /register and
                      /revoke request, in order of arrival. form_keys: the sorted names of the
                      query and form parameters (of the JSON members for /register), one per
                      parameter. grant_type, resource and client_id are the parameters' values, or
                      null. Never a token, code, verifier or secret.
    DELETE /_harness/log  empties the log; {"requests": []}
    GET  /_harness/clients  {"count", "clients": [{"client_id", "client_name", "redirect_uris",
                      "token_endpoint_auth_method", "scope"}, ...]}: the dynamically registered
                      clients (not the identity-assertion client, which is pre-registered).
    PUT  /_harness/documents/NAME  stores the JSON body as the document NAME; 200 {"url"}.

Protected resources RS1 and RS2, http://127.0.0.1:R, resource URL http://127.0.0.1:R/mcp:
    POST /mcp         `MCPServer`'s streamable HTTP endpoint (stateless, JSON answers), with one
                      tool, whoami; needs mcp:read.
    GET  /mcp/whoami  {"client_id", "scopes", "resource"} of the access token, and "subject" (the
                      ID-JAG's sub) for a token of the identity-assertion grant; needs mcp:read.
    GET  /mcp/admin   {"admin": true}; needs mcp:read and mcp:admin.
    GET  /.well-known/oauth-protected-resource/mcp  RFC 9728 metadata: {"resource",
                      "authorization_servers": [issuer], "scopes_supported": ["mcp:read"],
                      "bearer_methods_supported": ["header"]}
  The three /mcp routes go through the SDK's BearerAuthBackend, with its audience check
  (validate_token_resource), and RequireAuthMiddleware. Without a token, or with an unknown,
  expired or revoked one, or one issued for the other resource: 401 with `WWW-Authenticate: Bearer
  error="invalid_token", error_description="Authentication required",
  resource_metadata="http://127.0.0.1:R/.well-known/oauth-protected-resource/mcp"`. With a good
  token lacking a scope: 403 with `Bearer error="insufficient_scope", error_description="Required
  scope: mcp:admin", resource_metadata="..."` (no scope parameter).

Documents host, http://127.0.0.1:D: GET /NAME answers the JSON document stored as NAME, else 404.
It stands for a client's web site hosting its Client ID Metadata Document.

The provider, in memory:
  - approves every authorization request at once, without a consent page. Without scope, the
    grant is mcp:read. A code lives 5 minutes and serves one successful token request.
  - RFC 8707, strictly: /authorize needs resource, RS1's or RS2's resource URL (else a redirect
    with error=invalid_target). The code's token request and every refresh need exactly one
    resource, the grant's (else 400 invalid_target). Tokens are bound to that resource.
  - access tokens live --access-token-seconds, N (expires_in says so): the resources refuse one
    from N to N+1 seconds after it was issued (the SDK compares whole seconds). Refresh tokens do
    not expire. A refresh rotates: the old refresh token and the access token issued with it are
    dropped. The new refresh token keeps the grant's scopes, the access token gets the requested
    ones. Revoking either token of a pair drops both.
  - with --cimd, a client_id that is a URL of the documents host is looked up by fetching it over
    HTTP: a document whose client_id is that URL makes a public client (token_endpoint_auth_method
    none) with the document's redirect_uris and client_name, scope "mcp:read mcp:admin".

How the SDK (2.3.0) treats what the client sends:
  - redirect_uri at /authorize must equal one of the client's registered redirect URIs as parsed
    URLs: scheme and host case and a default port do not matter, everything else does: the port
    (no RFC 8252 any-port rule for loopback), path, trailing slash, query, percent-encoding. A
    registered URI without a path (http://127.0.0.1:8080) never matches, as the requested one
    gains a "/". Without redirect_uri, a client with one registered URI gets that one. A mismatch
    is a 400 JSON invalid_request, not a redirect. The token request must then carry the same
    redirect_uri, or none if /authorize had none.
  - registration without token_endpoint_auth_method answers "token_endpoint_auth_method":
    "client_secret_post", a 64-hex-digit "client_secret" and "client_secret_expires_at": 0, besides
    "client_id" (a UUID), "client_id_issued_at", the registered metadata and "scope": "mcp:read
    mcp:admin" (the default scopes). Such a client sends client_id and client_secret in the form
    of /token and /revoke. With "none": no client_secret nor client_secret_expires_at, and /token
    needs client_id only. With client_secret_basic, client_id is needed in the form too.
  - a client may ask only for scopes it registered (else a redirect with error=invalid_scope),
    and a refresh only for the refresh token's scopes.

Identity assertions (SEP-990; draft-ietf-oauth-identity-assertion-authz-grant, "ID-JAG"), opt-in:
    --identity-assertion-jwks URL               the identity provider's JWKS (fetched over HTTP)
    --identity-assertion-issuer ISSUER          its issuer: the iss every ID-JAG must carry
    --identity-assertion-client-secret-file PATH  the pre-registered client's secret (first line)
    --identity-assertion-client-id ID           its client_id (default mcp-enterprise-client)
    --identity-assertion-client-auth METHOD     client_secret_basic (default) or client_secret_post
  The first three go together. The request: POST /token, grant_type=
  urn:ietf:params:oauth:grant-type:jwt-bearer, assertion=<ID-JAG>, client_id (the SDK wants it in the
  form even with Basic), optional scope and resource, and the client's secret.
  What the SDK (2.3.0) does itself: the route (create_auth_routes(identity_assertion_enabled=True)),
  the metadata above, parsing the request (JwtBearerRequest: a missing assertion is 400
  invalid_request), client authentication (401 invalid_client), refusing a client whose
  grant_types lack jwt-bearer (400 unsupported_grant_type) or that has no secret (400
  unauthorized_client), refusing jwt-bearer in dynamic registration (400 invalid_client_metadata),
  and calling the provider's exchange_identity_assertion(client, IdentityAssertionParams(assertion,
  scopes, resource)). It verifies nothing of the assertion: its default hook refuses every one.
  What the hook here adds (IdentityAssertion, Provider.exchange_identity_assertion), each refusal a
  400 invalid_grant unless said otherwise, with an error_description naming the check:
    - the JOSE header: typ oauth-id-jag+jwt (or application/oauth-id-jag+jwt, any case); alg ES256
      or RS256 (anything else, HS256 and none included, refused);
    - the key: a JWKS key with the header's kid (any compatible key without kid), of the alg's kty
      (EC P-256 or RSA), with no other alg and a use of sig if it names them. The JWKS is fetched on
      the first assertion and again once when no key fits (rotation); an unreachable JWKS is
      invalid_grant too (the SDK's TokenError has no server_error);
    - the signature (PyJWT and cryptography, already in the environment), then iss == ISSUER, aud
      == this AS's issuer (or one of its values), exp not passed and iat/nbf not in the future
      (no leeway), and the claims the draft requires present: iss, sub, aud, client_id, jti, exp,
      iat;
    - client_id == the authenticated client's; a jti never exchanged before (remembered until the
      assertion's exp; an assertion refused for its resource or scope does not use up its jti);
    - the audience of the token (RFC 8707; 400 invalid_target): the ID-JAG's resource claim (a
      string, or an array from which the request's resource must pick one), else the request's
      one resource parameter; a request's resource must be one the claim names; the result must be
      RS1's or RS2's resource URL;
    - the scopes (400 invalid_scope): the ID-JAG's scope claim, values this server does not know
      left out (mcp:read without a claim); a requested scope must be among them; the token gets the
      requested scopes, or all the ID-JAG's.
  The answer: {"access_token", "token_type": "Bearer", "expires_in": --access-token-seconds,
  "scope"}, an opaque token of the same kind as the other grants', bound to the resource and
  carrying the ID-JAG's sub; no refresh token (the SDK's documented SHOULD NOT: the client gets a
  new ID-JAG from its identity provider instead). /_harness/log records these requests like the
  others (grant_type urn:ietf:params:oauth:grant-type:jwt-bearer; form_keys include "assertion").
  mcp_identity_assertion_probe.py checks all of this.
"""
import argparse
import asyncio
import contextlib
import contextvars
import json
import secrets
import socket
import time
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, urlencode

import httpx2
import jwt
import uvicorn
from pydantic import ValidationError
from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Route, request_response

from mcp.server.auth.handlers.metadata import MetadataHandler
from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.auth.middleware.bearer_auth import RequireAuthMiddleware
from mcp.server.auth.provider import (
    AccessToken,
    AuthorizationCode,
    AuthorizeError,
    IdentityAssertionParams,
    ProviderTokenVerifier,
    RefreshToken,
    TokenError,
    construct_redirect_uri,
)
from mcp.server.auth.routes import build_metadata, build_resource_metadata_url, cors_middleware, create_auth_routes
from mcp.server.auth.settings import AuthSettings, ClientRegistrationOptions, RevocationOptions
from mcp.server.mcpserver import MCPServer
from mcp.shared.auth import JWT_BEARER_GRANT_TYPE, OAuthClientInformationFull, OAuthToken

READ, ADMIN = "mcp:read", "mcp:admin"
SCOPES = [READ, ADMIN]
CODE_SECONDS = 300
METADATA_PATH = "/.well-known/oauth-authorization-server"
LOGGED_PATHS = {"/authorize", "/token", "/register", "/revoke"}
# draft-ietf-oauth-identity-assertion-authz-grant: the ID-JAG's media type (its JOSE typ), the
# algorithms this server verifies (with the JWK kty and crv each needs), its required claims.
ID_JAG_TYPES = {"oauth-id-jag+jwt", "application/oauth-id-jag+jwt"}
ID_JAG_ALGORITHMS = {"ES256": ("EC", "P-256"), "RS256": ("RSA", None)}
ID_JAG_CLAIMS = ["iss", "sub", "aud", "client_id", "jti", "exp", "iat"]

# The parameters of the request being handled at /token, name -> [values]: the SDK parses
# `resource` there but does not hand it to the provider.
TOKEN_FORM = contextvars.ContextVar("TOKEN_FORM", default={})


@dataclass
class Harness:
    """What the harness routes answer: the servers' URLs, the request log, the documents."""

    urls: dict
    log: list = field(default_factory=list)
    documents: dict = field(default_factory=dict)


class Provider:
    """The AS's OAuthAuthorizationServerProvider."""

    def __init__(self, resources, documents_url, access_token_seconds, cimd, identity_assertion=None):
        self.resources = resources
        self.documents_url = documents_url
        self.access_token_seconds = access_token_seconds
        self.cimd = cimd
        self.identity_assertion = identity_assertion  # an IdentityAssertion, or None
        self.clients = {}  # the dynamically registered clients
        self.fixed_clients = {}  # the pre-registered ones
        if identity_assertion:
            self.fixed_clients[identity_assertion.client.client_id] = identity_assertion.client
        self.codes = {}
        self.access_tokens = {}
        self.refresh_tokens = {}
        self.partners = {}  # token -> the other token of its pair

    async def get_client(self, client_id):
        if client_id in self.fixed_clients:
            return self.fixed_clients[client_id]
        if client_id in self.clients:
            return self.clients[client_id]
        if self.cimd and client_id.startswith(self.documents_url + "/"):
            return await self.fetch_client_document(client_id)
        return None

    async def fetch_client_document(self, url):
        try:
            async with httpx2.AsyncClient(trust_env=False) as http:
                answer = await http.get(url)
            document = answer.json()
        except (httpx2.HTTPError, ValueError):
            return None
        if answer.status_code != 200 or not isinstance(document, dict) or document.get("client_id") != url:
            return None
        try:
            return OAuthClientInformationFull(
                client_id=url,
                token_endpoint_auth_method="none",
                redirect_uris=document.get("redirect_uris"),
                client_name=document.get("client_name"),
                grant_types=["authorization_code", "refresh_token"],
                response_types=["code"],
                scope=" ".join(SCOPES),
            )
        except ValidationError:
            return None

    async def register_client(self, client_info):
        self.clients[client_info.client_id] = client_info

    async def authorize(self, client, params):
        if params.resource not in self.resources:
            raise AuthorizeError("invalid_target", "resource must name one of the protected resources")
        code = AuthorizationCode(
            code=secrets.token_urlsafe(32),
            scopes=params.scopes or [READ],
            expires_at=time.time() + CODE_SECONDS,
            client_id=client.client_id,
            code_challenge=params.code_challenge,
            redirect_uri=params.redirect_uri,
            redirect_uri_provided_explicitly=params.redirect_uri_provided_explicitly,
            resource=params.resource,
        )
        self.codes[code.code] = code
        return construct_redirect_uri(str(params.redirect_uri), code=code.code, state=params.state)

    async def load_authorization_code(self, client, authorization_code):
        return self.codes.get(authorization_code)

    async def exchange_authorization_code(self, client, authorization_code):
        require_resource(authorization_code.resource)
        del self.codes[authorization_code.code]
        scopes = authorization_code.scopes
        return self.issue(client.client_id, scopes, scopes, authorization_code.resource)

    async def load_refresh_token(self, client, refresh_token):
        return self.refresh_tokens.get(refresh_token)

    async def exchange_refresh_token(self, client, refresh_token, scopes):
        require_resource(refresh_token.resource)
        self.drop(refresh_token.token)
        return self.issue(client.client_id, scopes, refresh_token.scopes, refresh_token.resource)

    async def load_access_token(self, token):
        return self.access_tokens.get(token)

    async def revoke_token(self, token):
        self.drop(token.token)

    async def exchange_identity_assertion(self, client, params: IdentityAssertionParams):
        """The jwt-bearer grant with an ID-JAG. The SDK has authenticated the client, checked that
        it is confidential and that its grant_types include jwt-bearer; the rest is done here."""
        if self.identity_assertion is None:
            raise TokenError("unsupported_grant_type", "identity assertions are not enabled")
        claims = await self.identity_assertion.verify(params.assertion, client.client_id)
        resource = self.identity_assertion_resource(claims)
        scopes = identity_assertion_scopes(claims, params.scopes)
        self.identity_assertion.consume(claims)
        return self.issue(client.client_id, scopes, scopes, resource, subject=claims["sub"], refresh=False)

    def identity_assertion_resource(self, claims):
        """The issued token's audience: the resource the ID-JAG names (a string, or an array from
        which the request's resource picks one), else the request's resource; one of ours."""
        requested = TOKEN_FORM.get().get("resource", [])
        if len(requested) > 1:
            raise TokenError("invalid_target", "at most one resource")
        claimed = claims.get("resource")
        if isinstance(claimed, str):
            claimed = [claimed]
        elif claimed is not None and not (
            isinstance(claimed, list) and claimed and all(isinstance(each, str) for each in claimed)
        ):
            raise TokenError("invalid_grant", "the assertion's resource claim is not a string or an array of strings")
        if requested:
            resource = requested[0]
            if claimed is not None and resource not in claimed:
                raise TokenError("invalid_target", "resource is not one the assertion names")
        elif claimed is None:
            raise TokenError("invalid_target", "neither the assertion nor the request names a resource")
        elif len(claimed) > 1:
            raise TokenError("invalid_target", "the assertion names several resources: resource must pick one")
        else:
            resource = claimed[0]
        if resource not in self.resources:
            raise TokenError("invalid_target", "resource must name one of the protected resources")
        return resource

    def issue(self, client_id, scopes, grant_scopes, resource, subject=None, refresh=True):
        access = AccessToken(
            token=secrets.token_urlsafe(32),
            client_id=client_id,
            scopes=scopes,
            expires_at=int(time.time()) + self.access_token_seconds,
            resource=resource,
            subject=subject,
        )
        self.access_tokens[access.token] = access
        answer = OAuthToken(access_token=access.token, expires_in=self.access_token_seconds, scope=" ".join(scopes))
        if refresh:
            refresh_token = RefreshToken(
                token=secrets.token_urlsafe(32), client_id=client_id, scopes=grant_scopes, resource=resource
            )
            self.refresh_tokens[refresh_token.token] = refresh_token
            self.partners[access.token], self.partners[refresh_token.token] = refresh_token.token, access.token
            answer.refresh_token = refresh_token.token
        return answer

    def drop(self, token):
        """Forgets a token and the other token of its pair."""
        for each in (token, self.partners.get(token)):
            self.access_tokens.pop(each, None)
            self.refresh_tokens.pop(each, None)
            self.partners.pop(each, None)


def identity_assertion_scopes(claims, requested):
    """The scopes of an ID-JAG's token: the request's scope, which must be among the ID-JAG's (its
    scope claim, the values this server does not know left out; mcp:read without the claim), or
    all of the ID-JAG's."""
    claimed = claims.get("scope")
    if claimed is not None and not isinstance(claimed, str):
        raise TokenError("invalid_grant", "the assertion's scope claim is not a string")
    granted = [each for each in claimed.split() if each in SCOPES] if claimed is not None else [READ]
    if not granted:
        raise TokenError("invalid_scope", "the assertion grants none of this server's scopes")
    for each in requested or []:
        if each not in granted:
            raise TokenError("invalid_scope", f"the assertion does not grant scope {each}")
    return requested or granted


class IdentityAssertion:
    """Verifies ID-JAGs (draft-ietf-oauth-identity-assertion-authz-grant, RFC 7523 §3) from one
    identity provider, whose JWKS is at jwks_url, for one pre-registered confidential client.
    Every refusal is a TokenError, invalid_grant, whose description names the check."""

    def __init__(self, jwks_url, issuer, audience, client):
        self.jwks_url, self.issuer, self.audience, self.client = jwks_url, issuer, audience, client
        self.keys = None  # the JWKS's keys, fetched on first use and again for an unknown kid
        self.used = {}  # jti -> exp of every ID-JAG that was exchanged

    async def verify(self, assertion, client_id):
        """The claims of a valid, unused ID-JAG issued to client_id."""
        try:
            header = jwt.get_unverified_header(assertion)
        except jwt.InvalidTokenError:
            raise TokenError("invalid_grant", "the assertion is not a JWS in compact serialization")
        typ = header.get("typ")
        if not isinstance(typ, str) or typ.lower() not in ID_JAG_TYPES:
            raise TokenError("invalid_grant", "the assertion's typ is not oauth-id-jag+jwt")
        algorithm = header.get("alg")
        if algorithm not in ID_JAG_ALGORITHMS:
            raise TokenError("invalid_grant", "the assertion's alg is not ES256 or RS256")
        keys = await self.candidate_keys(header, refetch=False) or await self.candidate_keys(header, refetch=True)
        if not keys:
            raise TokenError("invalid_grant", "no key of the identity provider's JWKS fits the assertion's kid and alg")
        for key in keys:
            try:
                claims = jwt.decode(
                    assertion,
                    key,
                    algorithms=[algorithm],
                    audience=self.audience,
                    issuer=self.issuer,
                    options={"require": ID_JAG_CLAIMS},
                )
                break
            except jwt.InvalidSignatureError:
                continue
            except jwt.ExpiredSignatureError:
                raise TokenError("invalid_grant", "the assertion has expired")
            except jwt.ImmatureSignatureError:
                raise TokenError("invalid_grant", "the assertion's iat or nbf is in the future")
            except jwt.InvalidAudienceError:
                raise TokenError("invalid_grant", "the assertion's aud is not this authorization server's issuer")
            except jwt.InvalidIssuerError:
                raise TokenError("invalid_grant", "the assertion's iss is not the trusted identity provider")
            except jwt.MissingRequiredClaimError as error:
                raise TokenError("invalid_grant", f"the assertion has no {error.claim} claim")
            except jwt.InvalidTokenError:
                raise TokenError("invalid_grant", "the assertion is malformed")
        else:
            raise TokenError("invalid_grant", "the assertion's signature does not verify")
        if claims["client_id"] != client_id:
            raise TokenError("invalid_grant", "the assertion's client_id is not the authenticated client")
        if not isinstance(claims["sub"], str) or not isinstance(claims["jti"], str):
            raise TokenError("invalid_grant", "the assertion's sub and jti must be strings")
        now = time.time()
        self.used = {jti: exp for jti, exp in self.used.items() if exp >= now}
        if claims["jti"] in self.used:
            raise TokenError("invalid_grant", "the assertion's jti was used before")
        return claims

    def consume(self, claims):
        """Remembers an exchanged ID-JAG's jti until it expires."""
        self.used[claims["jti"]] = claims["exp"]

    async def candidate_keys(self, header, refetch):
        if refetch or self.keys is None:
            try:
                async with httpx2.AsyncClient(trust_env=False) as http:
                    answer = await http.get(self.jwks_url)
                document = answer.json()
            except (httpx2.HTTPError, ValueError):
                raise TokenError("invalid_grant", "the identity provider's JWKS could not be fetched")
            listed = document.get("keys") if answer.status_code == 200 and isinstance(document, dict) else None
            self.keys = [each for each in listed if isinstance(each, dict)] if isinstance(listed, list) else []
        algorithm, kid = header["alg"], header.get("kid")
        kty, crv = ID_JAG_ALGORITHMS[algorithm]
        keys = []
        for each in self.keys:
            if kid is not None and each.get("kid") != kid:
                continue
            if each.get("kty") != kty or (crv and each.get("crv") != crv):
                continue
            if each.get("alg", algorithm) != algorithm or each.get("use", "sig") != "sig":
                continue
            try:
                keys.append(jwt.PyJWK(each, algorithm=algorithm))
            except jwt.PyJWKError:
                continue
        return keys


def require_resource(expected):
    """RFC 8707 §2.2, strictly: the token request names the grant's resource, and only it."""
    if TOKEN_FORM.get().get("resource") != [expected]:
        raise TokenError("invalid_target", f"resource must be {expected}")


class OAuthEndpointsWrapper:
    """The AS's outermost layer. For the OAuth endpoints, it logs each request, exposes the
    parameters of each to the provider through TOKEN_FORM, and adds RFC 9207 `iss` to every
    redirect from /authorize, the SDK's error redirects included."""

    def __init__(self, app, issuer, log):
        self.app, self.issuer, self.log = app, issuer, log

    async def __call__(self, scope, receive, send):
        path = scope.get("path")
        if scope["type"] != "http" or path not in LOGGED_PATHS:
            return await self.app(scope, receive, send)
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        pairs = parse_qsl(scope["query_string"].decode("latin-1"), keep_blank_values=True)
        if path == "/register":
            keys = json_member_names(body)
        else:
            pairs += parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True)
            keys = [name for name, _ in pairs]
        form = {}
        for name, value in pairs:
            form.setdefault(name, []).append(value)
        TOKEN_FORM.set(form)
        entry = {
            "path": path,
            "method": scope["method"],
            "status": None,
            "grant_type": form.get("grant_type", [None])[0],
            "resource": form.get("resource", [None])[0],
            "form_keys": sorted(keys),
            "client_id": form.get("client_id", [None])[0],
        }
        self.log.append(entry)

        replayed = [{"type": "http.request", "body": body, "more_body": False}]

        async def replay():
            return replayed.pop() if replayed else await receive()

        async def send_with_iss(message):
            if message["type"] == "http.response.start":
                entry["status"] = message["status"]
                if path == "/authorize":
                    headers = [self.with_iss(name, value) for name, value in message["headers"]]
                    message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, replay, send_with_iss)

    def with_iss(self, name, value):
        if name.lower() != b"location":
            return name, value
        location = value.decode("latin-1")
        separator = "&" if "?" in location else "?"
        return name, (location + separator + urlencode({"iss": self.issuer})).encode("latin-1")


def json_member_names(body):
    try:
        document = json.loads(body)
    except ValueError:
        return []
    return list(document) if isinstance(document, dict) else []


def authorization_server(issuer, provider, harness, cimd):
    # AuthSettings keeps a path-less issuer without the trailing slash a bare AnyHttpUrl adds.
    issuer_url = AuthSettings(issuer_url=issuer, resource_server_url=None).issuer_url
    registration = ClientRegistrationOptions(enabled=True, valid_scopes=SCOPES, default_scopes=SCOPES)
    revocation = RevocationOptions(enabled=True)
    identity_assertion = provider.identity_assertion is not None
    routes = create_auth_routes(
        provider,
        issuer_url,
        client_registration_options=registration,
        revocation_options=revocation,
        identity_assertion_enabled=identity_assertion,
    )
    # The SDK's metadata document, with the flags it never sets.
    flags = {
        "authorization_response_iss_parameter_supported": True,
        "client_id_metadata_document_supported": cimd or None,
    }
    metadata = build_metadata(
        issuer_url, None, registration, revocation, supports_identity_assertion=identity_assertion
    ).model_copy(update=flags)
    routes = [route for route in routes if route.path != METADATA_PATH]
    metadata_endpoint = cors_middleware(MetadataHandler(metadata).handle, ["GET", "OPTIONS"])
    routes.append(Route(METADATA_PATH, metadata_endpoint, methods=["GET", "OPTIONS"]))

    async def describe(request):
        return JSONResponse(harness.urls)

    async def log(request):
        if request.method == "DELETE":
            harness.log.clear()
        return JSONResponse({"requests": harness.log})

    async def clients(request):
        fields = ["client_id", "client_name", "redirect_uris", "token_endpoint_auth_method", "scope"]
        listed = [client.model_dump(mode="json", include=set(fields)) for client in provider.clients.values()]
        return JSONResponse({"count": len(listed), "clients": listed})

    async def put_document(request):
        try:
            document = json.loads(await request.body())
        except ValueError:
            return JSONResponse({"error": "the body is not JSON"}, status_code=400)
        name = request.path_params["name"]
        harness.documents[name] = document
        return JSONResponse({"url": f"{harness.urls['documents']}/{name}"})

    routes += [
        Route("/_harness", describe, methods=["GET"]),
        Route("/_harness/log", log, methods=["GET", "DELETE"]),
        Route("/_harness/clients", clients, methods=["GET"]),
        Route("/_harness/documents/{name}", put_document, methods=["PUT"]),
    ]
    return OAuthEndpointsWrapper(Starlette(routes=routes), issuer, harness.log)


def describe_token(access_token):
    described = {"client_id": access_token.client_id, "scopes": access_token.scopes, "resource": access_token.resource}
    if access_token.subject is not None:
        described["subject"] = access_token.subject  # the ID-JAG's sub
    return described


def protected_resource(issuer, resource, provider):
    auth = AuthSettings(
        issuer_url=issuer, resource_server_url=resource, required_scopes=[READ], validate_token_resource=True
    )
    verifier = ProviderTokenVerifier(provider)
    server = MCPServer("Bearer test resource", token_verifier=verifier, auth=auth, log_level="WARNING")

    @server.tool()
    def whoami() -> dict:
        """The client, scopes and resource of the request's access token."""
        return describe_token(get_access_token())

    app = server.streamable_http_app(json_response=True, stateless_http=True)
    metadata_url = build_resource_metadata_url(auth.resource_server_url)

    async def whoami_route(request):
        return JSONResponse(describe_token(request.user.access_token))

    async def admin_route(request):
        return JSONResponse({"admin": True})

    # The app's AuthenticationMiddleware (BearerAuthBackend with the audience check) covers
    # these routes too; RequireAuthMiddleware answers 401 and 403 as it does for /mcp.
    for path, endpoint, scopes in [("/mcp/whoami", whoami_route, [READ]), ("/mcp/admin", admin_route, SCOPES)]:
        app.router.routes.append(
            Route(path, RequireAuthMiddleware(request_response(endpoint), scopes, metadata_url), methods=["GET"])
        )
    return app


def documents_host(documents):
    async def document(request):
        name = request.path_params["name"]
        if name not in documents:
            return JSONResponse({"error": "not_found"}, status_code=404)
        return JSONResponse(documents[name])

    return Starlette(routes=[Route("/{name}", document, methods=["GET"])])


class Server(uvicorn.Server):
    """uvicorn without its signal handlers: several servers share the process, which ends when killed."""

    def capture_signals(self):
        return contextlib.nullcontext()


def listening_socket():
    """A socket listening on a free port of 127.0.0.1: connections wait in its backlog until the
    server starts accepting them, so the URLs work as soon as they are printed."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    return sock, f"http://127.0.0.1:{sock.getsockname()[1]}"


async def serve(apps):
    servers = [(Server(uvicorn.Config(app, log_level="warning", access_log=False)), sock) for sock, app in apps]
    await asyncio.gather(*(server.serve(sockets=[sock]) for server, sock in servers))


def main():
    parser = argparse.ArgumentParser(description="An MCP authorization server and two protected resources.")
    parser.add_argument("--cimd", action="store_true", help="accept Client ID Metadata Documents as client_ids")
    parser.add_argument("--access-token-seconds", type=int, default=3600, metavar="N",
                        help="access token lifetime in seconds (default 3600)")
    parser.add_argument("--issuer-host", choices=["127.0.0.1", "localhost"], default="127.0.0.1",
                        help="the host the authorization server's issuer names (localhost puts it on another "
                             "host name than the resources)")
    group = parser.add_argument_group("identity assertions (the jwt-bearer grant with an ID-JAG, SEP-990)")
    group.add_argument("--identity-assertion-jwks", metavar="URL",
                       help="enable the grant: the JWKS of the identity provider that signs ID-JAGs")
    group.add_argument("--identity-assertion-issuer", metavar="ISSUER",
                       help="the identity provider's issuer, the iss of its ID-JAGs (required with the above)")
    group.add_argument("--identity-assertion-client-secret-file", metavar="PATH",
                       help="the pre-registered client's secret, in a file (required with the above)")
    group.add_argument("--identity-assertion-client-id", default="mcp-enterprise-client", metavar="ID",
                       help="the pre-registered client's client_id (default mcp-enterprise-client)")
    group.add_argument("--identity-assertion-client-auth", choices=["client_secret_basic", "client_secret_post"],
                       default="client_secret_basic",
                       help="how that client authenticates (default client_secret_basic)")
    arguments = parser.parse_args()
    if arguments.access_token_seconds < 1:
        parser.error("--access-token-seconds must be at least 1")
    identity_assertion_switches = [
        arguments.identity_assertion_jwks,
        arguments.identity_assertion_issuer,
        arguments.identity_assertion_client_secret_file,
    ]
    if any(identity_assertion_switches) and not all(identity_assertion_switches):
        parser.error("--identity-assertion-jwks, --identity-assertion-issuer and "
                     "--identity-assertion-client-secret-file go together")
    client_secret = None
    if arguments.identity_assertion_client_secret_file:
        try:
            with open(arguments.identity_assertion_client_secret_file, encoding="utf-8") as file:
                client_secret = file.read().strip()
        except (OSError, UnicodeDecodeError):
            parser.error("cannot read --identity-assertion-client-secret-file")
        if not client_secret:
            parser.error("the file of --identity-assertion-client-secret-file is empty")

    (as_socket, issuer), (rs1_socket, rs1), (rs2_socket, rs2), (documents_socket, documents_url) = (
        listening_socket() for _ in range(4)
    )
    resource, other_resource = rs1 + "/mcp", rs2 + "/mcp"
    issuer = issuer.replace("127.0.0.1", arguments.issuer_host, 1)
    harness = Harness(
        {"issuer": issuer, "resource": resource, "other_resource": other_resource, "documents": documents_url}
    )
    identity_assertion = None
    if client_secret:
        client = OAuthClientInformationFull(
            client_id=arguments.identity_assertion_client_id,
            client_secret=client_secret,
            client_name="Enterprise-managed MCP client",
            token_endpoint_auth_method=arguments.identity_assertion_client_auth,
            grant_types=[JWT_BEARER_GRANT_TYPE],
            response_types=[],
            redirect_uris=None,
            scope=" ".join(SCOPES),
        )
        identity_assertion = IdentityAssertion(
            arguments.identity_assertion_jwks, arguments.identity_assertion_issuer, issuer, client
        )
        harness.urls["identity_assertion_client_id"] = client.client_id
    provider = Provider(
        [resource, other_resource], documents_url, arguments.access_token_seconds, arguments.cimd, identity_assertion
    )
    apps = [
        (as_socket, authorization_server(issuer, provider, harness, arguments.cimd)),
        (rs1_socket, protected_resource(issuer, resource, provider)),
        (rs2_socket, protected_resource(issuer, other_resource, provider)),
        (documents_socket, documents_host(harness.documents)),
    ]
    print(issuer, flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(apps))


if __name__ == "__main__":
    main()
