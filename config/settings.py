"""One settings module, driven by environment variables.

- ``DEBUG`` ("1"/"true" to enable): off unless asked for; with it every page says
  "developer mode" on screen.
- ``SECRET_KEY``: when unset, a random key is made once and kept in ``.run/secret_key`` (never
  a key that is public in the source).
- ``HTTPS`` ("1"): the site is served over HTTPS (directly or behind a proxy): secure cookies,
  HSTS, redirect to https. ``BEHIND_PROXY`` ("1"): bin/run trusts the proxy's ``X-Forwarded-For``
  and ``X-Forwarded-Proto``; the client's address and the scheme are the ones uvicorn resolved
  (``--forwarded-allow-ips``, bin/run's ``PROXY_IPS``), never a header from another peer.
- ``STATIC_ROOT``: where ``collectstatic`` puts the static files (default ``staticfiles``).
- ``DATABASE_URL``: any dj-database-url URL; default a SQLite file ``db.sqlite3`` in the project.
- ``REDIS_URL``: when set, Celery's broker and the Channels layer use Redis; otherwise Celery
  uses kombu's SQL transport on ``.celery/broker.sqlite3`` and Channels its in-memory layer
  (the embedded default).
- ``DB_POOL`` (PostgreSQL): psycopg's pool, health-checked, default on (off in the pytest
  process); ``DB_POOL_MAX`` its size (default 10).
- ``ALLOWED_HOSTS``: comma-separated; default ``127.0.0.1,localhost`` (plus testserver).
- ``TABLETOP_RNG_SEED``: an integer makes table randomness reproducible (tests only).
- ``SERVE_STATIC``: the ASGI server serves /static/ itself (default on).
- ``CHANNEL_LAYER``: with Redis, ``pubsub`` (default: Redis pub/sub) or ``core`` (channels_redis's
  list-based layer).
- ``TABLETOP_PUBLISH_TIMEOUT``: seconds a table update may wait for the channel layer (0.5).
- ``TABLETOP_PUBLISH_DIRECT``: with Redis pub/sub, a command's thread writes its table's
  ``PUBLISH`` itself on a connection without replies (``tabletop.publisher``; default on, 0 off).
- ``TABLETOP_SNAPSHOT_CACHE``: how many tables' last committed projection each process keeps
  to decide their next command on without reading it (``tabletop.services.SNAPSHOTS``; 256,
  0 turns it off).
"""

import os
import secrets
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


DEBUG = env_bool("DEBUG", default=False)


def _secret_key() -> str:
    """``SECRET_KEY`` from the environment, else one made once for this checkout and kept in
    ``.run/secret_key`` (git-ignored), so no key anyone can read in the source signs anything."""
    key = os.environ.get("SECRET_KEY", "")
    if key:
        return key
    path = BASE_DIR / ".run" / "secret_key"
    try:
        key = path.read_text().strip()
    except OSError:
        key = ""
    if not key:
        path.parent.mkdir(exist_ok=True)
        key = secrets.token_urlsafe(50)
        try:
            with open(path, "x") as f:  # two processes starting at once: the first one wins
                f.write(key + "\n")
        except FileExistsError:
            key = path.read_text().strip() or key
        os.chmod(path, 0o600)
    if len(key) < 32:
        raise ImproperlyConfigured("SECRET_KEY is too short (at least 32 characters).")
    return key


SECRET_KEY = _secret_key()


