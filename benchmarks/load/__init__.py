"""Load benchmark of the crowd-worker hot path (a crowd launch): ``python -m benchmarks.load``."""
