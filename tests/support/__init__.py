"""What several test modules share: builders, bodies, cases and runs (tests/README.md). No test module imports another."""
