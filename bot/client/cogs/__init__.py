"""Thin discord.py adapters: parse options, call core and services, hand results to the UI."""
