"""Data files of prtheory.papers (a package so that setuptools ships the CSVs as package data)."""
