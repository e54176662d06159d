"""Prometheus metrics of the scoring service."""

from prometheus_client import Counter

RESULTS = Counter("tavola_scoring_results_total", "Match results consumed", ["outcome"])
