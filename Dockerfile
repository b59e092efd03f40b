# Yukon Online: one image for the web server, the Celery worker and Celery beat.

# The solver's compiled search core, built where a C compiler is; the image itself has none.
FROM python:3.11-slim-bookworm AS solver-core
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
COPY games/solver/core.c /build/core.c
RUN cc -O2 -std=c99 -Wall -Wextra -shared -fPIC -o /build/_core.so /build/core.c

FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DJANGO_SETTINGS_MODULE=yukon_site.settings

WORKDIR /app

# Dependencies first: this layer is rebuilt only when the pins change.
COPY requirements.txt .
RUN pip install -r requirements.txt

COPY . .
COPY --from=solver-core /build/_core.so games/solver/_core.so

# Hashed, compressed static files for whitenoise. The key only lets the settings load here.
RUN DEBUG=0 SECRET_KEY="$(python -c 'import secrets; print(secrets.token_urlsafe(50))')" \
    python manage.py collectstatic --noinput -v 0

RUN useradd --system --uid 10001 --home-dir /app yukon \
    && chown -R yukon /app
USER yukon

EXPOSE 8000
CMD ["gunicorn", "-c", "python:yukon_site.gunicorn_conf", "yukon_site.wsgi"]
