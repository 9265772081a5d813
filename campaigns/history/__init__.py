"""History: board history, maps over turns, compare, the history CSV."""
