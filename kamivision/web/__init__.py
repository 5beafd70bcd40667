"""The browser interface: ``kamivision serve`` and ``kamivision review``.

:mod:`~kamivision.web.app` is the JSON API and serves the page (``static/``: plain HTML,
CSS and JavaScript, nothing fetched from elsewhere); :mod:`~kamivision.web.sessions` holds
the screenshots being worked on, each with a :class:`~kamivision.review.ReviewModel`;
:mod:`~kamivision.web.jobs` runs the solves in processes of their own, in a fair queue;
:mod:`~kamivision.web.server` binds the socket and runs uvicorn.
"""

from .app import Settings, create_app

__all__ = ["Settings", "create_app"]
