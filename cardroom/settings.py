"""Django settings for Cardroom.

Everything that differs between a laptop, CI and a server comes from environment
variables read through ``cardroom.env``; there is one settings module and no
per-environment branches, so what CI tests is what runs.
"""

from __future__ import annotations

import warnings
from datetime import timedelta
from pathlib import Path
from typing import Any

from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from cardroom.env import (
    env_bool,
    env_database,
    env_header,
    env_int,
    env_list,
    env_redis_url,
    env_redis_urls,
    env_secret_key,
    env_str,
    env_url_path,
)

BASE_DIR = Path(__file__).resolve().parent.parent

# Off unless asked for: with DEBUG on, error pages show settings and code, and a
# 404 lists every URL. `make run` keeps it off too, as a server does; the test
# run reads the settings with it on (pytest-env) and runs each test with it off.
DEBUG = env_bool("DEBUG", default=False)

# Django's signing key: SECRET_KEY, else the .secret_key file that `make run`
# makes in the project root, so every manage.py command signs as the site does
# (bots log in with sessions the server checks). Without either, a fixed key
# while DEBUG is on; otherwise none. Django reads the key only when something
# is signed, so commands that sign nothing (games, replay_phh, audit_chips)
# still run on a fresh clone, while the web servers refuse to start without one
# (cardroom.env.require_secret_key, in cardroom/asgi.py and cardroom/wsgi.py).
_DEV_SECRET_KEY = "django-insecure-cardroom-local-development-only"
SECRET_KEY = env_secret_key(
    "SECRET_KEY", BASE_DIR / ".secret_key", default=_DEV_SECRET_KEY if DEBUG else ""
)

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

# HTTPS, through a proxy in front that terminates TLS. With HTTPS on (the
# default once DEBUG is off) plain HTTP is redirected to HTTPS, cookies go over
# HTTPS only, and HSTS tells browsers to use nothing else for a year. Each of
# these has its own variable; HTTPS=false turns them all off, for a site served
# over plain HTTP with DEBUG off.
HTTPS = env_bool("HTTPS", default=not DEBUG)
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=HTTPS)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", default=HTTPS)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", default=HTTPS)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", default=365 * 24 * 3600 if HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
# Asks browsers to build HTTPS-only into their list for the domain: hard to undo,
# so only on request. Without it `check --deploy` warns (security.W021) about
# exactly that, so the warning is silenced until it is asked for.
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", default=False)
SILENCED_SYSTEM_CHECKS = [] if SECURE_HSTS_PRELOAD else ["security.W021"]
# The header, and its value, by which the proxy says a request reached it over
# HTTPS, such as "X-Forwarded-Proto: https". Without it behind a TLS proxy,
# every request looks like plain HTTP and the redirect to HTTPS never ends. Set
# it only if the proxy sets or removes that header on every request.
SECURE_PROXY_SSL_HEADER = env_header("SECURE_PROXY_SSL_HEADER")

# Where the operators' admin and reports are; a path nobody guesses sees fewer
# password guesses.
ADMIN_URL = env_url_path("ADMIN_URL", default="admin/")

# CI and servers set this so that a missing DATABASE_URL or REDIS_URL is an error
# instead of a quiet fall-back to SQLite or to no Redis at all.
REQUIRE_SERVICES = env_bool("REQUIRE_SERVICES", default=False)

# A SQLite file next to manage.py, so trying Cardroom needs no database server.
_DEFAULT_DATABASE_URL = f"sqlite:///{BASE_DIR / 'db.sqlite3'}"
# Seconds a database connection is kept for reuse (0: a new one per request or
# task). Daphne runs database work in a small pool of threads, each keeping its
# own connection, so a move doesn't pay for a new PostgreSQL backend process:
# the load benchmark measured that at more CPU than the move itself. Health
# checks replace a connection the server has dropped instead of failing on it
# (those threads check one at most every few seconds: tables.consumers.base).
DATABASE_CONN_MAX_AGE = env_int("DATABASE_CONN_MAX_AGE", default=300)
# PostgreSQL plans each statement sent with its values written in, every time.
# Sent apart from their values instead, the statements a move repeats
# (compiled once, tables.compiled) are prepared on each connection after
# DATABASE_PREPARE_AFTER runs and only executed from then on: the load
# benchmark measured PostgreSQL's CPU per move at half. Set 0 behind a pooler
# that shares server connections between transactions (PgBouncer's
# transaction mode), where a prepared statement may not be there next time.
DATABASE_PREPARE_AFTER = env_int("DATABASE_PREPARE_AFTER", default=5)
# What PostgreSQL's planner takes a page read out of order to cost, against 1
# for one read in order, on this project's connections. The server's default,
# 4, is for disks that seek; a cardroom's rows are in memory or on SSD. At 4
# the planner read a table's seats with their players by walking the users'
# key index from its start (or the whole users table) rather than looking up
# the six players, so a move's reads grew with the number of accounts: at
# 1,800 the seats' read took 0.46 ms against 0.12 (bench/README.md, "A
# move's reads that grew with the players"). "server" leaves the server's
# setting (as behind a pooler that refuses connection options); so does an
# `options` in DATABASE_URL's query.
DATABASE_RANDOM_PAGE_COST = env_str("DATABASE_RANDOM_PAGE_COST", default="1.1")


