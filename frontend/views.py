"""The shell's pages: home (the user's tables), sign up, PWA manifest."""

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import UserCreationForm
from django.contrib.staticfiles import finders
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.views.decorators.http import require_GET, require_http_methods

from tabletop.gate import LoginFailureThrottle, SignUpThrottle, throttled_response
from tabletop.live import table_status_text
from tabletop.models import Seat
from tabletop.registry import all_rulesets
from tabletop.seats import cookie_seats


@require_GET
def home(request):
    """The user's tables (by account, and the guest seats this phone holds), and new/join."""
    seats = []
    if request.user.is_authenticated:
        seats = list(Seat.objects.filter(user=request.user).select_related("table")[:50])
    known = {s.pk for s in seats}
    for seat in cookie_seats(request.COOKIES):
        if seat.pk not in known:
            seats.append(seat)
            known.add(seat.pk)
    seats.sort(key=lambda s: s.table.updated_at, reverse=True)
    # Each table's status in the words of its page's badge (one function for both).
    rows = [{"seat": s, "status": table_status_text(s.table)} for s in seats]
    return render(request, "frontend/home.html", {"rows": rows, "games": all_rulesets()})


@require_http_methods(["GET", "POST"])
def signup(request):
    """Create an account and log in. Sign-ups are throttled per client address
    (``SignUpThrottle``: 429 "try again in N s")."""
    form = UserCreationForm(request.POST or None)
    if request.method == "POST":
        limiter = SignUpThrottle()
        if not limiter.allow_request(request, None):
            return throttled_response(request, limiter.refusal())
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        # A new account's next step is its Guild (found by a new user: the home page said
        # nothing of it): the founding form, which says what to type.
        messages.success(request, "Your account is ready. Next: found your Guild.")
        return redirect("guilds:home")
    return render(request, "registration/signup.html", {"form": form})


class LoginView(auth_views.LoginView):
    """Django's login page (django-axes locks one name at one address after a few failures),
    and failures from one address counted whatever the names (``LoginFailureThrottle``): past
    the rate every login from there answers 429 "try again in N s" (the admin's login refuses
    them too: ``tabletop.gate.LoginFailureGate``)."""

    def post(self, request, *args, **kwargs):
        failures = LoginFailureThrottle()  # counted by tabletop.gate.count_login_failure
        if failures.over(request):
            return throttled_response(request, failures.refusal())
        return super().post(request, *args, **kwargs)


def logout(request):
    """Django's logout, answered with ``Clear-Site-Data`` so the browser drops this site's
    caches and storage (the service worker's included) on a shared phone."""
    response = auth_views.LogoutView.as_view()(request)
    response["Clear-Site-Data"] = '"cache", "storage"'
    return response


@require_GET
def service_worker(request):
    """The service worker, served from the root so that its scope is the whole site."""
    path = finders.find("frontend/sw.js")
    with open(path, encoding="utf-8") as f:
        response = HttpResponse(f.read(), content_type="application/javascript")
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def favicon(request):
    """``/favicon.ico``, asked for by pages that link no icon (the admin's): our SVG icon."""
    return redirect(static("frontend/icon.svg"))


@require_GET
def manifest(request):
    """The PWA manifest: installable, standalone, dark, any orientation (a phone on its side
    at the table, a tablet), with a stable ``id`` and maskable icons whose rings stay inside
    the safe zone (``bin/make-icons.py``)."""
    return JsonResponse(
        {
            "id": "/",
            "name": "DemLoc companion",
            "short_name": "DemLoc",
            "start_url": "/",
            "scope": "/",
            "display": "standalone",
            "background_color": "#14161b",
            "theme_color": "#14161b",
            "icons": [
                {"src": static("frontend/icon-192.png"), "sizes": "192x192", "type": "image/png"},
                {"src": static("frontend/icon-512.png"), "sizes": "512x512", "type": "image/png"},
                {"src": static("frontend/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
                {
                    "src": static("frontend/icon-maskable-192.png"),
                    "sizes": "192x192",
                    "type": "image/png",
                    "purpose": "maskable",
                },
                {
                    "src": static("frontend/icon-maskable-512.png"),
                    "sizes": "512x512",
                    "type": "image/png",
                    "purpose": "maskable",
                },
            ],
        },
        content_type="application/manifest+json",
    )
