"""The engine's work grows linearly with the board (issue 2's benchmark asks for linear
cost). Timings on a shared machine are noisy and also grow with cache misses, so this
checks the deterministic part: lines of Python run per department in spawn-consume."""

from campaigns.engine.bench import lines_per_department, random_state


def test_spawn_consume_does_the_same_work_per_department_at_every_size() -> None:
    small = lines_per_department(random_state(300))
    large = lines_per_department(random_state(3000))
    assert 100 < small < 1000  # it measured something: about 290 lines per department
    assert abs(large - small) / small < 0.03, (small, large)
