"""Django settings for Cardroom.

Everything that differs between a laptop, CI and a server comes from environment
variables read through ``cardroom.env``; there is one settings module and no
per-environment branches, so what CI tests is what runs.
"""

from __future__ import annotations

from pathlib import Path

from cardroom.env import env_bool, env_database, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent

# On by default until there is a deployment; set DEBUG=false anywhere public.
DEBUG = env_bool("DEBUG", default=True)

# The fallback key exists so `make run` works out of the box. It is offered only
# while DEBUG is on, so a server that forgets SECRET_KEY refuses to start.
_DEV_SECRET_KEY = "django-insecure-cardroom-local-development-only"
SECRET_KEY = env_str("SECRET_KEY", default=_DEV_SECRET_KEY if DEBUG else None)

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

# A SQLite file next to manage.py, so trying Cardroom needs no database server.
_DEFAULT_DATABASE_URL = f"sqlite:///{BASE_DIR / 'db.sqlite3'}"
DATABASES = {"default": env_database(env_str("DATABASE_URL", default=_DEFAULT_DATABASE_URL))}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Read now so a later release (channels, Celery) has one place to find it; empty
# means "no Redis configured yet".
REDIS_URL = env_str("REDIS_URL", default="")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "accounts",
    "tables",
]

# A custom user model from day one: players carry a display name and a chip balance.
AUTH_USER_MODEL = "accounts.User"

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
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

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": f"django.contrib.auth.password_validation.{name}"}
    for name in (
        "UserAttributeSimilarityValidator",
        "MinimumLengthValidator",
        "CommonPasswordValidator",
        "NumericPasswordValidator",
    )
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Where `collectstatic` gathers files for a web server; never committed.
STATIC_ROOT = BASE_DIR / "staticfiles"

# Play chips every new player starts with.
CARDROOM_SIGNUP_GRANT = env_int("CARDROOM_SIGNUP_GRANT", default=10_000)
