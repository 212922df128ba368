"""Prep sheets on both backends."""
