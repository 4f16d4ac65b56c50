"""Load benchmark of the crowd-worker hot path (issue 12): ``python -m benchmarks.load``."""