def _database(name: str, url: str) -> dict[str, Any]:
    database = env_database(url, name=name)
    database["CONN_MAX_AGE"] = DATABASE_CONN_MAX_AGE
    database["CONN_HEALTH_CHECKS"] = True
    if database["ENGINE"] != "django.db.backends.postgresql":
        return database
    options = database.setdefault("OPTIONS", {})
    if DATABASE_PREPARE_AFTER > 0:
        options.update(server_side_binding=True, prepare_threshold=DATABASE_PREPARE_AFTER)
    if DATABASE_RANDOM_PAGE_COST != "server" and "options" not in options:
        options["options"] = f"-c random_page_cost={_page_cost(DATABASE_RANDOM_PAGE_COST)}"
    return database


def _page_cost(value: str) -> float:
    try:
        cost = float(value)
    except ValueError:
        cost = -1.0
    if not 0 < cost < 1000:  # also refuses nan and inf
        raise ImproperlyConfigured(
            f"DATABASE_RANDOM_PAGE_COST must be a number above 0, or server, not {value!r}."
        )
    return cost


DATABASES = {
    "default": _database(
        "DATABASE_URL",
        env_str("DATABASE_URL", default=None if REQUIRE_SERVICES else _DEFAULT_DATABASE_URL),
    )
}
# Read replicas of DATABASE_URL (comma-separated URLs), for the pages that
# only look back: the hand history and the reports (cardroom.replicas). Each
# becomes the alias replica-1, replica-2, ...; tests read the primary's test
# database through them.
READ_REPLICAS: list[str] = []
for _number, _url in enumerate(env_list("DATABASE_REPLICA_URLS"), start=1):
    _replica = _database("DATABASE_REPLICA_URLS", _url)
    if _replica["ENGINE"] != DATABASES["default"]["ENGINE"] or "sqlite" in _replica["ENGINE"]:
        raise ImproperlyConfigured(
            "DATABASE_REPLICA_URLS lists PostgreSQL replicas of a PostgreSQL DATABASE_URL."
        )
    READ_REPLICAS.append(f"replica-{_number}")
    DATABASES[f"replica-{_number}"] = {**_replica, "TEST": {"MIRROR": "default"}}
DATABASE_ROUTERS = ["cardroom.replicas.ReplicaRouter"]
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# One Redis carries the channel layer (messages between Daphne processes) and
# Celery's queue and results. Empty means none is configured: `make run` then
# starts an embedded Redis and hands its URL to the processes it starts, and
# commands that need no Redis (migrate, the unit tests) run without one.
# Settings never start servers themselves.
REDIS_URL = env_redis_url("REDIS_URL", default=None if REQUIRE_SERVICES else "")

INSTALLED_APPS = [
    # First, so that its `runserver` (ASGI, websockets included) replaces Django's.
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    # intcomma: chip counts are written 10,000 on every page, as the table's script does.
    "django.contrib.humanize",
    "channels",
    # Checks the Content-Security-Policy settings (the header is its middleware's).
    "csp",
    # Counts failed logins and refuses more (AxesStandaloneBackend, AxesMiddleware).
    "axes",
    "accounts",
    "tables",
]

# A custom user model from day one: players carry a display name and a chip balance.
AUTH_USER_MODEL = "accounts.User"

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Static files, answered before the rest of the stack (after the HTTPS redirect).
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: it turns a refused login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "cardroom.urls"
WSGI_APPLICATION = "cardroom.wsgi.application"
ASGI_APPLICATION = "cardroom.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# Axes' backend only refuses: while an account or an address is locked out it
# stops authenticate() before the password is checked. ModelBackend checks it.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