def private_file(path: Path) -> None:
    """Make ``path`` (a SQLite file of the embedded default) readable by its owner only, as the
    key beside it: created empty with mode 0600 when absent (SQLite then keeps the mode, and
    gives its journal files the same), chmod 0600 when it exists. Never raises."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
        os.chmod(path, 0o600)
    except OSError:
        pass

ALLOWED_HOSTS = [
    h.strip()
    for h in os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver").split(",")
    if h.strip()
]
CSRF_TRUSTED_ORIGINS = [
    o.strip() for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()
]

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "channels",
    "axes",
    "health_check",  # its /health/ page template (ops/urls.py)
    "config",  # project-level commands only (load_demo_content composes the apps' loaders)
    "frontend",
    "tabletop",
    "tabletop.personimo",
    "tabletop.realm",
    "tabletop.personal_demons",
    "tabletop.espionage",
    "guilds",
    "missions",
    "ops",
]

MIDDLEWARE = [
    # First: the request's DB connection goes back to the pool before the response is sent
    # (config/dbpool.py; else each request held one while the event loop sent its body).
    "config.dbpool.ReleaseConnectionMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "tabletop.middleware.PrivateByDefaultMiddleware",
    "tabletop.middleware.MalformedBodyMiddleware",  # before CSRF reads a broken multipart body
    # A phone's tap (the API's hot path) is answered here, without the rest (tabletop.middleware).
    "tabletop.middleware.SeatTapMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "tabletop.middleware.TabletopErrorMiddleware",
    "axes.middleware.AxesMiddleware",  # last: failed logins (django-axes)
]

# Logins (the page and the admin): django-axes locks a username at one address out for
# AXES_COOLOFF_TIME after AXES_FAILURE_LIMIT failures; the page says how long to wait.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # first: force_login and sessions use its get_user
    "tabletop.gate.LoginFailureGate",  # failures per address whatever the names (any form)
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", 5))
AXES_COOLOFF_TIME = __import__("datetime").timedelta(
    seconds=int(os.environ.get("AXES_COOLOFF_SECONDS", 300))
)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "tabletop.gate.login_locked_out"
AXES_VERBOSE = False
# The same address as every other throttle: the one the server resolved (tabletop.gate).
AXES_CLIENT_IP_CALLABLE = "tabletop.gate.client_address"

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "tabletop.middleware.developer_mode",
                "tabletop.middleware.name_limit",
            ],
        },
    },
    {
        # the live region of a game that has one in Jinja2 (tabletop/jinja.py): the same
        # bytes as its Django templates, two to three times cheaper to render
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "NAME": "jinja2",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {"environment": "config.jinja_env.environment", "autoescape": False,
                    "auto_reload": False},
    },
]

WSGI_APPLICATION = None
ASGI_APPLICATION = "config.asgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=0,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    if str(DATABASES["default"]["NAME"]) not in ("", ":memory:"):
        private_file(Path(DATABASES["default"]["NAME"]))
    # A file (not :memory:) so that a browser-test server process shares the test database.
    # One file per test process, so parallel runs never share (or delete) each other's database.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / f".test-db-{os.getpid()}.sqlite3")}
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
    DATABASES["default"]["OPTIONS"]["transaction_mode"] = "IMMEDIATE"

if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Lets psycopg prepare statements; only the command path's server-binding cursors ask to
    # (tabletop.prepared). Django's own cursors bind on the client and never prepare.
    DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = 5

# The pool is the default for servers and workers; the test process itself keeps one
# connection per request (faster with pytest-django's per-test databases; the recovery drills
# run real servers, with the pool).
_POOL_DEFAULT = "pytest" not in sys.modules
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool(
    "DB_POOL", _POOL_DEFAULT
):
    # Under ASGI each request runs in a thread of its own at a time (lent from a set of idle
    # ones: config/request_threads.py), so persistent connections would multiply;
    # psycopg's pool shares a few instead: bounded (DB_POOL_MAX, default 10, so a burst queues
    # for up to 10 s instead of hitting "too many clients"), and every connection is checked
    # when handed out (a server restart leaves dead sockets in the pool: each would be a 500),
    # by its socket, without a round trip unless the server wrote to it (config/dbpool.py).
    # DB_POOL=0 turns it off (one connection per request), DB_POOL=1 forces it on.
    from config.dbpool import check_pooled

    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 2,
        "max_size": int(os.environ.get("DB_POOL_MAX", "10")),
        "timeout": 10.0,
        "check": check_pooled,
        "max_idle": 300.0,
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
SERVE_STATIC = env_bool("SERVE_STATIC", default=True)
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
# Static files are collected (``bin/run`` and the test session run collectstatic) under
# content-hashed names with gzip copies next to them: a
# changed file gets a new address, so the old one may be cached for good. config/asgi.py
# serves them (ServeStatic).
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "servestatic.storage.CompressedManifestStaticFilesStorage"},
}
# Pages are compressed too. Django masks the CSRF token per response and pads the gzip
# header at random (BREACH); Cache-Control and the other headers are untouched.
MIDDLEWARE.insert(MIDDLEWARE.index("django.middleware.security.SecurityMiddleware") + 1,
                  "django.middleware.gzip.GZipMiddleware")

# Table commands are small: anything bigger is malformed (docs/operations.md "Serving it safely").
DATA_UPLOAD_MAX_MEMORY_SIZE = 64 * 1024
TABLETOP_MAX_COMMAND_BYTES = 16 * 1024
TABLETOP_RNG_SEED = os.environ.get("TABLETOP_RNG_SEED")
TABLETOP_PUBLISH_TIMEOUT = float(os.environ.get("TABLETOP_PUBLISH_TIMEOUT", "0.5"))
TABLETOP_PUBLISH_DIRECT = os.environ.get("TABLETOP_PUBLISH_DIRECT", "1") not in ("0", "", "false")
TABLETOP_SNAPSHOT_CACHE = int(os.environ.get("TABLETOP_SNAPSHOT_CACHE", "256"))
# The garbage collector's thresholds in every process (tabletop.apps; docs/performance.md): a
# command allocates thousands of objects (the state's copy, the views, the regions), and at
# Python's default (700, 10, 10) the collections that follow, walking every object the
# process keeps (its table states, views, regions, cards), cost about a fifth of a DemLoc
# command's CPU. "" keeps Python's default.
TABLETOP_GC_THRESHOLDS = tuple(
    int(n) for n in os.environ.get("TABLETOP_GC_THRESHOLDS", "20000,20,20").split(",") if n)

REDIS_URL = os.environ.get("REDIS_URL", "")

# Parallel test processes (pytest-xdist sets PYTEST_XDIST_WORKER to gw0, gw1, ... in each, and
# the servers and workers they start inherit it) share one Redis: each takes a database of its
# own (the cache, Celery's queues) and a channel prefix of its own (pub/sub channels are not
# per database), so one process's tables never hear another's.
TEST_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
if REDIS_URL and TEST_WORKER:
    _parts = urlsplit(REDIS_URL)
    _db = int(_parts.path.strip("/") or 0) + 1 + int(TEST_WORKER.removeprefix("gw") or 0)
    REDIS_URL = urlunsplit(_parts._replace(path=f"/{_db}"))

if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            # redis-py 8 reads with a 5 s socket timeout by default, which kills the layer's
            # blocking receive (its BRPOP waits longer than that): no client-side read timeout.
            # group_expiry (this list-based layer): a member stays in a group at most this
            # long unless it re-joins (the fan-out rooms renew theirs), so the channels of a
            # killed server leave their groups within minutes, not a day (the default). The
            # pub/sub layer below stores no groups: a dead server's subscriptions end with its
            # Redis connection.
            "CONFIG": {
                "hosts": [{"address": REDIS_URL, "socket_timeout": None}],
                "group_expiry": 300,
                "prefix": f"asgi{TEST_WORKER}",
            },
        }
    }
    if os.environ.get("CHANNEL_LAYER", "pubsub") == "pubsub":
        # Redis pub/sub: a group_send is one PUBLISH and each process reads its messages in
        # bulk from one subscription; the list-based layer above costs a BZPOPMIN round trip
        # per message, which queued table updates for seconds under load (README,
        # Performance). Nothing is stored: a phone that misses a frame catches up by version.
        CHANNEL_LAYERS["default"]["BACKEND"] = "channels_redis.pubsub.RedisPubSubChannelLayer"
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# The cache (e.g. the city timers' "task already sent for this slot" marks) is shared by all
# processes through Redis when there is one; otherwise each process has its own.
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            # A hung Redis costs a second, never a request stuck for minutes.
            "OPTIONS": {"socket_connect_timeout": 1.0, "socket_timeout": 1.0},
        }
    }

# Celery: Redis when REDIS_URL is set, otherwise kombu's SQL transport on a SQLite file (the
# embedded default). Not the filesystem transport: it renames a message file into place while
# another process may read it empty (celery/kombu#1551, a worker crash seen here); a SQL
# message is one row written in one transaction, so a reader sees all of it or nothing.
CELERY_QUEUE_DIR = Path(os.environ.get("CELERY_QUEUE_DIR_PATH", BASE_DIR / f".celery{TEST_WORKER}"))
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    # No ETA message is held longer than the city's ETA horizon (2 min), so none is redelivered
    # while its worker lives; a dead worker's messages come back after 5 min, not an hour (and
    # the worker clock below settles their timers within a second of the deadline anyway).
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "visibility_timeout": 300,
        # A hung Redis holds a request that sends a task (an expedition's, after commit) for
        # a few seconds at most: 3 s per try, one retry (below). Above kombu's 1 s BRPOP.
        "socket_timeout": 3.0,
        "socket_connect_timeout": 2.0,
    }
else:
    CELERY_BROKER_URL = f"sqla+sqlite:///{CELERY_QUEUE_DIR / 'broker.sqlite3'}"
    private_file(CELERY_QUEUE_DIR / "broker.sqlite3")
    # (Its options go to SQLAlchemy's create_engine: the poll interval stays kombu's 1 s.)
    CELERY_BROKER_TRANSPORT_OPTIONS = {"connect_args": {"timeout": 20}}
# Sending a task from a request never waits long for a missing broker: the rows it is about
# are in the database and the worker clock settles them anyway.
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2}
CELERY_BROKER_CONNECTION_TIMEOUT = 2.0
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None  # a worker waits for its broker, however long
CELERY_WORKER_CONSUMER = "config.celery:Consumer"  # reconnects within 2 s (config/celery.py)
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TIMEZONE = TIME_ZONE
# The worker clock (config/celery.py WorkerClock): every worker sends these tasks itself at
# these intervals, so there is no beat process whose death strands timers. Each is safe to run
# once per worker per tick: the sweeper settles with SKIP LOCKED and settled_at; the random
# events take a mark per period. ``on_connect``: sent each time a worker (re)connects to its
# broker (a restarted worker or broker: ETA messages may be lost or invisible).
WORKER_CLOCK = {
    "heartbeat_seconds": 10.0,  # ops.WorkerBeat: the operations page and /health/
    "heartbeat": "ops.models.record_worker_beat",  # (name, started_at), from each worker
    "every": [
        {"task": "guilds.tasks.sweep_city_timers", "seconds": 1.0},
        {"task": "guilds.tasks.post_city_events", "seconds": 30 * 60.0, "period_kwarg": "period"},
    ],
    "on_connect": [{"task": "guilds.tasks.sweep_city_timers", "kwargs": {"rearm": True}}],
}

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # JSON nested deeper than tabletop.jsonsafe.MAX_DEPTH is a 400, not a RecursionError.
    "DEFAULT_PARSER_CLASSES": [
        "tabletop.jsonsafe.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "EXCEPTION_HANDLER": "tabletop.api.exception_handler",
    # Throttles count the address the server itself resolved (REMOTE_ADDR: uvicorn believes
    # X-Forwarded-For only from its --forwarded-allow-ips, the configured proxy; bin/run),
    # never a header that any peer may write (tabletop.gate.client_address).
    "NUM_PROXIES": 0,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "DemLoc companion API",
    "DESCRIPTION": "Guilds between sessions, live tables at the table. Errors: 400 "
    '{"code", "detail"} for a broken rule or bad input, 404 for what you cannot see, '
    "409 for a stale expected_version.",
    "VERSION": "0.1.0",
    # The docs page works without internet (a table may have none): assets from our static files.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# The table gate's throttles (tabletop.gate; DRF throttling over the cache): wrong join codes,
# seats taken and tables opened per client address.
TABLETOP_CODE_GUESS_RATE = os.environ.get("TABLETOP_CODE_GUESS_RATE", "30/min")
TABLETOP_SEAT_JOIN_RATE = os.environ.get("TABLETOP_SEAT_JOIN_RATE", "20/min")
TABLETOP_TABLE_CREATE_RATE = os.environ.get("TABLETOP_TABLE_CREATE_RATE", "20/min")
# Accounts: sign-ups per address, and failed logins per address whatever the names tried (the
# per-name lock is django-axes'; this one stops one address trying names in turn).
ACCOUNTS_SIGNUP_RATE = os.environ.get("ACCOUNTS_SIGNUP_RATE", "10/hour")
ACCOUNTS_LOGIN_FAILURE_RATE = os.environ.get("ACCOUNTS_LOGIN_FAILURE_RATE", "30/hour")

# Fail closed (docs/operations.md "Serving it safely").
# Content-Security-Policy (Django's own): scripts only from our static files (the pages have no
# inline script or handler), styles from them plus style="" attributes (the templates' layout
# touches and htmx's indicator style), pictures also as data: URLs (QR codes, icons),
# connections (fetch, the table's websocket) to this site only, no plugins, no framing.
from django.utils.csp import CSP  # noqa: E402

SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF, CSP.UNSAFE_INLINE],
    "img-src": [CSP.SELF, "data:"],
    "font-src": [CSP.SELF],
    "connect-src": [CSP.SELF],
    "manifest-src": [CSP.SELF],
    "worker-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"  # move links (/rejoin/<secret>/) never leave the site
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
HTTPS = env_bool("HTTPS", default=False)
# The scheme (https or not: secure cookies, the redirect to https, the websocket's Origin check)
# is the one uvicorn resolved: it takes X-Forwarded-Proto only from the peers of its
# --forwarded-allow-ips (bin/run: PROXY_IPS with BEHIND_PROXY=1, else nobody) and Django reads
# it from the ASGI scope. Never SECURE_PROXY_SSL_HEADER: Django would believe the header from
# any peer that reaches the server (docs/operations.md, "Serving it safely").
SECURE_PROXY_SSL_HEADER = None
if env_bool("BEHIND_PROXY", default=False):
    USE_X_FORWARDED_HOST = env_bool("USE_X_FORWARDED_HOST", default=False)
if HTTPS:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", 30 * 24 * 3600))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=False)
    SECURE_HSTS_PRELOAD = False

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # No seat's move link in the log (a refused /rejoin/<token>/ names its path): ops/redact.py.
    "filters": {
        "redact": {"()": "ops.redact.RedactSecrets"},
        "one_line": {"()": "ops.redact.OneLine"},
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["redact"]},
        # The last hour's errors of each process, for the operations page (ops/live.py).
        "recent": {"class": "ops.live.RecentErrors", "filters": ["redact"]},
    },
    "root": {"handlers": ["console", "recent"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    # A wrong Host header is a 400: one line at WARNING, no traceback (ops.redact.OneLine; the
    # filter runs before the record reaches the root's handlers).
    "loggers": {"django.security.DisallowedHost": {"filters": ["one_line"]}},
}
