"""Correcting a recognised board by hand.

:mod:`~kamivision.review.model` holds all the logic and needs no display;
:mod:`~kamivision.review.session` opens a review (screenshot or board file);
the page of :mod:`kamivision.web` is the view (``kamivision review`` opens it).
"""

from .model import ReviewModel
from .session import ReviewSession, open_review

__all__ = ["ReviewModel", "ReviewSession", "open_review"]
