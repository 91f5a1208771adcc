"""OAuth 2.0 / OpenID Connect customisations of django-oauth-toolkit."""

import contextvars
import json

from django.http import JsonResponse, QueryDict
from django.utils import timezone
from oauth2_provider.exceptions import OAuthToolkitError
from oauth2_provider.models import (
    get_access_token_model,
    get_application_model,
    get_device_grant_model,
    get_refresh_token_model,
)
from oauth2_provider.oauth2_validators import OAuth2Validator
from oauth2_provider.settings import oauth2_settings
from oauth2_provider.views import AuthorizationView, TokenView
from oauth2_provider.views import metadata as metadata_views
from oauth2_provider.views import oidc as oidc_views
from oauthlib.oauth2.rfc6749 import errors as oauth2_errors
from oauthlib.oauth2.rfc6749.grant_types.authorization_code import code_challenge_method_s256
from oauthlib.openid import Server as OpenIDServer


DEVICE_CODE_GRANT = "urn:ietf:params:oauth:grant-type:device_code"

# The Django user behind the authorization request being processed. oauthlib
# requests built for the authorization endpoint carry no user, but the OpenID
# Connect `prompt=none` checks need one.
_current_user = contextvars.ContextVar("bearer_e2e_current_user", default=None)

# Clients whose redirect URIs must match exactly, port included.
EXACT_PORT_CLIENTS = {"bearer-exact-port"}

EMAIL_SCOPES = {"email", "https://www.googleapis.com/auth/userinfo.email"}
PROFILE_SCOPES = {"profile", "https://www.googleapis.com/auth/userinfo.profile"}


def granted_scopes(user, application):
    """Scopes the user has granted the application and not revoked yet.

    A grant is alive while it has a non-expired access token or a non-revoked
    refresh token.
    """
    scopes = set()
    AccessToken = get_access_token_model()
    RefreshToken = get_refresh_token_model()
    for scope in AccessToken.objects.filter(
        user=user, application=application, expires__gt=timezone.now()
    ).values_list("scope", flat=True):
        scopes.update(scope.split())
    for scope in RefreshToken.objects.filter(
        user=user, application=application, revoked__isnull=True, access_token__isnull=False
    ).values_list("access_token__scope", flat=True):
        scopes.update((scope or "").split())
    return scopes