# Warnings and errors go to standard error, a 500's traceback included, with
# DEBUG on or off: Django's own default prints nothing once DEBUG is off.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "{asctime} {levelname} {name}: {message}", "style": "{"}},
    "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["stderr"], "level": "WARNING"},
    # Instead of Django's default handlers, which print only while DEBUG is on;
    # at INFO, as they were, for runserver's line per request under `make run`.
    "loggers": {"django": {"handlers": ["stderr"], "level": "INFO", "propagate": False}},
}

# Reverse proxies in front of Daphne that add the address they were reached
# from to X-Forwarded-For (accounts.addresses). 0: visitors connect directly.
TRUSTED_PROXIES = env_int("TRUSTED_PROXIES", default=0)

# Logins, the admin's included: after LOGIN_FAILURE_LIMIT wrong passwords for
# one account, from anywhere, that account is refused, even with the right
# password, until LOGIN_LOCKOUT_MINUTES have passed since its last failed try.
# An address is refused the same way only after LOGIN_ADDRESS_FAILURE_LIMIT
# wrong passwords for any accounts: friends behind one home router share an
# address, and one of them forgetting a password must not lock out the rest
# (accounts.lockout). A success doesn't clear the count: clearing it for the
# address would let one player's own logins hide guesses at someone else's.
LOGIN_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", default=5, minimum=1)
LOGIN_ADDRESS_FAILURE_LIMIT = env_int("LOGIN_ADDRESS_FAILURE_LIMIT", default=50, minimum=1)
LOGIN_LOCKOUT_MINUTES = env_int("LOGIN_LOCKOUT_MINUTES", default=15, minimum=1)
AXES_HANDLER = "accounts.lockout.LoginLimitsHandler"
AXES_FAILURE_LIMIT = LOGIN_FAILURE_LIMIT
AXES_COOLOFF_TIME = timedelta(minutes=LOGIN_LOCKOUT_MINUTES)
# Counted apart, each against its own limit (accounts.lockout.LIMIT_SETTINGS).
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_CLIENT_IP_CALLABLE = "accounts.addresses.client_address"
AXES_LOCKOUT_CALLABLE = "accounts.views.locked_out"
# Failures are kept (AccessAttempt, in the admin); successful logins are not.
AXES_DISABLE_ACCESS_LOG = True

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": f"django.contrib.auth.password_validation.{name}"}
    for name in (
        "UserAttributeSimilarityValidator",
        "MinimumLengthValidator",
        "CommonPasswordValidator",
        "NumericPasswordValidator",
    )
]
# No password built on the site's name or the game's words ("Cardroom1", "p0ker!").
AUTH_PASSWORD_VALIDATORS.append({"NAME": "accounts.passwords.SiteWordsValidator"})

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Where `collectstatic` gathers files for a web server; never committed.
STATIC_ROOT = BASE_DIR / "staticfiles"
# Daphne serves the static files itself, through WhiteNoise's middleware, with
# DEBUG on or off, so neither `make run` nor the image needs a web server for
# them. WhiteNoise finds them where they live, so nothing has to be collected
# first; the image collects them anyway, and WhiteNoise serves those too.
WHITENOISE_USE_FINDERS = True
# WhiteNoise also looks in STATIC_ROOT, and warns at start-up while it doesn't
# exist, which it doesn't until `collectstatic` has run: expected, not a fault.
warnings.filterwarnings("ignore", message="No directory at: ", category=UserWarning)

# Content-Security-Policy: scripts, styles, images and connections (websockets
# included: 'self' covers ws:// and wss:// to this host) from this site only,
# and nothing inline, so injected markup can't run. No page may frame the site.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF],
        "connect-src": [SELF],
        "font-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# Email, for password resets. With no EMAIL_HOST, emails are written to the
