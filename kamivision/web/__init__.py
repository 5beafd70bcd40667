"""The browser interface: ``kamivision serve``, ``kamivision review`` and ``kamivision worker``.

:mod:`~kamivision.web.app` is the JSON API and serves the page (``static/``: plain HTML,
CSS and JavaScript modules, no build step, nothing fetched from elsewhere), behind :mod:`~kamivision.web.security`;
:mod:`~kamivision.web.sessions` holds the screenshots being worked on, each with a
:class:`~kamivision.review.ReviewModel`, and :mod:`~kamivision.web.views` turns them into
the page's JSON; :mod:`~kamivision.web.jobs` runs the solves in processes of their own, in
a fair queue; :mod:`~kamivision.web.redisstore` and :mod:`~kamivision.web.worker` keep the
sessions and the queue in Redis instead (``serve --redis``, ``worker``);
:mod:`~kamivision.web.server` binds the socket and runs uvicorn.
"""

from .app import create_app
from .settings import Settings

__all__ = ["Settings", "create_app"]
