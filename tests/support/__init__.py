"""Test helpers shared by every level (importable as ``support``)."""
