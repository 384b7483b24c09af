"""Streamlit-facing helpers: the only package module allowed to import streamlit."""
