"""Counts token-endpoint requests so tests can assert how many refreshes happened."""

import base64
import threading
from collections import Counter
from urllib.parse import unquote

from django.urls import reverse


_lock = threading.Lock()
_by_grant_type = Counter()
_by_client = {}


def snapshot():
    with _lock:
        return {
            "token_requests": dict(_by_grant_type),
            "token_requests_total": sum(_by_grant_type.values()),
            "token_requests_by_client": {client: dict(counts) for client, counts in _by_client.items()},
        }


def reset():
    with _lock:
        _by_grant_type.clear()
        _by_client.clear()


def _client_id(request):
    header = request.META.get("HTTP_AUTHORIZATION", "")
    if header[:6].lower() == "basic ":
        try:
            decoded = base64.b64decode(header[6:].strip()).decode("utf-8")
            return unquote(decoded.split(":", 1)[0])
        except (ValueError, UnicodeDecodeError):
            return "(invalid)"
    return request.POST.get("client_id", "(none)")


class TokenRequestCounterMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        self.token_path = None

    def __call__(self, request):
        if self.token_path is None:
            self.token_path = reverse("oauth2_provider:token")
        if request.method == "POST" and request.path == self.token_path:
            grant_type = request.POST.get("grant_type", "(none)")
            client_id = _client_id(request)
            with _lock:
                _by_grant_type[grant_type] += 1
                _by_client.setdefault(client_id, Counter())[grant_type] += 1
        return self.get_response(request)
