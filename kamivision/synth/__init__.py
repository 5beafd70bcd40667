"""Screenshots made, not read: the renderer of realistic KAMI 2 screens (:mod:`.render`),
the phones' screens it draws on (:mod:`.screens`, a table for the renderer only: the reader
never uses it) and what covers the game on a screenshot (:mod:`.covers`).  Off the
product's reading path: ``kamivision render``, the samples, the tests and benchmarks."""
