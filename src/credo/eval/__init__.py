"""Evaluation: measured figures for the gate, the extractors and recall."""
