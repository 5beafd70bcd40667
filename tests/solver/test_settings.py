"""The machine's search settings (:mod:`kamivision.solver.settings`)."""


def test_solves_sharing_the_machine_share_its_memory_and_take_two_threads_only_with_cpus_to_spare(monkeypatch):
    import os

    from kamivision.solver import SearchSettings

    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    alone, two, four = (SearchSettings.for_this_machine(sharing=n) for n in (1, 2, 4))
    assert alone.threads == 2 and two.threads == 1 and four.threads == 1
    assert two.max_bytes < alone.max_bytes * 0.6 and four.max_bytes >= 256 << 20  # (the memory free drifts a little)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(8)), raising=False)
    assert SearchSettings.for_this_machine(sharing=4).threads == 2
    assert SearchSettings.for_this_machine(sharing=5).threads == 1


def test_the_cpus_counted_are_the_ones_this_process_may_use(monkeypatch):
    """A container given 2 CPUs of a 64-CPU machine counts 2 (its affinity set); where
    the system has no affinity call, the machine's count."""
    import os

    from kamivision.solver.settings import usable_cpus

    monkeypatch.setattr(os, "cpu_count", lambda: 64)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {3, 5}, raising=False)
    assert usable_cpus() == 2
    monkeypatch.delattr(os, "sched_getaffinity", raising=False)
    assert usable_cpus() == 64


def test_a_memory_cap_the_user_set_is_shared_by_the_solves_and_has_no_floor():
    from kamivision.solver import SearchSettings

    assert SearchSettings.for_this_machine(max_mb=100).max_bytes == 100_000_000
    assert SearchSettings.for_this_machine(sharing=4, max_mb=100).max_bytes == 25_000_000
    assert SearchSettings.for_this_machine(max_mb=1).max_bytes == 1_000_000
