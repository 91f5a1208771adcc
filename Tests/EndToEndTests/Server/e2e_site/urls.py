from django.contrib.auth import views as auth_views
from django.urls import include, path, re_path

from bearer_e2e import views
from bearer_e2e.oauth import (
    BearerAuthorizationView,
    BearerTokenView,
    ConnectDiscoveryInfoView,
    OAuthServerMetadataView,
)


urlpatterns = [
    path("", views.index, name="index"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    # These take precedence over the same paths in django-oauth-toolkit's urls.
    path("o/authorize/", BearerAuthorizationView.as_view(), name="authorize"),
    path("o/token/", BearerTokenView.as_view(), name="token"),
    re_path(r"^o/\.well-known/openid-configuration/?$", ConnectDiscoveryInfoView.as_view(), name="oidc-discovery"),
    path(".well-known/openid-configuration/o", ConnectDiscoveryInfoView.as_view(), name="oidc-discovery-root"),
    path("o/.well-known/oauth-authorization-server", OAuthServerMetadataView.as_view(), name="oauth-metadata"),
    # RFC 8414 path-insertion form for the issuer http://127.0.0.1:PORT/o
    path(".well-known/oauth-authorization-server/o", OAuthServerMetadataView.as_view(), name="oauth-metadata-root"),
    path("o/", include("oauth2_provider.urls", namespace="oauth2_provider")),
    path("drive/v3/about", views.drive_about, name="drive-about"),
    path("counters", views.counters, name="counters"),
    path("test/expire-access-token", views.expire_access_token, name="expire-access-token"),
]
