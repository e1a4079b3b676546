"""Golden traces chosen for coverage: candidate walks, coverage features, greedy selection."""
