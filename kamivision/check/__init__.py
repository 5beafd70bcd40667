"""Checking the answer against the reading's doubt: which doubtful cells would change the
moves (:mod:`.doubt`), moves that hold under as many readings as can be found
(:mod:`.steady`), and other readings re-solved when the optimum misses the counter
(:mod:`.parcheck`).  The stage after the solve, before the overlay."""
