# Cardroom's image: Daphne (web), the Celery worker and beat all run from it;
# docker-compose.yml picks the command. Settings come from the environment.
FROM python:3.11-slim

# PYTHONPATH: run the code from /app, where templates/ and static/ sit beside it,
# rather than from the copy that `pip install .` puts in site-packages.
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONPATH=/app

WORKDIR /app
COPY . .
# collectstatic reads the settings, which need a SECRET_KEY once DEBUG is off;
# it signs nothing, so a throwaway one does. Daphne serves the collected files
# itself (WhiteNoise), so no web server is needed for them.
RUN pip install . \
    && SECRET_KEY=collectstatic-only python manage.py collectstatic --no-input \
    && useradd --system --no-create-home --uid 10001 cardroom

USER cardroom
EXPOSE 8000
# Daphne processes sharing port 8000; WEB_PROCESSES sets how many (default 2).
# One socket for IPv4 and one for IPv6 (cardroom.web makes the IPv6 one IPv6
# only, so the two don't clash); the IPv6 one is left out where there is none.
CMD ["python", "-m", "cardroom.web", "--host", "0.0.0.0", "--host", "::", "--port", "8000"]
