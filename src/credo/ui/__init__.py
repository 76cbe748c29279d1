"""The memory inspector (`credo ui`): server-rendered pages over one scope's `Memory`.

`app` holds the routes, `queries` what the pages compute from the memory, `auth` the
token, session and CSRF checks, `server` the command. Starlette, uvicorn and Jinja2 are
imported only when the inspector is built, so `credo` works without them.
"""

from __future__ import annotations

from .server import register

__all__ = ["register"]
