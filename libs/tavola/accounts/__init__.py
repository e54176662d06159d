"""Accounts, scopes and API tokens (see docs/security.md)."""
