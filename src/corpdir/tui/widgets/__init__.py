"""Widgets named for what the user sees."""
