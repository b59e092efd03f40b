"""Settings for Yukon Online: one package, configured by environment variables.

Every variable is documented in docs/operations.md. Without any of them this is the
embedded development setup: SQLite in the project folder, Celery tasks run eagerly
in-process, a local-memory cache and e-mail printed to the console. `DEBUG=0` is
production mode, which refuses to start with an unsafe secret key.
"""

# One module a concept, read in this order (each later one may use what the earlier set):
from yukon_site.settings.base import *  # noqa: E402, F403
from yukon_site.settings.product import *  # noqa: E402, F403
from yukon_site.settings.site import *  # noqa: E402, F403
