"""A Google-Drive-like protected resource and a few test helpers."""

from django.http import HttpResponse, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods
from oauth2_provider.oauth2_backends import get_oauthlib_core

from . import middleware


DRIVE_SCOPES = (
    "drive.readonly",
    "drive.file",
    "https://www.googleapis.com/auth/drive.readonly",
    "https://www.googleapis.com/auth/drive.file",
)
REALM = 'Bearer realm="drive"'


def _quote(value):
    return str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\r", "").replace("\n", "")


def _google_error(status, message, status_name, challenge):
    response = JsonResponse({"error": {"code": status, "message": message, "status": status_name}}, status=status)
    response["WWW-Authenticate"] = challenge
    return response


def _unauthenticated(description):
    return _google_error(
        401,
        "Request had invalid authentication credentials.",
        "UNAUTHENTICATED",
        f'{REALM}, error="invalid_token", error_description="{_quote(description)}"',
    )


@require_http_methods(["GET"])
def drive_about(request):
    """GET /drive/v3/about?fields=storageQuota,user"""
    if "HTTP_AUTHORIZATION" not in request.META:
        # RFC 6750 section 3.1: no error attribute when no credentials were sent.
        return _google_error(
            401, "Request is missing required authentication credential.", "UNAUTHENTICATED", REALM
        )
    if not request.META["HTTP_AUTHORIZATION"].lower().startswith("bearer "):
        return _unauthenticated("The Authorization header is not a Bearer token.")

    valid, oauth_request = get_oauthlib_core().verify_request(request, scopes=[])
    if not valid:
        error = getattr(oauth_request, "oauth2_error", None) or {}
        return _unauthenticated(error.get("error_description", "The access token is invalid."))

    access_token = oauth_request.access_token
    if not set(access_token.scope.split()) & set(DRIVE_SCOPES):
        return _google_error(
            403,
            "Request had insufficient authentication scopes.",
            "PERMISSION_DENIED",
            f'{REALM}, error="insufficient_scope", scope="https://www.googleapis.com/auth/drive.readonly"',
        )

    user = access_token.user
    about = {
        "kind": "drive#about",
        "user": {
            "kind": "drive#user",
            "displayName": user.get_full_name() or user.get_username(),
            "me": True,
            "permissionId": str(user.pk),
            "emailAddress": user.email,
        },
        "storageQuota": {
            "limit": "16106127360",
            "usage": "1048576",
            "usageInDrive": "524288",
            "usageInDriveTrash": "0",
        },
    }
    fields = request.GET.get("fields", "").strip()
    if fields and fields != "*":
        wanted = {field.strip().split("(")[0].split("/")[0] for field in fields.split(",")}
        about = {key: value for key, value in about.items() if key == "kind" or key in wanted}
    return JsonResponse(about)


@csrf_exempt
@require_http_methods(["GET", "DELETE"])
def counters(request):
    """GET: token-endpoint requests by grant_type since start (or the last reset). DELETE: reset."""
    if request.method == "DELETE":
        middleware.reset()
    return JsonResponse(middleware.snapshot())


def index(request):
    who = request.user.get_username() if request.user.is_authenticated else "anonymous"
    return HttpResponse(f"Bearer end-to-end test authorization server. Signed in as: {who}\n", content_type="text/plain")


@csrf_exempt
@require_http_methods(["POST"])
def expire_access_token(request):
    """Test helper: makes one access token expire now, leaving its refresh token valid.

    Stands in for a server that invalidates an access token before its announced expiry (RFC 7009
    revocation of an access token also revokes its refresh token in django-oauth-toolkit).
    """
    import hashlib

    from django.utils import timezone
    from oauth2_provider.models import get_access_token_model

    token = request.POST.get("token", "")
    checksum = hashlib.sha256(token.encode("utf-8")).hexdigest()
    updated = get_access_token_model().objects.filter(token_checksum=checksum).update(
        expires=timezone.now() - timezone.timedelta(seconds=1)
    )
    return JsonResponse({"expired": updated})