class S256OnlyServer(OpenIDServer):
    """OpenID Connect server that accepts only the S256 PKCE method.

    django-oauth-toolkit's COMPLIANT_BCP_RFC9700_PKCE_METHOD only rejects `plain`
    once the user has approved; this rejects it on the authorization request
    itself (and at the token endpoint).
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        s256_only = {"S256": code_challenge_method_s256}
        for grant in (
            self.auth_grant,
            getattr(self.openid_connect_auth, "proxy_target", None),
            getattr(getattr(self, "openid_connect_hybrid", None), "proxy_target", None),
        ):
            if grant is not None:
                grant._code_challenge_methods = s256_only


class BearerE2EValidator(OAuth2Validator):
    """Adds the email/profile claims and the `prompt=none` checks."""

    # Claim -> scopes that release it (the OIDC scopes and their Google aliases).
    claim_scopes = {
        "sub": None,
        "email": EMAIL_SCOPES,
        "email_verified": EMAIL_SCOPES,
        "name": PROFILE_SCOPES,
        "given_name": PROFILE_SCOPES,
        "family_name": PROFILE_SCOPES,
        "preferred_username": PROFILE_SCOPES,
    }

    def get_additional_claims(self):
        # Request-agnostic form: the claims are also listed in discovery.
        return {
            "email": lambda request: request.user.email,
            "email_verified": lambda request: True,
            "name": lambda request: request.user.get_full_name() or request.user.get_username(),
            "given_name": lambda request: request.user.first_name,
            "family_name": lambda request: request.user.last_name,
            "preferred_username": lambda request: request.user.get_username(),
        }

    def get_oidc_claims(self, token, token_handler, request):
        granted = set(request.scopes or [])
        claims = {}
        for name, value in self.get_claim_dict(request).items():
            needed = self.claim_scopes.get(name)
            if needed is None and name != "sub":
                continue
            if needed is None or granted & needed:
                claims[name] = value(request) if callable(value) else value
        return claims

    def _save_bearer_token(self, token, request, *args, **kwargs):
        if request.grant_type == DEVICE_CODE_GRANT:
            # A device code is single-use: claim it atomically so that a second
            # poll (or a concurrent one) cannot mint another token.
            DeviceGrant = get_device_grant_model()
            claimed = DeviceGrant.objects.filter(
                device_code=request.device_code, status=DeviceGrant.AUTHORIZED
            ).update(status=DeviceGrant.EXPIRED)
            if not claimed:
                raise oauth2_errors.InvalidGrantError(request=request)
        return super()._save_bearer_token(token, request, *args, **kwargs)

    def validate_redirect_uri(self, client_id, redirect_uri, request, *args, **kwargs):
        # Stock django-oauth-toolkit lets any port through for a loopback redirect URI
        # (RFC 8252 section 7.3). Some servers match the registered port exactly; the
        # clients in EXACT_PORT_CLIENTS stand in for them.
        if client_id in EXACT_PORT_CLIENTS:
            return redirect_uri in request.client.redirect_uris.split()
        return super().validate_redirect_uri(client_id, redirect_uri, request, *args, **kwargs)

    def validate_silent_login(self, request):
        user = _current_user.get()
        return bool(user is not None and user.is_authenticated)

    def validate_silent_authorization(self, request):
        user = _current_user.get()
        if user is None or not user.is_authenticated:
            return False
        application = getattr(request, "client", None)
        if application is None:
            application = get_application_model().objects.filter(client_id=request.client_id).first()
        if application is None:
            return False
        if application.skip_authorization:
            return True
        requested = request.scopes or []
        if isinstance(requested, str):
            requested = requested.split()
        return set(requested) <= granted_scopes(user, application)


class BearerAuthorizationView(AuthorizationView):
    """django-oauth-toolkit's authorization endpoint, plus:

    * `include_granted_scopes=true` (incremental authorization): the request's
      scope becomes the union of the requested scopes and those the user has
      already granted the client, so consent and the issued grant cover both;
    * `prompt=none` for a signed-in user who already granted every requested
      scope issues the code without showing the consent page (otherwise the
      client gets `consent_required` / `login_required`).

    Redirects are stock: `iss` on successful answers only, none on an error
    such as a declined consent, although discovery advertises `iss`.
    """

    def dispatch(self, request, *args, **kwargs):
        token = _current_user.set(getattr(request, "user", None))
        try:
            if request.method == "GET" and request.user.is_authenticated:
                self._include_granted_scopes(request)
            return super().dispatch(request, *args, **kwargs)
        finally:
            _current_user.reset(token)

    def _include_granted_scopes(self, request):
        if request.GET.get("include_granted_scopes", "").lower() != "true":
            return
        application = get_application_model().objects.filter(client_id=request.GET.get("client_id")).first()
        if application is None:
            return
        requested = request.GET.get("scope", "").split()
        extra = sorted(granted_scopes(request.user, application) - set(requested))
        if not extra:
            return
        query = request.GET.copy()
        query["scope"] = " ".join(requested + extra)
        request.META["QUERY_STRING"] = query.urlencode()
        request.GET = QueryDict(request.META["QUERY_STRING"])

    def get(self, request, *args, **kwargs):
        if "none" in request.GET.get("prompt", "").split():
            # Reaching here means the user is signed in; oauthlib runs
            # validate_silent_login / validate_silent_authorization and raises
            # login_required / consent_required when they fail.
            try:
                scopes, credentials = self.validate_authorization_request(request)
            except OAuthToolkitError as error:
                return self.error_response(error, application=None)
            application = get_application_model().objects.get(client_id=credentials["client_id"])
            try:
                uri, _headers, _body, _status = self.create_authorization_response(
                    request=request, scopes=" ".join(scopes), credentials=credentials, allow=True
                )
            except OAuthToolkitError as error:
                return self.error_response(error, application)
            return self.redirect(uri, application)
        return super().get(request, *args, **kwargs)


class BearerTokenView(TokenView):
    """django-oauth-toolkit's token endpoint with RFC 8628 polling fixes.

    Stock django-oauth-toolkit answers an unknown device code with a 404
    `device_not_found` and keeps answering `authorization_pending` after the
    device code has expired.
    """

    def device_flow_token_response(self, request, device_code, *args, **kwargs):
        device = get_device_grant_model().objects.filter(device_code=device_code).first()
        if device is None:
            return JsonResponse(
                {"error": "invalid_grant", "error_description": "Unknown device code."}, status=400
            )
        device.is_expired()  # flips a pending grant past its deadline to "expired"
        return super().device_flow_token_response(request, device_code, *args, **kwargs)


class _CompleteMetadataMixin:
    """Lists every endpoint django-oauth-toolkit serves in a discovery document.

    Its RFC 8414 document omits the userinfo and device authorization endpoints,
    and its OpenID Connect one omits revocation, introspection, device
    authorization and the grant types.
    """

    extra_endpoints = (
        ("authorization_endpoint", "authorize"),
        ("token_endpoint", "token"),
        ("revocation_endpoint", "revoke-token"),
        ("introspection_endpoint", "introspect"),
        ("device_authorization_endpoint", "device-authorization"),
        ("userinfo_endpoint", "user-info"),
        ("jwks_uri", "jwks-info"),
    )

    def get(self, request, *args, **kwargs):
        response = super().get(request, *args, **kwargs)
        if response.status_code != 200:
            return response
        data = json.loads(response.content)
        for key, view_name in self.extra_endpoints:
            if key not in data:
                url = self._get_endpoint_url(request, view_name)
                if url:
                    data[key] = url
        data.setdefault("grant_types_supported", list(oauth2_settings.OAUTH2_GRANT_TYPES_SUPPORTED))
        auth_methods = list(oauth2_settings.OAUTH2_TOKEN_ENDPOINT_AUTH_METHODS_SUPPORTED)
        # Public clients authenticate with their client_id only.
        if "none" not in auth_methods:
            auth_methods.append("none")
        data["token_endpoint_auth_methods_supported"] = auth_methods
        data["revocation_endpoint_auth_methods_supported"] = auth_methods
        extended = JsonResponse(data)
        for header in ("Access-Control-Allow-Origin", "Cache-Control"):
            if header in response:
                extended[header] = response[header]
        return extended


class OAuthServerMetadataView(_CompleteMetadataMixin, metadata_views.OAuthServerMetadataView):
    """RFC 8414 authorization server metadata."""


class ConnectDiscoveryInfoView(_CompleteMetadataMixin, oidc_views.ConnectDiscoveryInfoView):
    """OpenID Connect Discovery 1.0 provider metadata."""
