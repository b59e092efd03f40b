"""The cache on Redis, failing soft: while Redis does not answer, each web process keeps its own
cache in memory, so that what lives in the cache — throttles, allauth's sign-in rate limits, the
"verification queued" flag, cached pages of the boards — keeps working, per process, instead of
failing the request (docs/operations.md, "What happens when…").

After a failure Redis is left alone for REDIS_RETRY_SECONDS (a request does not wait for a dead
server each time); then it is tried again, and used again as soon as it answers. Nothing written
to the memory cache meanwhile is copied to Redis: limits counted in memory start again from zero.
"""

from __future__ import annotations

import logging
import time

import redis
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache

logger = logging.getLogger(__name__)

REDIS_RETRY_SECONDS = 5.0


class FailSoftRedisCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._memory = LocMemCache(f"fail-soft-{id(self)}", {**params, "OPTIONS": {}})
        self._down_until = 0.0

    @property
    def redis_down(self) -> bool:
        """True while this process serves from memory (Redis failed less than REDIS_RETRY_SECONDS ago)."""
        return time.monotonic() < self._down_until

    def _either(self, name: str, *args, **kwargs):
        if not self.redis_down:
            try:
                return getattr(super(), name)(*args, **kwargs)
            except redis.RedisError as error:
                if not self.redis_down:
                    logger.warning(
                        "Redis is not answering: this process caches in memory",
                        extra={"error": repr(error)[:300], "retry_seconds": REDIS_RETRY_SECONDS},
                    )
                self._down_until = time.monotonic() + REDIS_RETRY_SECONDS
        return getattr(self._memory, name)(*args, **kwargs)

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._either("add", key, value, timeout, version)

    def get(self, key, default=None, version=None):
        return self._either("get", key, default, version)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._either("set", key, value, timeout, version)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._either("touch", key, timeout, version)

    def delete(self, key, version=None):
        return self._either("delete", key, version)

    def get_many(self, keys, version=None):
        return self._either("get_many", keys, version)

    def has_key(self, key, version=None):
        return self._either("has_key", key, version)

    def incr(self, key, delta=1, version=None):
        return self._either("incr", key, delta, version)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        return self._either("set_many", data, timeout, version)

    def delete_many(self, keys, version=None):
        return self._either("delete_many", keys, version)

    def clear(self):
        return self._either("clear")

    def ping(self) -> bool:
        """Does Redis itself answer now (whatever the requests are served from)?"""
        try:
            return bool(self._cache.get_client(write=True).ping())
        except redis.RedisError:
            return False
