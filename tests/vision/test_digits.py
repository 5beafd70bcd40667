"""The small-digit classifier: it reads digits of a few pixels in a face it was not trained
on, a glyph it reads otherwise than the templates is unsure, and its agreement lifts a
small counter's confidence only where no translucent bar reaches the button."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import ImageFont

from kamivision.synth.counters import draw_counter
from kamivision.vision import digits, par

NARROW = Path("/usr/share/fonts/truetype/liberation/LiberationSansNarrow-Regular.ttf")


def _small_glyphs(seed: int, counters: int, face=None, icon: bool = False):
    """(glyph, digit) for each glyph of 7 to 13 pixels the reader cuts out of drawn counters."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(counters):
        counter = draw_counter(rng, face, icon)
        block = counter.buttons()
        for rect, marks in zip(block.buttons, block.marks):
            for line in par.digit_lines(rect, marks):
                if len(line) == len(str(counter.value)):
                    pairs = zip(sorted(line, key=lambda g: g.x), str(counter.value))
                    out += [(g, d) for g, d in pairs if 7 <= g.height <= digits.CLASSIFIED_UP_TO]
    return out


@pytest.mark.skipif(not NARROW.is_file(), reason=f"{NARROW} is not installed (Debian's fonts-liberation)")
def test_the_classifier_reads_small_digits_in_a_face_it_was_not_trained_on():
    """Liberation Sans Narrow is left out of the training (scripts/train_digits.py): its
    digits of 7 to 13 pixels are still read right, nearly all with confidence."""
    face = lambda size: ImageFont.truetype(str(NARROW), size)  # noqa: E731
    glyphs = _small_glyphs(seed=77, counters=300, face=face)
    assert len(glyphs) > 150
    probabilities = [digits.classify(g.mask, g.shade) for g, _ in glyphs]
    read = [(int(p.argmax()), float(p.max())) for p in probabilities]
    right = sum(str(k) == d for (k, _), (_, d) in zip(read, glyphs))
    sure_wrong = sum(str(k) != d and p >= digits.CLASSIFIER_SURE for (k, p), (_, d) in zip(read, glyphs))
    assert right >= 0.97 * len(glyphs), (right, len(glyphs))
    assert sure_wrong <= 0.005 * len(glyphs), sure_wrong


def test_small_counters_the_templates_doubt_are_read_and_none_wrongly(monkeypatch):
    """Counters of 8 to 10 pixels: with the classifier more are read right, and none wrong."""
    rng = np.random.default_rng(5)
    counters = [c for c in (draw_counter(rng) for _ in range(600)) if 8 <= c.height <= 10]

    def readings() -> tuple[int, int]:
        values = [(par.read_par(c.layout())[0], c.value) for c in counters]
        return sum(v == drawn for v, drawn in values), sum(v is not None and v != drawn for v, drawn in values)

    right, wrong = readings()
    monkeypatch.setattr(digits, "CLASSIFIED_UP_TO", 0)
    right_before, wrong_before = readings()
    assert wrong == 0 and wrong_before == 0
    assert right > right_before + 5, (right, right_before, len(counters))


def test_a_glyph_the_classifier_reads_otherwise_is_unsure(monkeypatch):
    glyph, digit = _small_glyphs(seed=3, counters=40)[0]
    assert digits.read_glyph(glyph.mask, glyph.shade)[0] == digit
    other = np.full(10, 0.001)
    other[(int(digit) + 1) % 10] = 0.991
    score = digits.read_glyph(glyph.mask, glyph.shade)[1]
    monkeypatch.setattr(digits, "classify", lambda mask, shade: other)
    assert digits.read_glyph(glyph.mask, glyph.shade) == (digit, score, 0.0)


def test_under_a_bar_the_classifier_only_takes_confidence_away(monkeypatch):
    """Small counters under a translucent bar with an icon beside them: read with the
    classifier, no confidence is above the templates' own (the classifier never saw an
    icon joined to a digit); while a small glyph in plain view is lifted."""
    rng = np.random.default_rng(11)
    counters = [c for c in (draw_counter(rng, icon=True) for _ in range(80)) if c.height <= digits.CLASSIFIED_UP_TO]
    assert len(counters) > 40
    with_classifier = [par.read_par(c.layout())[1] for c in counters]
    monkeypatch.setattr(digits, "CLASSIFIED_UP_TO", 0)
    templates = [par.read_par(c.layout())[1] for c in counters]
    assert all(c <= t for c, t in zip(with_classifier, templates))
    monkeypatch.undo()
    glyphs = _small_glyphs(seed=3, counters=40)
    lifted = [
        digits.read_glyph(g.mask, g.shade)[2] > digits.read_glyph(g.mask, g.shade, lift=False)[2] for g, _ in glyphs
    ]
    assert any(lifted)