# console (the terminal of `make run`) instead of being sent.
EMAIL_HOST = env_str("EMAIL_HOST", default="")
EMAIL_BACKEND = (
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend"
)
EMAIL_PORT = env_int("EMAIL_PORT", default=587)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", default="")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", default="")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", default=True)  # STARTTLS on EMAIL_PORT
EMAIL_TIMEOUT = 10
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", default="Cardroom <cardroom@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# Play chips every new player starts with.
CARDROOM_SIGNUP_GRANT = env_int("CARDROOM_SIGNUP_GRANT", default=10_000)
# At most this many signups from one address (accounts.addresses) in a window
# of CARDROOM_SIGNUP_WINDOW_HOURS from the first of them, so the grant can't be
# collected over and over; 0: no limit. 20 lets a household, or a home game's
# eight players gathered at the host's, all sign up on one evening.
CARDROOM_SIGNUPS_PER_ADDRESS = env_int("CARDROOM_SIGNUPS_PER_ADDRESS", default=20)
# Home games' invite links (tables.services.home_invite_redeem): the codes one
# player, and one address, may try in an hour, right or wrong. 0: no limit.
CARDROOM_INVITE_TRIES_PER_HOUR = env_int("CARDROOM_INVITE_TRIES_PER_HOUR", default=30, minimum=0)
# Keep the path of a page (an invite link's page included) out of the Referer
# other sites get; the invite code itself is in the fragment, which no browser sends.
SECURE_REFERRER_POLICY = "same-origin"
CARDROOM_SIGNUP_WINDOW_HOURS = env_int("CARDROOM_SIGNUP_WINDOW_HOURS", default=24, minimum=1)
# Password reset mails: at most this many asked from one address, and for one
# email, in a window of CARDROOM_PASSWORD_RESET_WINDOW_MINUTES, so the form
# can't be used to flood someone's mailbox or the mail server; 0: no limit.
CARDROOM_PASSWORD_RESETS_PER_ADDRESS = env_int("CARDROOM_PASSWORD_RESETS_PER_ADDRESS", default=5)
CARDROOM_PASSWORD_RESETS_PER_EMAIL = env_int("CARDROOM_PASSWORD_RESETS_PER_EMAIL", default=3)
CARDROOM_PASSWORD_RESET_WINDOW_MINUTES = env_int(
    "CARDROOM_PASSWORD_RESET_WINDOW_MINUTES", default=60, minimum=1
)

# Channels: websocket consumers in every Daphne process share this layer, so a
# message sent to a group reaches players connected to any of them. The in-memory
# layer is for unit tests only (tests/conftest.py); it cannot cross processes.
#
# The layer is channels_redis's publish/subscribe one: a group message is one
# PUBLISH, which Redis hands to every process subscribed to the group over the
# connection each keeps open, and each process hands it to its own members
# there. The other layer (channels_redis.core) keeps each channel as a list:
# three or four round trips per group message, and a blocking pop per message
# received, which cost a move about a tenth more of the machine's CPU
# (bench/README.md, "The channel layer by publish and subscribe"). What it
# kept besides, a message left in Redis for a minute while its reader's
# connection is down, buys little here: every notice tells a viewer to look at
# the table, and the next change or reconnect shows them all of it.
#
# Seconds between a Daphne process's full garbage-collector passes
# (cardroom/collector.py). Each stops the process for as long as it takes to
# walk its heap, a few hundred ms at hundreds of tables; between them, what
# only the collector frees (reference cycles that outlived a young pass) waits.
GC_FULL_PASS_SECONDS = env_int("GC_FULL_PASS_SECONDS", default=300, minimum=1)
# The channel layer's Redis servers: REDIS_URL's unless CHANNEL_LAYER_URLS
# names several (comma-separated), over which channels_redis spreads the
# channels and groups by their names. Celery keeps to REDIS_URL.
CHANNEL_LAYER_URLS = env_redis_urls("CHANNEL_LAYER_URLS", default=[REDIS_URL])
# The start of every channel and group name the layer uses. Redis's
# publish/subscribe ignores the database number, so two sites on one Redis
# need prefixes of their own even on different databases, or each hears the
# other's tables of the same id (the test suite gives each server it starts
# one, the load benchmark its own).
CHANNEL_LAYER_PREFIX = env_str("CHANNEL_LAYER_PREFIX", default="asgi")
CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "CONFIG": {
            # A read that hangs this long on a connection Redis has stopped
            # answering fails, and redis-py connects again (and subscribes again).
            "hosts": [{"address": url, "socket_timeout": 15} for url in CHANNEL_LAYER_URLS],
            "prefix": CHANNEL_LAYER_PREFIX,
        },
    },
}

