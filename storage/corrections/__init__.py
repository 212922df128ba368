"""Corrections stores."""