# Websocket rate limits, per connection (tables.consumers, tables.ratelimit).
# Each connection may send LIMIT messages at once and LIMIT more every WINDOW
# seconds, refilled steadily; every message past that is answered with a
# `rate_limited` error and not acted on. One limit covers every message, moves
# included; chat has a tighter one of its own as well. Players send a move or
# two a second at most, and the page asks for a snapshot only after a gap.
CARDROOM_WS_MESSAGE_LIMIT = env_int("CARDROOM_WS_MESSAGE_LIMIT", default=20, minimum=1)
CARDROOM_WS_MESSAGE_WINDOW_SECONDS = env_int(
    "CARDROOM_WS_MESSAGE_WINDOW_SECONDS", default=5, minimum=1
)
CARDROOM_CHAT_LIMIT = env_int("CARDROOM_CHAT_LIMIT", default=5, minimum=1)
CARDROOM_CHAT_WINDOW_SECONDS = env_int("CARDROOM_CHAT_WINDOW_SECONDS", default=10, minimum=1)

# Celery (cardroom/celery.py reads every CELERY_* setting). Tasks carry ids, not
# objects, so JSON is all they need, and it can't run code the way pickle can.
CELERY_BROKER_URL = REDIS_URL
CELERY_RESULT_BACKEND = REDIS_URL
CELERY_RESULT_EXPIRES = 3600
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_RESULT_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
# A task is a short call into one service; anything slower than this is stuck.
# The soft limit raises inside the task first, so it can end its transaction.
CELERY_TASK_SOFT_TIME_LIMIT = 20
CELERY_TASK_TIME_LIMIT = 30
# Celery closes a worker's database connection around every task unless this
# is set, and then only every this many tasks. A turn's timeout task is mostly
# one quick query, so a new PostgreSQL connection each time cost more than the
# task. Between tasks, cardroom/celery.py applies DATABASE_CONN_MAX_AGE and the
# health check instead, as Daphne does.
CELERY_DB_REUSE_MAX = 10_000
CELERY_TIMEZONE = TIME_ZONE
# Keep retrying the broker at start-up, as Celery 5 does today, without its warning.
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A heartbeat through beat, the broker and a worker; its result isn't kept.
CELERY_BEAT_SCHEDULE = {
    "heartbeat": {
        "task": "tables.tasks.ping",
        "schedule": 60.0,
        "options": {"expires": 60, "ignore_result": True},
    },
}

# Turn timers (tables.services, "The turn clock"). A turn's timeout is a task
# for a moment after it expires (CARDROOM_TIMEOUT_WAIT_MS), sent only when a
# broker is configured and only for a turn still open near its expiry; beat's
# sweep times out any turn whose task was lost. The grace, counted from when the
# task was due, keeps the sweep from racing a task that is merely late.
CARDROOM_TURN_TASKS = env_bool("CARDROOM_TURN_TASKS", default=bool(REDIS_URL))
CARDROOM_TURN_QUEUE = env_str("CARDROOM_TURN_QUEUE", default="celery")
# A worker drops a timeout task this long after its turn expired; the sweep has
# long since done its work by then.
CARDROOM_TURN_TASK_EXPIRY_SECONDS = env_int("CARDROOM_TURN_TASK_EXPIRY_SECONDS", default=60)
CARDROOM_TURN_SWEEP_SECONDS = env_int("CARDROOM_TURN_SWEEP_SECONDS", default=2, minimum=1)
# A turn's timeout task is sent only once the turn is this close to expiring
# and still open (most turns are played long before), by a move that starts a
# turn this short or by beat, which looks every CARDROOM_TURN_SEND_SECONDS.
CARDROOM_TURN_SEND_SECONDS = env_int("CARDROOM_TURN_SEND_SECONDS", default=1, minimum=1)
CARDROOM_TURN_LOOKAHEAD_SECONDS = env_int(
    "CARDROOM_TURN_LOOKAHEAD_SECONDS", default=3, minimum=CARDROOM_TURN_SEND_SECONDS + 1
)
CARDROOM_TURN_GRACE_SECONDS = env_int("CARDROOM_TURN_GRACE_SECONDS", default=1)
# A clock that runs out (a turn's, a dealer's call) is acted on this long after
# it does, so that a move or call that reached the server in time, then waited
# up to this long behind other work there, is not beaten by its own timeout
# (tables.services.clock.timeout_due).
CARDROOM_TIMEOUT_WAIT_MS = env_int("CARDROOM_TIMEOUT_WAIT_MS", default=250, minimum=0)
# Extra time, once per hand, for a player who reconnects during their turn.
CARDROOM_RECONNECT_EXTENSION_SECONDS = env_int("CARDROOM_RECONNECT_EXTENSION_SECONDS", default=20)
# How long a player who stands up keeps their time bank at that table
# (tables.services.time_bank_kept_for): two hours, PokerStars' window for a
# return to be the same playing session. 0: a player who sits down again
# starts with a whole bank.
CARDROOM_TIME_BANK_KEPT_SECONDS = env_int("CARDROOM_TIME_BANK_KEPT_SECONDS", default=2 * 60 * 60)
# The pause between the end of one hand and the deal of the next, so players see
# the showdown. Sent as a task when CARDROOM_TURN_TASKS is on, with beat's
# deal_due_hands safety net behind it; otherwise the next hand is dealt at once.
CARDROOM_NEXT_HAND_DELAY_SECONDS = env_int("CARDROOM_NEXT_HAND_DELAY_SECONDS", default=3)
CELERY_BEAT_SCHEDULE["send-due-timeouts"] = {
    "task": "tables.tasks.send_due_timeouts",
    "schedule": float(CARDROOM_TURN_SEND_SECONDS),
    "options": {
        "expires": CARDROOM_TURN_SEND_SECONDS,
        "ignore_result": True,
        "queue": CARDROOM_TURN_QUEUE,
    },
}
# The waiting list (tables.services.waiting_join): a seat that frees at a full
# table is held this long for the first player in line, then passes to the next.
CARDROOM_SEAT_OFFER_SECONDS = env_int("CARDROOM_SEAT_OFFER_SECONDS", default=30, minimum=1)
# Beat's safety nets (tables.tasks.SAFETY_NETS), one task for all of them:
# - every turn whose own timeout task is overdue (lost or late) times out;
# - the next hand (tables.services.hands_start_due) is dealt at any table that
#   is ready and has been idle past CARDROOM_NEXT_HAND_DELAY_SECONDS, as after a
#   crash lost the start_next_hand task sent when its last hand ended;
# - a dealer's call that has run out, its own task lost, deals the default game
#   (tables.services.calls_expire_overdue);
# - the waiting list's seat offers that ran out pass to the next in line.
# A sweep not started by the next one's time is superseded by it. It goes where
# the turns' own tasks go, to the workers that time turns.
CELERY_BEAT_SCHEDULE["sweep-safety-nets"] = {
    "task": "tables.tasks.sweep_safety_nets",
    "schedule": float(CARDROOM_TURN_SWEEP_SECONDS),
    "options": {
        "expires": CARDROOM_TURN_SWEEP_SECONDS,
        "ignore_result": True,
        "queue": CARDROOM_TURN_QUEUE,
    },
}
# Forget the websockets of a Daphne process that died without closing them
# (tables.services.connections_expire_stale): their rows go stale after 30
# seconds without the process's heartbeat, and this sweep finds them.
CELERY_BEAT_SCHEDULE["expire-stale-connections"] = {
    "task": "tables.tasks.expire_stale_connections",
    "schedule": 10.0,
    "options": {"expires": 10, "ignore_result": True, "queue": CARDROOM_TURN_QUEUE},
}
# A player disconnected or sitting out at a table where no hand is dealt keeps
# their seat this long (counted from when they went away, or from the table's
# last hand if it ended later), then is stood up with their chips back in their
# balance (tables.services.seats_stand_up_idle). Beat's sweep looks every 10
# seconds. At least a minute, so the pause between two hands never counts.
CARDROOM_IDLE_SEAT_SECONDS = env_int("CARDROOM_IDLE_SEAT_SECONDS", default=5 * 60, minimum=60)
CELERY_BEAT_SCHEDULE["stand-up-idle-seats"] = {
    "task": "tables.tasks.stand_up_idle_seats",
    "schedule": 10.0,
    "options": {"expires": 10, "ignore_result": True, "queue": CARDROOM_TURN_QUEUE},
}
# A home game where no hand has been dealt for the operator's idle limit (the
# admin's home game rules) closes itself (tables.services.home_games_close_idle).
# Beat's sweep looks every minute: the limit is counted in minutes.
CELERY_BEAT_SCHEDULE["close-idle-home-games"] = {
    "task": "tables.tasks.close_idle_home_games",
    "schedule": 60.0,
    "options": {"expires": 60, "ignore_result": True, "queue": CARDROOM_TURN_QUEUE},
}
